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

func ExamplePairedDiffs() {
	// The same three jobs under two schedulers: job 3 waits less in b,
	// job 2 more.
	job := func(id int64, submit, start, run sim.Time) sim.Outcome {
		return sim.Outcome{Job: sim.Job{ID: id, Submit: submit, Runtime: run, Procs: 1}, Start: start, End: start + run}
	}
	a := &sim.Result{Procs: 1, Jobs: []sim.Outcome{job(1, 0, 0, 100), job(2, 10, 100, 50), job(3, 20, 150, 10)}}
	b := &sim.Result{Procs: 1, Jobs: []sim.Outcome{job(1, 0, 0, 100), job(2, 10, 110, 50), job(3, 20, 100, 10)}}
	ds, err := metrics.PairedDiffs(a, b, metrics.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	w := ds[0]
	fmt.Printf("%s: %d jobs, mean %.1f s in a, %.1f s in b, difference %.1f s\n", w.Metric, w.Jobs, w.A, w.B, w.Diff.Mean)
	fmt.Printf("lower in b: %d, higher: %d\n", w.Lower, w.Higher)
	// Output:
	// wait: 3 jobs, mean 73.3 s in a, 60.0 s in b, difference -13.3 s
	// lower in b: 1, higher: 1
}
