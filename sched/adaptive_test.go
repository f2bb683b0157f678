package sched_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sched/schedtest"
	"github.com/hpcwl/hpcwl/sim"
)

func cand(name string) sched.Candidate {
	switch name {
	case "flex":
		return sched.Candidate{Name: name, New: func() sim.Restorer { return sched.NewFlex(1, 0) }}
	case "conservative":
		return sched.Candidate{Name: name, New: func() sim.Restorer { return sched.NewConservative(0) }}
	}
	return sched.Candidate{Name: name, New: func() sim.Restorer { return sched.NewMaui(1, 0, 0) }}
}

// TestAdaptiveConformance runs WBAS, PBAS and indirect PBAS with short
// periods (so that they switch within the small random workloads) through
// the shared invariants, with random candidates, metrics and memories.
func TestAdaptiveConformance(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := schedtest.Workload(rt, false)
		c.Kill = rapid.Bool().Draw(rt, "kill")
		per := sim.Time(rapid.IntRange(1, 60).Draw(rt, "period"))
		names := rapid.Permutation([]string{"maui", "flex", "conservative"}).Draw(rt, "candidates")
		names = names[:rapid.IntRange(1, 3).Draw(rt, "n")]
		var cs []sched.Candidate
		for _, n := range names {
			cs = append(cs, cand(n))
		}
		m := sched.Metric(rapid.IntRange(0, 4).Draw(rt, "metric"))
		var f schedtest.Factory
		switch rapid.IntRange(0, 2).Draw(rt, "kind") {
		case 0:
			maf := float64(rapid.IntRange(1, 100).Draw(rt, "maf"))
			f = func() sim.Scheduler { return sched.NewWBAS(cand("flex"), cand("maui"), maf, per) }
		case 1:
			f = func() sim.Scheduler { return sched.NewPBAS("pbas", cs, m, per) }
		default:
			inner := []sched.Candidate{
				{Name: "a", New: func() sim.Restorer { return sched.NewPBAS("a", cs, m, per) }},
				{Name: "b", New: func() sim.Restorer { return sched.NewPBAS("b", cs, sched.MetricWait, per+7) }},
			}
			f = func() sim.Scheduler { return sched.NewPBAS("indirect", inner, sched.MetricUtilization, 2*per) }
		}
		if err := schedtest.Check(c, f, false); err != nil {
			rt.Fatal(err)
		}
	})
}

// TestPBASOneCandidate checks that PBAS forwards transparently: with one
// candidate it never switches, and its schedule is the candidate's own,
// whatever the period (shadows and decision points change nothing).
func TestPBASOneCandidate(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := schedtest.Workload(rt, false)
		per := sim.Time(rapid.IntRange(1, 60).Draw(rt, "period"))
		name := rapid.SampledFrom([]string{"maui", "flex", "conservative"}).Draw(rt, "candidate")
		a, _, _, err := schedtest.Run(c, func() sim.Scheduler { return sched.NewPBAS("p", []sched.Candidate{cand(name)}, sched.MetricWait, per) })
		if err != nil {
			rt.Fatal(err)
		}
		b, _, _, err := schedtest.Run(c, func() sim.Scheduler { return cand(name).New() })
		if err != nil {
			rt.Fatal(err)
		}
		if !slices.Equal(schedtest.Schedule(a), schedtest.Schedule(b)) {
			rt.Fatalf("PBAS over %s alone differs from %s", name, name)
		}
	})
}

// TestWBASSwitches works a WBAS run out by hand: P = 10, period 100 s from
// the first arrival at 0, memory 1000 jobs. Two 1-processor jobs arrive at
// 0 (average 1); two 8-processor jobs at 50 raise it to 1.014. At 100 the
// jobs of the last period average 4.5 > 1.014: Flex takes over. Nothing
// arrives by 200 (Flex stays); a 1-processor job at 250 averages 1 <
// 1.01: Maui at 300.
func TestWBASSwitches(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 500, Estimate: 500, Procs: 1},
		{ID: 2, Submit: 0, Runtime: 500, Estimate: 500, Procs: 1},
		{ID: 3, Submit: 50, Runtime: 500, Estimate: 500, Procs: 8},
		{ID: 4, Submit: 50, Runtime: 500, Estimate: 500, Procs: 8},
		{ID: 5, Submit: 250, Runtime: 10, Estimate: 10, Procs: 1},
	}
	w := sched.NewWBAS(cand("flex"), cand("maui"), 1000, 100)
	cfg := sim.Config{Procs: 10}
	if _, err := sim.Run(context.Background(), sim.NewReplay(jobs), w, cfg); err != nil {
		t.Fatal(err)
	}
	sw := w.Switching(550)
	if sw.Taken != 2 || sw.Points < 3 {
		t.Fatalf("switching %v, want 2 taken at 100 and 300", sw)
	}
	// Flex active from 100 to 300: 200 of 550 s.
	if got := sw.Share["flex"]; !(math.Abs(got-200.0/550) <= 1e-9) {
		t.Errorf("flex share %v, want %v", got, 200.0/550)
	}
}

// TestPBASSwitches works a PBAS decision out by hand on the jobs of the
// flex-slack case (P = 10; J1, J2 10 procs 100 s at 0; J3 10 procs 100 s at
// 110; J4 2 procs 50 s at 120), metric wait, period 300 s, Maui first. The
// first pass (at 0, J2 waits) forks the Flex shadow. Maui runs J1 0-100, J2
// 100-200, J3 200-300, J4 300-350; Flex would run J4 at 200 and J3 at 250.
// At 300 (J4 waits, so there is a pass) Maui's jobs that ended by 300 are
// J1, J2, J3 with waits 0, 100, 90 (mean 63.3 s); the shadow's are J1, J2,
// J4 with 0, 100, 80 (mean 60 s), so Flex takes over. J4 still starts at 300
// (the machine is free). With the bounded-slowdown metric the means are
// (1 + 2 + 1.9)/3 = 1.63 for Maui and (1 + 2 + 2.6)/3 = 1.87 for Flex:
// Maui stays.
func TestPBASSwitches(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 10},
		{ID: 2, Submit: 0, Runtime: 100, Estimate: 100, Procs: 10},
		{ID: 3, Submit: 110, Runtime: 100, Estimate: 100, Procs: 10},
		{ID: 4, Submit: 120, Runtime: 50, Estimate: 50, Procs: 2},
	}
	for _, tc := range []struct {
		metric sched.Metric
		taken  int
	}{
		{sched.MetricWait, 1},
		{sched.MetricBoundedSlowdown, 0},
	} {
		p := sched.NewPBAS("pbas", []sched.Candidate{cand("maui"), cand("flex")}, tc.metric, 300)
		res, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(jobs)), p, sim.Config{Procs: 10})
		if err != nil {
			t.Fatal(err)
		}
		sw := p.Switching(350)
		if sw.Points != 1 || sw.Taken != tc.taken {
			t.Errorf("%v: switching %v, want 1 decision point, %d taken", tc.metric, sw, tc.taken)
		}
		for i, want := range []sim.Time{0, 100, 200, 300} {
			if res.Jobs[i].Start != want {
				t.Errorf("%v: job %d starts at %d, want %d", tc.metric, i+1, res.Jobs[i].Start, want)
			}
		}
	}
}

// overcommit is a deliberately broken candidate: it starts every waiting
// job at every pass, whether it fits or not.
type overcommit struct{}

func (overcommit) Notify(*sim.View, sim.Notice) {}
func (overcommit) Restore(*sim.View)            {}
func (overcommit) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	for r := v.FirstLive(); int(r) < v.NumJobs(); r++ {
		if v.Waiting(r) {
			dst = append(dst, r)
		}
	}
	return dst
}

// TestPBASShadowFailure: a candidate that breaks the machine's capacity in
// its shadow simulation stops the run with an error naming it, not a
// panic.
func TestPBASShadowFailure(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 2},
		{ID: 2, Submit: 1, Runtime: 100, Estimate: 100, Procs: 2},
		{ID: 3, Submit: 200, Runtime: 10, Estimate: 10, Procs: 1},
	}
	p := sched.NewPBAS("pbas", []sched.Candidate{cand("maui"), {Name: "overcommit", New: func() sim.Restorer { return overcommit{} }}}, sched.MetricWait, 50)
	_, err := sim.Run(context.Background(), sim.NewReplay(jobs), p, sim.Config{Procs: 2})
	if err == nil || !strings.Contains(err.Error(), "PBAS shadow of overcommit") {
		t.Fatalf("got %v, want the shadow's failure", err)
	}
}
