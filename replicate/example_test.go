package replicate_test

import (
	"context"
	"fmt"

	"github.com/hpcwl/hpcwl/replicate"
	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// Example simulates four ten-week variants of the embedded KTH-SP2 log
// under EASY with feedback (TBUOS).
func Example() {
	t, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	pools, err := resample.Classify(t, resample.ClassifyOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := replicate.Run(context.Background(), replicate.Config{
		Pools:     pools,
		Scheduler: func() sim.Scheduler { return sched.NewEASY(0) },
		Mode:      replicate.TBUOS,
		Variants:  4,
		Generate:  resample.Options{Seed: 1, Duration: 10 * resample.Week},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	tp := r.Summary[0]
	fmt.Printf("%d %s variants; the %d-week variants completed fewer jobs than the whole log: %v\n",
		len(r.Variants), r.Mode, 10, tp.OriginalRank == 1)
	// Output:
	// 4 tbuos variants; the 10-week variants completed fewer jobs than the whole log: true
}
