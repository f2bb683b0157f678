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
