package sched_test

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
)

// hold is a candidate that wants a pass of its own: it starts nothing
// before time at, asks to be woken then, and afterwards starts waiting jobs
// in arrival order while they fit (asking for no wake-up: now).
type hold struct{ at sim.Time }

func (hold) Notify(*sim.View, sim.Notice) {}
func (hold) Restore(*sim.View)            {}
func (h hold) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	if v.Now() < h.at {
		return dst
	}
	free := v.Free()
	for r := v.FirstLive(); int(r) < v.NumJobs(); r++ {
		if v.Waiting(r) {
			if v.Size(r) > free {
				break
			}
			free -= v.Size(r)
			dst = append(dst, r)
		}
	}
	return dst
}
func (h hold) NextWake(v *sim.View) sim.Time {
	if v.Now() < h.at {
		return h.at
	}
	return v.Now()
}

func holdCand(name string, at sim.Time) sched.Candidate {
	return sched.Candidate{Name: name, New: func() sim.Restorer { return hold{at} }}
}

// TestAdaptiveWakes: an adaptive scheduler asks the engine for its active
// candidate's wake-up when it comes before the next decision point, and
// for the decision point otherwise (a candidate's "now" means none).
//
// PBAS over hold(50) alone, period 1000 s: the job submitted at 0 starts
// at the candidate's wake-up, 50, not at the decision point 1000.
//
// WBAS over hold(50) (low, active first) and hold(50) (high), memory 1000
// jobs, period 1000 s from 0, P = 2: J1 (1 processor, 2000 s) at 0 starts
// at 50; J2 (2 processors, 10 s) at 60 waits for J1's end at 2050. The
// average size is 1 + (2 - 1)/1000 = 1.001; the jobs of the first period
// average 1.5, so at the decision point 1000, a pass of its own (J2 waits),
// high takes over: active from 1000 to the end at 2060, 1060 of 2060 s.
func TestAdaptiveWakes(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Submit: 0, Runtime: 10, Estimate: 10, Procs: 1}}
	p := sched.NewPBAS("p", []sched.Candidate{holdCand("hold", 50)}, sched.MetricWait, 1000)
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), p, sim.Config{Procs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Jobs[0].Start; got != 50 {
		t.Errorf("PBAS: the job starts at %d, want 50 (the candidate's wake-up)", got)
	}

	jobs = []sim.Job{
		{ID: 1, Submit: 0, Runtime: 2000, Estimate: 2000, Procs: 1},
		{ID: 2, Submit: 60, Runtime: 10, Estimate: 10, Procs: 2},
	}
	w := sched.NewWBAS(holdCand("high", 50), holdCand("low", 50), 1000, 1000)
	res, err = sim.Run(context.Background(), sim.NewReplay(jobs), w, sim.Config{Procs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Jobs[0].Start != 50 || res.Jobs[1].Start != 2050 {
		t.Errorf("WBAS: starts %d, %d; want 50, 2050", res.Jobs[0].Start, res.Jobs[1].Start)
	}
	sw := w.Switching(2060)
	if sw.Points != 2 || sw.Taken != 1 {
		t.Errorf("WBAS: switching %v, want 2 decision points (1000, and 2050 for 2000), 1 taken", sw)
	}
	if got, want := sw.Share["high"], 1060.0/2060; !(math.Abs(got-want) <= 1e-12) {
		t.Errorf("WBAS: high active %v of the time, want %v (from the decision point 1000)", got, want)
	}
	if got, want := sw.String(), "2 decision points, 1 switches taken; time active: high 51.5% low 48.5%"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// TestSwitchingNoTime: before any time has passed every share is 0 (not
// NaN, which JSON cannot encode).
func TestSwitchingNoTime(t *testing.T) {
	w := sched.NewWBAS(holdCand("high", 0), holdCand("low", 0), 10, 100)
	sw := w.Switching(0)
	if sw.Share["high"] != 0 || sw.Share["low"] != 0 {
		t.Fatalf("shares %v, want 0 and 0", sw.Share)
	}
	if _, err := json.Marshal(sw); err != nil {
		t.Fatal(err)
	}
}

// TestWBASMovingAverage: WBAS compares the mean parallelism of the period
// with an exponential moving average over every arrival, m += (p - m)/maf,
// and switches to the high candidate when the mean is above it. With
// maf = 2, P = 4 and jobs of 10 s, the last submitted at the decision
// point 1000:
//   - 2, 2, 1 processors at 0, 10, 20 and 1 at 1000: m = 2, 2, 1.5, 1.25,
//     below the mean 1.5: the high candidate is active from 1000 to 2000;
//   - 1, 3 at 0, 10 and 2 at 1000: m = 1, 2, 2, equal to the mean 2: no
//     switch.
func TestWBASMovingAverage(t *testing.T) {
	for _, tc := range []struct {
		procs  []int32
		taken  int
		shareH float64
	}{{[]int32{2, 2, 1, 1}, 1, 0.5}, {[]int32{1, 3, 2}, 0, 0}} {
		var jobs []sim.Job
		for i, p := range tc.procs {
			submit := sim.Time(10 * i)
			if i == len(tc.procs)-1 {
				submit = 1000
			}
			jobs = append(jobs, sim.Job{ID: int64(i + 1), Submit: submit, Runtime: 10, Estimate: 10, Procs: p})
		}
		w := sched.NewWBAS(holdCand("high", 0), holdCand("low", 0), 2, 1000)
		if _, err := sim.Run(context.Background(), sim.NewReplay(jobs), w, sim.Config{Procs: 4}); err != nil {
			t.Fatal(err)
		}
		if sw := w.Switching(2000); sw.Taken != tc.taken || sw.Share["high"] != tc.shareH {
			t.Errorf("sizes %v: switching %v, want %d taken, high active %v of the time", tc.procs, sw, tc.taken, tc.shareH)
		}
	}
}
