package sched

import (
	"context"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

func TestReplayScheduler(t *testing.T) {
	// Three jobs with recorded waits 10, 0 and 5: due at 10, 1 and 7.
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 20, Estimate: 20, Procs: 2, Index: 0},
		{ID: 2, Submit: 1, Runtime: 5, Estimate: 5, Procs: 1, Index: 1},
		{ID: 3, Submit: 2, Runtime: 30, Estimate: 30, Procs: 2, Index: 2},
	}
	waits := []sim.Time{10, 0, 5}
	tests := []struct {
		procs int
		start []sim.Time
		late  int
	}{
		// Enough processors: every job at submit + recorded wait.
		{8, []sim.Time{10, 1, 7}, 0},
		// Four processors: job 3 (2) runs from 7, job 2 ended at 6, so job
		// 1 (2) fits at 10 too.
		{4, []sim.Time{10, 1, 7}, 0},
		// Three processors: job 1 must wait for job 3 to end at 37.
		{3, []sim.Time{37, 1, 7}, 1},
	}
	for _, tc := range tests {
		rs := NewReplay(waits)
		res, err := sim.Run(context.Background(), sim.NewReplay(append([]sim.Job(nil), jobs...)), rs, sim.Config{Procs: tc.procs})
		if err != nil {
			t.Fatal(err)
		}
		for i, o := range res.Jobs {
			if o.Start != tc.start[i] {
				t.Errorf("procs %d: job %d starts at %d, want %d", tc.procs, o.ID, o.Start, tc.start[i])
			}
		}
		if rs.Late != tc.late {
			t.Errorf("procs %d: %d late, want %d", tc.procs, rs.Late, tc.late)
		}
	}
}

// TestReplayMissingWaits: a negative recorded wait, and a job past the
// recorded waits (index equal to their count, and beyond), start at
// their submit time; a job due at the instant the previous one ends, on
// a machine it exactly fills, is on time.
func TestReplayMissingWaits(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 4, Estimate: 4, Procs: 3, Index: 0},
		{ID: 2, Submit: 2, Runtime: 5, Estimate: 5, Procs: 3, Index: 1},
		{ID: 3, Submit: 20, Runtime: 5, Estimate: 5, Procs: 3, Index: 2},
		{ID: 4, Submit: 30, Runtime: 5, Estimate: 5, Procs: 3, Index: 7},
	}
	rs := NewReplay([]sim.Time{-3, 2})
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), rs, sim.Config{Procs: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []sim.Time{0, 4, 20, 30} {
		if got := res.Jobs[i].Start; got != want {
			t.Errorf("job %d starts at %d, want %d", i+1, got, want)
		}
	}
	if rs.Late != 0 {
		t.Errorf("%d late, want 0", rs.Late)
	}
}
