package metrics

import (
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

func TestRelativeAccuracy(t *testing.T) {
	for _, tc := range []struct {
		r, p sim.Time
		want float64
	}{
		{0, 0, 1}, {7, 7, 1}, {0, 5, 0}, {5, 0, 0}, {10, 20, 0.5}, {20, 10, 0.5}, {30, 40, 0.75}, {-3, 0, 1},
	} {
		if got := RelativeAccuracy(tc.r, tc.p); got != tc.want {
			t.Errorf("RelativeAccuracy(%d, %d) = %v, want %v", tc.r, tc.p, got, tc.want)
		}
	}
	if got := AbsoluteError(10, 25); got != 15 {
		t.Errorf("AbsoluteError(10, 25) = %v", got)
	}
}

// accuracyRun holds three jobs with hand-worked accuracies:
//   - job 0 waits 1-10 predicted 100 s, then runs 10-20 (10 s) predicted
//     10 s: RA (9*0.1 + 10*1)/19 = 10.9/19, AE (9*90 + 10*0)/19 = 810/19;
//   - job 1 runs 0 s at its submit time; its last prediction, 0, counts:
//     RA 1, AE 0 (on arrival it was predicted 5 s: RA 0, AE 5);
//   - job 2 runs 0-50 predicted 1 s, from 1 s 10 s, from 10 s 100 s:
//     RA (1*0.02 + 9*0.2 + 40*0.5)/50 = 21.82/50,
//     AE (1*49 + 9*40 + 40*50)/50 = 2409/50.
func accuracyRun(withLog bool) *sim.Result {
	res := &sim.Result{Procs: 1, Jobs: []sim.Outcome{
		{Job: sim.Job{ID: 1, Submit: 1, Runtime: 10}, Start: 10, End: 20, Initial: 100, Prediction: 10},
		{Job: sim.Job{ID: 2, Submit: 0, Runtime: 0}, Start: 0, End: 0, Initial: 5, Prediction: 0},
		{Job: sim.Job{ID: 3, Submit: 0, Runtime: 50}, Start: 0, End: 50, Initial: 1, Prediction: 100},
	}}
	if withLog {
		res.Predictions = []sim.PredictionChange{
			{Job: 1, At: 0, Prediction: 5}, {Job: 2, At: 0, Prediction: 1}, {Job: 1, At: 0, Prediction: 0},
			{Job: 0, At: 1, Prediction: 100}, {Job: 2, At: 1, Prediction: 10}, {Job: 0, At: 10, Prediction: 10},
			{Job: 2, At: 10, Prediction: 100},
		}
	}
	return res
}

func TestComputeAccuracy(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	a := ComputeAccuracy(accuracyRun(true), nil)
	wantAE := (810.0/19 + 0 + 2409.0/50) / 3
	wantRA := (10.9/19 + 1 + 21.82/50) / 3
	if a.Jobs != 3 || !a.TimeWeighted || !near(a.AbsError, wantAE) || !near(a.RelAccuracy, wantRA) {
		t.Errorf("time-weighted: got %+v, want AE %v RA %v", a, wantAE, wantRA)
	}
	// On arrival: AE (90 + 5 + 49)/3 = 48, RA (0.1 + 0 + 0.02)/3 = 0.04.
	if !near(a.InitialAbsError, 48) || !near(a.InitialRelAccuracy, 0.04) || a.Exact != 0 {
		t.Errorf("initial: got %+v", a)
	}
	b := ComputeAccuracy(accuracyRun(false), []int32{0, 2})
	if b.TimeWeighted || b.Jobs != 2 || !near(b.InitialAbsError, (90+49)/2.0) || !near(b.InitialRelAccuracy, 0.06) {
		t.Errorf("without log, jobs 0 and 2: got %+v", b)
	}
	// The same log without the arrival entries, as sim.Config.RecordRevisions
	// keeps it, gives the same figures.
	rev := accuracyRun(true)
	var kept []sim.PredictionChange
	seen := map[sim.Ref]bool{}
	for _, c := range rev.Predictions {
		if o := rev.Jobs[c.Job]; !seen[c.Job] && c.At == o.Submit && c.Prediction == o.Initial {
			seen[c.Job] = true
			continue
		}
		kept = append(kept, c)
	}
	if len(kept) != len(rev.Predictions)-3 {
		t.Fatalf("arrival entries: %d of %d left", len(kept), len(rev.Predictions))
	}
	rev.Predictions, rev.Revisions = kept, true
	if c := ComputeAccuracy(rev, nil); c != a {
		t.Errorf("from revisions: got %+v, want %+v", c, a)
	}
	// Predictions never revised: a log of the arrival entries only (grouped
	// by job) and an empty log of revisions (no grouping) agree.
	arr := accuracyRun(true)
	arr.Predictions = nil
	for i := range arr.Jobs {
		o := &arr.Jobs[i]
		arr.Predictions = append(arr.Predictions, sim.PredictionChange{Job: sim.Ref(i), At: o.Submit, Prediction: o.Initial})
	}
	want := ComputeAccuracy(arr, nil)
	arr.Predictions, arr.Revisions = []sim.PredictionChange{}, true
	if c := ComputeAccuracy(arr, nil); c != want || !c.TimeWeighted {
		t.Errorf("no revisions: got %+v, want %+v", c, want)
	}
}
