package lublin_test

import (
	"fmt"
	"os"

	"github.com/hpcwl/hpcwl/gen/lublin"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
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

// ExampleGenerator_Stream writes a run job by job, in constant memory
// whatever its length: here to an SWF writer on standard output.
func ExampleGenerator_Stream() {
	cfg := lublin.Config{Params: lublin.DefaultParams(lublin.Whole), Jobs: 3, Seed: 42}
	g, err := lublin.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	w := trace.NewWriter(os.Stdout, trace.SWFLayout{})
	var h swf.Header // g.Header(cfg.Jobs) gives the run's full header
	h.Add("MaxJobs", "3")
	if err := w.WriteHeader(&h); err != nil {
		fmt.Println(err)
		return
	}
	n, err := g.Stream(w)
	if err == nil {
		err = w.Close()
	}
	fmt.Println(n, err)
	// Output:
	// ; MaxJobs: 3
	// 1 133 -1 344 1 -1 -1 -1 -1 -1 1 -1 -1 -1 0 -1 -1 -1
	// 2 734 -1 16 2 -1 -1 -1 -1 -1 1 -1 -1 -1 0 -1 -1 -1
	// 3 1783 -1 37830 1 -1 -1 -1 -1 -1 1 -1 -1 -1 0 -1 -1 -1
	// 3 <nil>
}
