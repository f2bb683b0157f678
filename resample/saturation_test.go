package resample_test

import (
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
