package sim_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/predict"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sched/schedtest"
	"github.com/hpcwl/hpcwl/sim"
)

// forker runs Maui and, at its first pass at or after at, forks a shadow
// under a fresh Maui; with every > 0 it forks again into the same shadow
// (an incremental fork) at the first pass every seconds later.
type forker struct {
	*sched.Maui
	at, every sim.Time
	shadow    *sim.Shadow
	reuse     *sim.Shadow // the buffers of the first fork, if any
	check     bool        // panic when the shadow's starts so far differ from the real run's
}

func (f *forker) Notify(v *sim.View, n sim.Notice) {
	if f.shadow != nil && n.Kind == sim.Arrived {
		f.shadow.Arrive(v, n.Job)
	}
	f.Maui.Notify(v, n)
}

func (f *forker) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	if v.Now() >= f.at && (f.shadow == nil || f.every > 0) {
		if f.shadow != nil && f.check {
			// the shadow so far must agree with the real run
			for r := range f.shadow.Jobs() {
				a, b := f.shadow.Jobs()[r], v.Start(sim.Ref(r))
				if a.Start >= 0 && a.Start != b {
					panic(fmt.Sprintf("job %d: shadow start %d, real %d", a.ID, a.Start, b))
				}
			}
		}
		into := f.shadow
		if into == nil {
			into = f.reuse
		}
		f.shadow = sim.ForkInto(into, v, sched.NewMaui(1, 0, 0))
		f.at = v.Now() + f.every
	}
	if f.shadow != nil {
		if err := f.shadow.AdvanceTo(v.Now()); err != nil {
			panic(err)
		}
	}
	return f.Maui.Schedule(v, dst)
}

// TestShadowReplicates checks sim.Fork and Shadow: a shadow forked from a
// Maui run under a fresh Maui (which restores Maui's whole state from the
// view) and fed the same arrivals reproduces the rest of the real schedule
// exactly, and its window sums match the real jobs that ended after the
// fork; forked again and again into the same buffers (incremental forks),
// it keeps agreeing with the real run.
func TestShadowReplicates(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := schedtest.Workload(rt, false)
		c.Kill = rapid.Bool().Draw(rt, "kill")
		f := &forker{Maui: sched.NewMaui(1, 0, 0), at: sim.Time(rapid.IntRange(0, 300).Draw(rt, "at")),
			every: sim.Time(rapid.IntRange(0, 50).Draw(rt, "every")), check: true}
		res, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(c.Jobs)), f, sim.Config{Procs: c.Procs, Kill: c.Kill})
		if err != nil {
			rt.Fatal(err)
		}
		if f.shadow == nil {
			return
		}
		from := f.shadow.Stats().From
		if err := f.shadow.AdvanceTo(math.MaxInt64 / 2); err != nil {
			rt.Fatal(err)
		}
		sj := f.shadow.Jobs()
		if len(sj) != len(res.Jobs) {
			rt.Fatalf("shadow has %d jobs, real run %d", len(sj), len(res.Jobs))
		}
		var want sim.WindowStats
		for i := range sj {
			if sj[i].Start != res.Jobs[i].Start || sj[i].End != res.Jobs[i].End {
				rt.Fatalf("job %d: shadow %d-%d, real %d-%d", sj[i].ID, sj[i].Start, sj[i].End, res.Jobs[i].Start, res.Jobs[i].End)
			}
			if o := res.Jobs[i]; o.End > from || (o.End == from && o.Start == from) {
				// the window's sums, by their definitions
				wait, run := float64(o.Start-o.Submit), float64(o.End-o.Start)
				want.Ended++
				want.Wait += wait
				want.Response += wait + run
				if run == 0 {
					want.Slowdown++
				} else {
					want.Slowdown += (wait + run) / run
				}
				want.BoundedSlowdown += math.Max(1, (wait+run)/math.Max(run, 10))
			}
		}
		st := f.shadow.Stats()
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
		if st.Ended != want.Ended || st.Wait != want.Wait || st.Response != want.Response ||
			!near(st.Slowdown, want.Slowdown) || !near(st.BoundedSlowdown, want.BoundedSlowdown) {
			rt.Fatalf("shadow window after %d: %+v; real jobs: %+v", from, st, want)
		}
	})
}

// TestShadowLeavesPredictor checks that shadows never change the real
// run's learning predictor: a Maui run that forks shadows again and again
// (which start jobs, end them and miss deadlines of their own) gives the
// same schedule and predictions as a Maui run without shadows, under RUH
// (the recent user history predictor, revising the predictions of the
// waiting jobs as their users' jobs end).
func TestShadowLeavesPredictor(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := schedtest.Workload(rt, false)
		at := sim.Time(rapid.IntRange(0, 100).Draw(rt, "at"))
		every := sim.Time(rapid.IntRange(1, 50).Draw(rt, "every"))
		run := func(s sim.Scheduler) *sim.Result {
			res, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(c.Jobs)), s,
				sim.Config{Procs: c.Procs, Predictor: predict.NewRUH(2, true, false, true, nil)})
			if err != nil {
				rt.Fatal(err)
			}
			return res
		}
		a := run(&forker{Maui: sched.NewMaui(1, 0, 0), at: at, every: every})
		b := run(sched.NewMaui(1, 0, 0))
		for i := range a.Jobs {
			if a.Jobs[i].Start != b.Jobs[i].Start || a.Jobs[i].Prediction != b.Jobs[i].Prediction {
				rt.Fatalf("job %d: with shadows start %d prediction %d, without %d, %d", a.Jobs[i].ID,
					a.Jobs[i].Start, a.Jobs[i].Prediction, b.Jobs[i].Start, b.Jobs[i].Prediction)
			}
		}
	})
}

// TestShadowAcrossRuns: a shadow's buffers reused by a fork from another
// run keep nothing of the first: the shadow reproduces the second run.
func TestShadowAcrossRuns(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		run := func(c schedtest.Case, f *forker) *sim.Result {
			res, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(c.Jobs)), f, sim.Config{Procs: c.Procs})
			if err != nil {
				rt.Fatal(err)
			}
			return res
		}
		first := &forker{Maui: sched.NewMaui(1, 0, 0), at: sim.Time(rapid.IntRange(0, 300).Draw(rt, "at1")),
			every: sim.Time(rapid.IntRange(1, 50).Draw(rt, "every"))}
		run(schedtest.Workload(rt, false), first)
		c := schedtest.Workload(rt, false)
		second := &forker{Maui: sched.NewMaui(1, 0, 0), at: sim.Time(rapid.IntRange(0, 300).Draw(rt, "at2")), reuse: first.shadow}
		res := run(c, second)
		if second.shadow == nil {
			return
		}
		if err := second.shadow.AdvanceTo(math.MaxInt64 / 2); err != nil {
			rt.Fatal(err)
		}
		for i, o := range second.shadow.Jobs() {
			if r := res.Jobs[i]; o.ID != r.ID || o.Start != r.Start || o.End != r.End {
				rt.Fatalf("job %d: shadow %d %d-%d, real %d %d-%d", i, o.ID, o.Start, o.End, r.ID, r.Start, r.End)
			}
		}
	})
}
