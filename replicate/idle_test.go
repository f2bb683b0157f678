package replicate_test

import (
	"context"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/replicate"
	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/trace"
)

// TestIdleNotSaturated replays idle.swf, where long serial jobs pile up
// running on a machine with room for all of them (under 2% load, no wait):
// the outstanding jobs grow by 3.5 a week, the queue never does, and
// neither the original nor a variant may be flagged saturated.
func TestIdleNotSaturated(t *testing.T) {
	tr, err := trace.Load(testdata.Odd("idle.swf"), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := resample.Classify(tr, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := replicate.Run(context.Background(), replicate.Config{Pools: p, Scheduler: easy, Variants: 3,
		Generate: resample.Options{Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Original.Saturated || r.Saturated != 0 {
		t.Errorf("idle runs flagged saturated: original %v (slope %.2f), %d of 3 variants",
			r.Original.Saturated, r.Original.Slope, r.Saturated)
	}
	if r.Original.Slope < 1 {
		t.Errorf("outstanding slope %.2f: the fixture no longer piles up running jobs", r.Original.Slope)
	}
}

// TestOriginalPeriod replays idle.swf, a log of 140 runnable jobs without
// an end time in its header, so that its period ends at its last submit:
// the original's metrics must count all 140 jobs, the last one included.
// It also checks that the result says how the original was replayed: at
// its recorded times in conventional mode, with the variants' feedback
// users under TBUOS.
func TestOriginalPeriod(t *testing.T) {
	tr, err := trace.Load(testdata.Odd("idle.swf"), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := resample.Classify(tr, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode   replicate.Mode
		replay string
	}{
		{replicate.Conventional, "rigid"},
		{replicate.TBUOS, "feedback (fluid users)"},
	} {
		r, err := replicate.Run(context.Background(), replicate.Config{Pools: p, Scheduler: easy, Variants: 1, Mode: tc.mode,
			Generate: resample.Options{Seed: 1, Duration: 2 * resample.Week}})
		if err != nil {
			t.Fatal(err)
		}
		if r.OriginalReplay != tc.replay {
			t.Errorf("%s: original replayed %q, want %q", tc.mode, r.OriginalReplay, tc.replay)
		}
		// Completed in the period [0, 12031201): the 70 one-hour jobs but
		// the last (submitted at 12031200), none of the 140-day ones.
		if tc.mode == replicate.Conventional && (r.Original.Jobs != 140 || r.Original.Throughput != 69) {
			t.Errorf("original measures %d jobs, %d completed; want 140 and 69", r.Original.Jobs, r.Original.Throughput)
		}
	}
}
