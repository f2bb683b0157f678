package sched_test

import (
	"context"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sched/schedtest"
	"github.com/hpcwl/hpcwl/sim"
)

// TestMauiDefaultIsEASY checks that Maui in its default configuration
// (queue-time priority only) schedules exactly as EASY on random
// workloads, under each reference predictor ("essentially EASY", spec
// talby section 11.4).
func TestMauiDefaultIsEASY(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := schedtest.Workload(rt, false)
		c.Kill = rapid.Bool().Draw(rt, "kill")
		if rapid.Bool().Draw(rt, "perfect") {
			c.Predictor = sim.Perfect{}
		}
		a, _, _, err := schedtest.Run(c, factory(rt, "maui"))
		if err != nil {
			rt.Fatal(err)
		}
		b, _, _, err := schedtest.Run(c, factory(rt, "easy"))
		if err != nil {
			rt.Fatal(err)
		}
		if !slices.Equal(schedtest.Schedule(a), schedtest.Schedule(b)) {
			rt.Fatalf("maui and easy differ:\n%v\n%v", schedtest.Schedule(a), schedtest.Schedule(b))
		}
	})
}

// TestMauiPriorityOrder checks Maui's priority ordering with random
// weights: after every pass, the waiting job of highest priority at that
// time (among those still waiting and those the pass started) either
// started in the pass or holds the reservation; and the jobs the pass
// started ahead of the reservation are the highest-priority ones, in
// order.
func TestMauiPriorityOrder(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := schedtest.Workload(rt, false)
		qw := float64(rapid.IntRange(0, 3).Draw(rt, "queuetime"))
		xw := float64(rapid.IntRange(0, 200).Draw(rt, "xfactor"))
		m := sched.NewMaui(qw, xw, 0)
		var bad string
		cfg := sim.Config{Procs: c.Procs, Kill: c.Kill}
		cfg.OnPass = func(v *sim.View, started []sim.Ref) {
			if bad != "" {
				return
			}
			var cand []sim.Ref
			for r := sim.Ref(0); int(r) < v.NumJobs(); r++ {
				if v.Waiting(r) || slices.Contains(started, r) {
					cand = append(cand, r)
				}
			}
			if len(cand) == 0 {
				return
			}
			slices.SortStableFunc(cand, func(a, b sim.Ref) int {
				pa, pb := m.Priority(v, a), m.Priority(v, b)
				switch {
				case pa > pb:
					return -1
				case pa < pb:
					return 1
				}
				return int(a - b)
			})
			// The pass starts a prefix of the priority order, then the
			// reserved job follows (unless everything started).
			for i, r := range cand {
				if i < len(started) && started[i] == r {
					continue
				}
				if v.Waiting(r) && v.NumRunning() > 0 {
					if _, ok := m.Reservation(r); !ok {
						bad = "highest-priority waiting job holds no reservation"
					}
				}
				return
			}
		}
		if _, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(c.Jobs)), m, cfg); err != nil {
			rt.Fatal(err)
		}
		if bad != "" {
			rt.Fatal(bad)
		}
	})
}

// TestMauiExpansionFactor: with an expansion-factor weight, a short job
// that arrived after a long one starts first when the machine frees
// (worked out by hand: at 100, J2 has priority 99/60 + 100*1099/1000 =
// 111.55 and J3 98/60 + 100*108/10 = 1081.63).
func TestMauiExpansionFactor(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 10},
		{ID: 2, Submit: 1, Runtime: 1000, Estimate: 1000, Procs: 10},
		{ID: 3, Submit: 2, Runtime: 10, Estimate: 10, Procs: 10},
	}
	for _, tc := range []struct {
		name   string
		xw     float64
		starts []sim.Time
	}{
		{"fcfs", 0, []sim.Time{0, 100, 1100}},
		{"xfactor", 100, []sim.Time{0, 110, 100}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(jobs)), sched.NewMaui(1, tc.xw, 0), sim.Config{Procs: 10})
			if err != nil {
				t.Fatal(err)
			}
			for i, o := range res.Jobs {
				if o.Start != tc.starts[i] {
					t.Errorf("job %d starts at %d, want %d", o.ID, o.Start, tc.starts[i])
				}
			}
		})
	}
}

// TestFlexSlackKept checks Flex's guarantee: with predictions that are
// upper bounds of the runtimes, no job starts after its latest start L
// (the start planned on arrival plus its slack), for random slack factors;
// and with slack factor 0 no job starts after the reservation conservative
// backfilling gives it on arrival.
func TestFlexSlackKept(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		exact := rapid.Bool().Draw(rt, "exact")
		c := schedtest.Workload(rt, exact)
		c.Kill = !exact
		sf := rapid.SampledFrom([]float64{0, 0.5, 1, 2, 5}).Draw(rt, "slack")
		f := func() sim.Scheduler { return sched.NewFlex(sf, 0) }
		if err := schedtest.Check(c, f, true); err != nil {
			rt.Fatal(err)
		}
	})
}

// TestFlexSlackThreshold runs the hand-made case flex-slack (see
// testdata/README.md) with several slack factors. J1 and J2 waited 0 and
// 100 s, so a job arriving after 100 gets slack 50*sf. Putting J4 ahead of
// J3 moves J3 from 200 to 250 and lowers the total planned wait from 180
// to 130 s; it is legal only if J3's slack 50*sf is at least 50, so from
// sf = 1 on.
func TestFlexSlackThreshold(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 10},
		{ID: 2, Submit: 0, Runtime: 100, Estimate: 100, Procs: 10},
		{ID: 3, Submit: 110, Runtime: 100, Estimate: 100, Procs: 10},
		{ID: 4, Submit: 120, Runtime: 50, Estimate: 50, Procs: 2},
	}
	for _, tc := range []struct {
		sf     float64
		j3, j4 sim.Time
	}{
		{0, 200, 300}, {0.9, 200, 300}, {1, 250, 200}, {3, 250, 200},
	} {
		res, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(jobs)), sched.NewFlex(tc.sf, 0), sim.Config{Procs: 10})
		if err != nil {
			t.Fatal(err)
		}
		if res.Jobs[2].Start != tc.j3 || res.Jobs[3].Start != tc.j4 {
			t.Errorf("slack %v: J3 at %d, J4 at %d; want %d, %d", tc.sf, res.Jobs[2].Start, res.Jobs[3].Start, tc.j3, tc.j4)
		}
	}
}
