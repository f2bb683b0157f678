package resample_test

import (
	"math"
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/sim"
)

func TestSaturatedRun(t *testing.T) {
	const week = resample.Week
	// run builds a 30-week run with 4 arrivals a week; each job waits
	// wait(k) and runs run(k) seconds, k its index.
	run := func(wait, runtime func(k int) int64) *sim.Result {
		res := &sim.Result{Procs: 100}
		for k := 0; k < 120; k++ {
			sub := int64(k) * week / 4
			st := sub + wait(k)
			res.Jobs = append(res.Jobs, sim.Outcome{Job: sim.Job{ID: int64(k + 1), Submit: sim.Time(sub), Procs: 1},
				Start: sim.Time(st), End: sim.Time(st + runtime(k))})
		}
		return res
	}
	var at []int64
	for k := int64(1); k < 30; k++ {
		at = append(at, k*week)
	}
	tests := []struct {
		name string
		res  *sim.Result
		want bool
	}{
		// The queue grows: each job waits longer than the one before.
		{"queue grows", run(func(k int) int64 { return int64(k) * week / 2 }, func(int) int64 { return 60 }), true},
		// No wait; every job runs 40 weeks: running jobs pile up, the queue never grows.
		{"long jobs pile up running", run(func(int) int64 { return 0 }, func(int) int64 { return 40 * week }), false},
		// Long jobs pile up and the queue grows slowly (0.8 jobs a week,
		// below the detector's 1 job a week on its own): saturated.
		{"queue grows slowly", run(func(k int) int64 { return int64(k) * week / 16 }, func(int) int64 { return 40 * week }), true},
		{"idle", run(func(int) int64 { return 0 }, func(int) int64 { return 60 }), false},
	}
	for _, tc := range tests {
		if got, slope := resample.SaturatedRun(tc.res, at); got != tc.want {
			t.Errorf("%s: saturated %v (slope %.2f), want %v", tc.name, got, slope, tc.want)
		}
	}
}

// TestOutstandingByHand counts, at five sample times, the jobs of a
// four-job run submitted before each time and not yet ended (or started):
// A runs 0 seconds at time 0, B waits from 5 to 20 and ends at 30, C never
// starts, D is submitted, starts at 10 and ends at 12. A job submitted at a
// sample time is not yet counted; one ending (or starting) at it is.
func TestOutstandingByHand(t *testing.T) {
	job := func(id, sub, start, end int64) sim.Outcome {
		return sim.Outcome{Job: sim.Job{ID: id, Submit: sim.Time(sub), Procs: 1}, Start: sim.Time(start), End: sim.Time(end)}
	}
	res := &sim.Result{Procs: 4, Jobs: []sim.Outcome{
		job(1, 0, 0, 0), job(2, 5, 20, 30), job(3, 7, -1, -1), job(4, 10, 10, 12),
	}}
	at := []int64{10, 20, 25, 30, 40}
	// At 10: A, B and C arrived, A ended (2); A started (2 waiting).
	// At 20: D arrived and ended (2); D started, B starts at 20 (2 waiting).
	// At 25: B started (1 waiting). At 30: B ended (1 outstanding, C).
	want := map[string][]float64{
		"Outstanding": {2, 2, 2, 1, 1},
		"Waiting":     {2, 2, 1, 1, 1},
	}
	got := map[string][]float64{
		"Outstanding": resample.Outstanding(res, at),
		"Waiting":     resample.Waiting(res, at),
	}
	for name, w := range want {
		if !slices.Equal(got[name], w) {
			t.Errorf("%s = %v, want %v", name, got[name], w)
		}
	}
}

// TestSaturatedByHand works the detector out on short series: the running
// minimum from each week to the end, the first floor(0.8 n) weeks kept, the
// least-squares slope against the week index.
func TestSaturatedByHand(t *testing.T) {
	tests := []struct {
		c     []float64
		sat   bool
		slope float64
	}{
		// Minima 0 0 1 2 3 (the first week's 9 too), slope 8/10.
		{[]float64{9, 0, 1, 2, 3, 4, 5}, false, 0.8},
		// Three weeks keep two (0, 5): slope 5.
		{[]float64{0, 5, 9}, true, 5},
		// Two weeks keep one: no slope.
		{[]float64{0, 5}, false, 0},
		// 0 1 2 3 kept of five: exactly 1 job a week is saturated.
		{[]float64{0, 1, 2, 3, 4}, true, 1},
	}
	for _, tc := range tests {
		in := slices.Clone(tc.c)
		sat, slope := resample.Saturated(in)
		if sat != tc.sat || !(math.Abs(slope-tc.slope) <= 1e-12) {
			t.Errorf("Saturated(%v) = %v, %v, want %v, %v", tc.c, sat, slope, tc.sat, tc.slope)
		}
		if !slices.Equal(in, tc.c) {
			t.Errorf("Saturated modified its input: %v", in)
		}
	}
}
