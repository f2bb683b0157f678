package feedback

import (
	"context"
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// cpuMetric reports the process's CPU time per operation next to the
// wall-clock time: on a shared machine it is the steadier of the two.
// Call it after the loop with the CPU time taken before it.
func cpuMetric(b *testing.B, before int64, ok bool) {
	if after, ok2 := cpuTime(); ok && ok2 {
		b.ReportMetric(float64(after-before)/float64(b.N), "cpu-ns/op")
	}
}

// atArrivals returns a copy of t whose jobs are submitted at the times run
// r gave them (jobs never submitted keep their recorded time).
func atArrivals(t *trace.Trace, r *Run) *trace.Trace {
	jobs := slices.Clone(t.Jobs)
	for i, s := range r.Source.Submitted() {
		if s >= 0 {
			jobs[i].Submit = int64(s)
		}
	}
	slices.SortStableFunc(jobs, func(a, b trace.Job) int {
		switch {
		case a.Submit != b.Submit:
			return compareInt(a.Submit, b.Submit)
		}
		return compareInt(a.ID, b.ID)
	})
	nt := *t
	nt.Jobs = jobs
	return &nt
}

func compareInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// BenchmarkKTH compares a rigid replay of KTH-SP2 under EASY with Madon's
// feedback replay (a60) and Zakay's Adjusted users of the same log and
// scheduler; the feedback runs include identifying the sessions and
// building the dependency graph. The rigid-at-* runs replay the log rigidly
// at the arrival times the feedback run produced: the same schedule (the
// same scheduler work) without the feedback machinery, which separates the
// cost of the source from that of scheduling a different queue.
func BenchmarkKTH(b *testing.B) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	type variant struct {
		name string
		tr   *trace.Trace
		fo   *Options
	}
	vs := []variant{{"rigid", tr, nil}, {"madon-a60", tr, &Options{}}, {"adjusted", tr, &Options{Model: Adjusted}}}
	for _, v := range vs[1:] {
		s, _ := sched.New("easy")
		r, err := Simulate(ctx, tr, s, sim.Options{}, *v.fo)
		if err != nil {
			b.Fatal(err)
		}
		vs = append(vs, variant{"rigid-at-" + v.name, atArrivals(tr, r), nil})
	}
	for _, c := range vs {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			c0, ok := cpuTime()
			for b.Loop() {
				s, _ := sched.New("easy")
				var err error
				if c.fo == nil {
					_, err = Rigid(ctx, c.tr, s, sim.Options{})
				} else {
					_, err = Simulate(ctx, c.tr, s, sim.Options{}, *c.fo)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			cpuMetric(b, c0, ok)
		})
	}
}

// BenchmarkNewSource measures the set-up of a feedback run of KTH-SP2:
// sessions, dependency graph and source state.
func BenchmarkNewSource(b *testing.B) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	w, err := sim.Prepare(tr, sim.PrepareOptions{})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		fo   Options
	}{{"madon-a60", Options{}}, {"adjusted", Options{Model: Adjusted}}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			c0, ok := cpuTime()
			for b.Loop() {
				if _, err := NewSource(tr, w, c.fo); err != nil {
					b.Fatal(err)
				}
			}
			cpuMetric(b, c0, ok)
		})
	}
}

// BenchmarkKTHPaired measures the ratio of a feedback run's cost to a rigid
// run's on KTH-SP2 under EASY, the comparison BenchmarkKTH makes, in a way
// that survives a noisy machine: each iteration runs every case once, in
// an order that rotates, and takes the process CPU time of each run; the
// reported ratios are the medians over iterations of the per-iteration
// ratios, so a slow spell of the machine affects both sides of a ratio.
// The -plan cases run a [Plan] built once before the loop (sessions and
// graph shared by all runs, as in a sweep). Run it with a fixed count,
// e.g. -benchtime 100x.
func BenchmarkKTHPaired(b *testing.B) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, ok := cpuTime(); !ok {
		b.Skip("no CPU time on this platform")
	}
	ctx := context.Background()
	type variant struct {
		name string
		fo   *Options
		pl   *Plan
	}
	vs := []variant{{name: "rigid"}, {name: "madon", fo: &Options{}}, {name: "adjusted", fo: &Options{Model: Adjusted}}}
	for _, v := range vs[1:] {
		pl, err := NewPlan(tr, *v.fo)
		if err != nil {
			b.Fatal(err)
		}
		vs = append(vs, variant{name: v.name + "-plan", pl: pl})
	}
	cost := make([][]float64, len(vs))
	i := 0
	for b.Loop() {
		for k := range vs {
			v := (i + k) % len(vs)
			s, _ := sched.New("easy")
			c0, _ := cpuTime()
			var err error
			switch {
			case vs[v].pl != nil:
				_, err = vs[v].pl.Simulate(ctx, s, sim.Options{})
			case vs[v].fo != nil:
				_, err = Simulate(ctx, tr, s, sim.Options{}, *vs[v].fo)
			default:
				_, err = Rigid(ctx, tr, s, sim.Options{})
			}
			c1, _ := cpuTime()
			if err != nil {
				b.Fatal(err)
			}
			cost[v] = append(cost[v], float64(c1-c0))
		}
		i++
	}
	b.ReportMetric(median(slices.Clone(cost[0]))/1e6, "rigid-ms")
	for v := 1; v < len(vs); v++ {
		r := make([]float64, len(cost[v]))
		for k := range r {
			r[k] = cost[v][k] / cost[0][k]
		}
		b.ReportMetric(median(r), vs[v].name+"/rigid")
	}
}
