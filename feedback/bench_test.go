package feedback

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
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

// pairedCase is one case of a paired benchmark: a run, timed by
// process CPU time.
type pairedCase struct {
	name string
	run  func() error
}

// paired runs every case once per iteration, in an order that rotates, and
// reports the median CPU time of the first case (the rigid run) and, for
// each other case, the median over iterations of its cost divided by the
// first case's in the same iteration: a slow spell of a shared machine
// affects both sides of a ratio.
func paired(b *testing.B, cases []pairedCase) {
	if _, ok := cpuTime(); !ok {
		b.Skip("no CPU time on this platform")
	}
	cost := make([][]float64, len(cases))
	i := 0
	for b.Loop() {
		for k := range cases {
			v := (i + k) % len(cases)
			c0, _ := cpuTime()
			err := cases[v].run()
			c1, _ := cpuTime()
			if err != nil {
				b.Fatalf("%s: %v", cases[v].name, err)
			}
			cost[v] = append(cost[v], float64(c1-c0))
		}
		i++
	}
	b.ReportMetric(median(slices.Clone(cost[0]))/1e6, cases[0].name+"-ms")
	for v := 1; v < len(cases); v++ {
		r := make([]float64, len(cost[v]))
		for k := range r {
			r[k] = cost[v][k] / cost[0][k]
		}
		b.ReportMetric(median(r), cases[v].name+"/"+cases[0].name)
	}
}

// BenchmarkKTHPaired measures the ratio of a feedback run's cost to a rigid
// run's on KTH-SP2 under EASY, the comparison BenchmarkKTH makes, with
// [paired]. The -plan cases run a [Plan] built once before the loop
// (sessions and graph shared by all runs, as in a sweep); newplan-adjusted
// is the building of that plan alone (identification and graph), and
// rigid-at-adjusted a rigid replay at the arrival times the Adjusted run
// produces: the same schedule without the feedback machinery. Run it with
// a fixed count, e.g. -benchtime 60x.
func BenchmarkKTHPaired(b *testing.B) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	pairedLog(b, tr, true)
}

// BenchmarkLogsPaired is BenchmarkKTHPaired's main ratios for every real
// log, under EASY (jobs wider than the machine dropped). Run it with a
// small fixed count, e.g. -benchtime 5x.
func BenchmarkLogsPaired(b *testing.B) {
	dir := testdata.Dir(b)
	for _, l := range testdata.Logs {
		b.Run(strings.TrimSuffix(l.File, "-cln.swf.gz"), func(b *testing.B) {
			tr, err := trace.Load(filepath.Join(dir, l.File), trace.Options{})
			if err != nil {
				b.Fatal(err)
			}
			pairedLog(b, tr, false)
		})
	}
}

// pairedLog runs the paired comparison of rigid and feedback runs of tr
// under EASY; breakdown adds the plan-based and breakdown cases.
func pairedLog(b *testing.B, tr *trace.Trace, breakdown bool) {
	ctx := context.Background()
	so := sim.Options{PrepareOptions: sim.PrepareOptions{Oversize: sim.OversizeDrop}}
	run := func(fo *Options, pl *Plan, t *trace.Trace) func() error {
		return func() error {
			s, _ := sched.New("easy")
			var err error
			switch {
			case pl != nil:
				_, err = pl.Simulate(ctx, s, so)
			case fo != nil:
				_, err = Simulate(ctx, t, s, so, *fo)
			default:
				_, err = Rigid(ctx, t, s, so)
			}
			return err
		}
	}
	madon, adjusted := &Options{}, &Options{Model: Adjusted}
	cases := []pairedCase{{"rigid", run(nil, nil, tr)}, {"madon", run(madon, nil, tr)}, {"adjusted", run(adjusted, nil, tr)}}
	if breakdown {
		for _, c := range []struct {
			name string
			fo   *Options
		}{{"madon", madon}, {"adjusted", adjusted}} {
			pl, err := NewPlan(tr, *c.fo)
			if err != nil {
				b.Fatal(err)
			}
			cases = append(cases, pairedCase{c.name + "-plan", run(nil, pl, nil)})
		}
		s, _ := sched.New("easy")
		r, err := Simulate(ctx, tr, s, so, *adjusted)
		if err != nil {
			b.Fatal(err)
		}
		cases = append(cases,
			pairedCase{"newplan-adjusted", func() error { _, err := NewPlan(tr, *adjusted); return err }},
			pairedCase{"rigid-at-adjusted", run(nil, nil, atArrivals(tr, r))})
	}
	paired(b, cases)
}
