package metrics_test

import (
	"fmt"

	"github.com/hpcwl/hpcwl/metrics"
	"github.com/hpcwl/hpcwl/sim"
)

func ExampleCompute() {
	res := &sim.Result{Procs: 4, Jobs: []sim.Outcome{
		{Job: sim.Job{ID: 1, Submit: 0, Runtime: 100, Procs: 4}, Start: 0, End: 100},
		{Job: sim.Job{ID: 2, Submit: 50, Runtime: 5, Procs: 2}, Start: 100, End: 105},
	}}
	s, err := metrics.Compute(res, metrics.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("mean wait %.1f s, max %.0f s\n", s.Wait.Mean, s.Wait.Max)
	fmt.Printf("bounded slowdown mean %.2f\n", s.BoundedSlowdown.Mean)
	fmt.Printf("makespan %d s, utilization %.3f\n", s.Makespan, s.Utilization)
	// Output:
	// mean wait 25.0 s, max 50 s
	// bounded slowdown mean 3.25
	// makespan 105 s, utilization 0.976
}
