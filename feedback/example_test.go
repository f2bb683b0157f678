package feedback_test

import (
	"context"
	"fmt"

	"github.com/hpcwl/hpcwl/feedback"
	"github.com/hpcwl/hpcwl/metrics"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// Replay KTH-SP2 on nodes twice as slow (Madon's perf/2) with EASY: rigid
// replay piles up weeks of waits, while with Madon's think-time feedback
// (a60 sessions) users slow down and submit later instead.
func ExampleSimulate() {
	t, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	so := sim.Options{PrepareOptions: sim.PrepareOptions{Machine: sim.Machine{Speed: 0.5}}}
	rigid, err := feedback.Rigid(ctx, t, sched.NewEASY(1), so)
	if err != nil {
		panic(err)
	}
	fb, err := feedback.Simulate(ctx, t, sched.NewEASY(1), so, feedback.Options{Model: feedback.Madon})
	if err != nil {
		panic(err)
	}
	for _, r := range []*feedback.Run{rigid, fb} {
		m, _ := metrics.Compute(r.Result, metrics.Options{NoGroups: true})
		fmt.Printf("mean wait %.2f days, makespan %.0f days\n", m.Wait.Mean/86400, float64(m.Makespan)/86400)
	}
	l := feedback.LatenessOf(t, fb.Source.Submitted())
	fmt.Printf("mean lateness %.1f days, relative %.2f, additional %.0f s\n", l.Mean/86400, l.Relative, l.Additional)
	// Output:
	// mean wait 27.53 days, makespan 478 days
	// mean wait 0.60 days, makespan 625 days
	// mean lateness 42.7 days, relative 1.13, additional 259 s
}

// Sweep schedulers over one log with Zakay's Adjusted users: the sessions,
// batches and dependency graph are identified once, in the plan, and
// shared by every run.
func ExamplePlan() {
	t, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		panic(err)
	}
	pl, err := feedback.NewPlan(t, feedback.Options{Model: feedback.Adjusted})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d sessions, %d batches\n", len(pl.Partition.Sessions), len(pl.Partition.Batches))
	so := sim.Options{PrepareOptions: sim.PrepareOptions{Machine: sim.Machine{Speed: 0.5}}}
	for _, name := range []string{"fcfs", "easy"} {
		s, err := sched.New(name)
		if err != nil {
			panic(err)
		}
		r, err := pl.Simulate(context.Background(), s, so)
		if err != nil {
			panic(err)
		}
		m, _ := metrics.Compute(r.Result, metrics.Options{NoGroups: true})
		l := feedback.LatenessOf(t, r.Source.Submitted())
		fmt.Printf("%s: mean wait %.2f h, mean lateness %.1f days\n", name, m.Wait.Mean/3600, l.Mean/86400)
	}
	// Output:
	// 10292 sessions, 16482 batches
	// fcfs: mean wait 43.64 h, mean lateness 206.6 days
	// easy: mean wait 12.49 h, mean lateness 42.1 days
}
