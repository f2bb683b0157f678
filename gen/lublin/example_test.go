package lublin_test

import (
	"fmt"

	"github.com/hpcwl/hpcwl/gen/lublin"
)

func ExampleGenerate() {
	hdr, jobs, err := lublin.Generate(lublin.Config{
		Params: lublin.DefaultParams(lublin.Typed),
		Jobs:   1000,
		Seed:   42,
		Procs:  256,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	procs, _ := hdr.MaxProcs()
	fmt.Println(len(jobs), procs, jobs[0].ID, jobs[0].Status)
	// Output:
	// 1000 256 1 1
}

func ExampleCalibrateLoad() {
	p, factor, err := lublin.CalibrateLoad(lublin.DefaultParams(lublin.Whole), 0.6)
	fmt.Printf("load %.3f, a_arr × %.4f, %v\n", lublin.ExpectedLoad(p), factor, err)
	// Output:
	// load 0.600, a_arr × 1.0306, <nil>
}
