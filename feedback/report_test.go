package feedback

import (
	"context"
	"testing"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
)

// TestCompare measures a hand-made log on one processor: job 1 runs 0..100,
// job 2 (submitted at 50) waits 50 s in the log and under FCFS, and job 3
// has no runtime, so every column leaves it out as incomplete.
func TestCompare(t *testing.T) {
	tr := mkTrace(1, tj{1, 0, 0, 100}, tj{1, 50, 50, 10}, tj{2, 60, -1, -1})
	ctx := context.Background()
	rigid, err := Rigid(ctx, tr, sched.NewFCFS(), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fb, err := Simulate(ctx, tr, sched.NewFCFS(), sim.Options{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := Compare(tr, rigid, fb)
	if err != nil {
		t.Fatal(err)
	}
	for name, col := range map[string]Column{"recorded": c.Recorded, "rigid": c.Rigid, "feedback": c.Feedback} {
		if col.Incomplete != 1 || col.Rejected != 1 || col.TooWide != 0 {
			t.Errorf("%s: rejected %d (incomplete %d, too wide %d), want 1 incomplete", name, col.Rejected, col.Incomplete, col.TooWide)
		}
		if col.Metrics == nil {
			t.Fatalf("%s: no metrics", name)
		}
	}
	if w := c.Recorded.Metrics.Wait.Mean; w != 25 {
		t.Errorf("recorded mean wait %v, want 25 = (0 + 50) / 2", w)
	}
	if w := c.Rigid.Metrics.Wait.Mean; w != 25 {
		t.Errorf("rigid mean wait %v, want 25 (FCFS repeats the log)", w)
	}
	if c.Feedback.Feedback == nil || c.Rigid.Feedback != nil || len(c.Feedback.Feedback.WeeklyCycle) != 168 {
		t.Error("the feedback figures belong to the feedback column only, with a 168-hour cycle")
	}
	if got := len(RecordedResult(tr).Jobs); got != 2 {
		t.Errorf("RecordedResult holds %d jobs, want the 2 with a schedule", got)
	}
}
