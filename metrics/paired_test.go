package metrics

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// pairRun is a hand-made run: job i submitted at submit[i] and started at
// start[i], running run[i] seconds on one processor.
func pairRun(ids []int64, submit, start, run []sim.Time) *sim.Result {
	res := &sim.Result{Procs: 4}
	for i := range ids {
		res.Jobs = append(res.Jobs, sim.Outcome{Job: sim.Job{ID: ids[i], Submit: submit[i], Runtime: run[i], Estimate: run[i] + 1, Procs: 1},
			Start: start[i], End: start[i] + run[i]})
	}
	return res
}

// TestPairedDiffsHand: three jobs worked by hand. Waits in a: 0, 10, 20;
// in b (job order differs, paired by number): 0, 4, 26, so b - a is 0, -6,
// +6: mean 0, one lower, one higher. Bounded slowdown (tau 10): job 2 runs
// 20 s, a: (10+20)/20 = 1.5, b: 24/20 = 1.2; job 3 runs 5 s, a: 25/10 =
// 2.5, b: 31/10 = 3.1; job 1: 1 and 1. Mean difference (0 - 0.3 + 0.6)/3
// = 0.1.
func TestPairedDiffsHand(t *testing.T) {
	a := pairRun([]int64{1, 2, 3}, []sim.Time{0, 0, 5}, []sim.Time{0, 10, 25}, []sim.Time{30, 20, 5})
	b := pairRun([]int64{3, 1, 2}, []sim.Time{5, 0, 0}, []sim.Time{31, 0, 4}, []sim.Time{5, 30, 20})
	ps, err := PairedDiffs(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Paired{}
	for _, p := range ps {
		byName[p.Metric] = p
	}
	w := byName["wait"]
	if w.Jobs != 3 || w.A != 10 || w.B != 10 || w.Diff.Mean != 0 || w.Lower != 1 || w.Higher != 1 {
		t.Errorf("wait: %+v", w)
	}
	if w.Diff.Note == "" {
		t.Errorf("three jobs cannot give a batch-means interval, yet no note: %+v", w.Diff)
	}
	bs := byName["bounded_slowdown"]
	if !(math.Abs(bs.Diff.Mean-0.1) <= 1e-12) || !(math.Abs(bs.A-5.0/3) <= 1e-12) || bs.Lower != 1 || bs.Higher != 1 {
		t.Errorf("bounded slowdown: %+v", bs)
	}
	if len(ps) != 4 || byName["response"].Diff.Mean != 0 || byName["slowdown"].Metric == "" {
		t.Errorf("metrics %+v", ps)
	}
}

// TestPairedDiffsWindow: jobs outside the warm-up window are not paired.
func TestPairedDiffsWindow(t *testing.T) {
	a := pairRun([]int64{1, 2, 3}, []sim.Time{0, 100, 200}, []sim.Time{50, 100, 200}, []sim.Time{10, 10, 10})
	b := pairRun([]int64{1, 2, 3}, []sim.Time{0, 100, 200}, []sim.Time{0, 110, 200}, []sim.Time{10, 10, 10})
	ps, err := PairedDiffs(a, b, Options{WarmUp: 50})
	if err != nil {
		t.Fatal(err)
	}
	if w := ps[0]; w.Metric != "wait" || w.Jobs != 2 || w.Diff.Mean != 5 || w.Higher != 1 || w.Lower != 0 {
		t.Errorf("wait after a 50 s warm-up: %+v", w)
	}
}

// TestPairedDiffsErrors: runs of different jobs are refused.
func TestPairedDiffsErrors(t *testing.T) {
	a := pairRun([]int64{1, 2}, []sim.Time{0, 0}, []sim.Time{0, 0}, []sim.Time{1, 1})
	for name, b := range map[string]*sim.Result{
		"fewer":     pairRun([]int64{1}, []sim.Time{0}, []sim.Time{0}, []sim.Time{1}),
		"other job": pairRun([]int64{1, 3}, []sim.Time{0, 0}, []sim.Time{0, 0}, []sim.Time{1, 1}),
		"duplicate": pairRun([]int64{1, 1}, []sim.Time{0, 0}, []sim.Time{0, 0}, []sim.Time{1, 1}),
	} {
		if _, err := PairedDiffs(a, b, Options{}); !errors.Is(err, ErrNotPaired) {
			t.Errorf("%s: %v, want ErrNotPaired", name, err)
		}
	}
	if _, err := PairedDiffs(a, a, Options{CILevel: 1}); err == nil {
		t.Error("confidence level 1 accepted")
	}
}

// TestPairedDiffsInterval: on a long run the interval is given, contains
// the mean, and pairing a run with itself gives a zero difference.
func TestPairedDiffsInterval(t *testing.T) {
	var jobs []sim.Job
	for i := range 4000 {
		jobs = append(jobs, sim.Job{ID: int64(i + 1), Submit: sim.Time(i * 90), Runtime: sim.Time(20 + (i*7919)%300), Estimate: 400, Procs: int32(1 + i%4)})
	}
	run := func(s sim.Scheduler) *sim.Result {
		res, err := sim.Run(context.Background(), sim.NewReplay(append([]sim.Job(nil), jobs...)), s, sim.Config{Procs: 8})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a := run(fifo{})
	ps, err := PairedDiffs(a, a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.Diff.Mean != 0 || p.Lower != 0 || p.Higher != 0 || p.A != p.B {
			t.Errorf("%s against itself: %+v", p.Metric, p)
		}
	}
	b := run(shortestFirst{})
	ps, err = PairedDiffs(a, b, Options{CILevel: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	w := ps[0]
	if w.Diff.Note != "" || !(w.Diff.Low <= w.Diff.Mean && w.Diff.Mean <= w.Diff.High) || w.Diff.Level != 0.9 {
		t.Fatalf("wait: %+v", w)
	}
	if d := w.B - w.A; !(math.Abs(d-w.Diff.Mean) <= 1e-9*math.Abs(w.A)) {
		t.Errorf("mean difference %v, difference of means %v", w.Diff.Mean, d)
	}
}

// fifo starts waiting jobs in arrival order while they fit.
type fifo struct{}

func (fifo) Notify(*sim.View, sim.Notice) {}
func (fifo) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	free := v.Free()
	for r := v.FirstLive(); int(r) < v.NumJobs(); r++ {
		if !v.Waiting(r) {
			continue
		}
		if v.Size(r) > free {
			break
		}
		free -= v.Size(r)
		dst = append(dst, r)
	}
	return dst
}

// shortestFirst starts the waiting jobs that fit, in order of predicted
// runtime, each as it fits (no reservation).
type shortestFirst struct{}

func (shortestFirst) Notify(*sim.View, sim.Notice) {}
func (shortestFirst) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	free := v.Free()
	for _, r := range waitingByPrediction(v) {
		if v.Size(r) <= free {
			free -= v.Size(r)
			dst = append(dst, r)
		}
	}
	return dst
}

func waitingByPrediction(v *sim.View) []sim.Ref {
	var rs []sim.Ref
	for r := v.FirstLive(); int(r) < v.NumJobs(); r++ {
		if v.Waiting(r) {
			rs = append(rs, r)
		}
	}
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && v.Prediction(rs[j]) < v.Prediction(rs[j-1]); j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
	return rs
}
