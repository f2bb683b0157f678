package replicate_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/hpcwl/hpcwl/replicate"
	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

func kthPools(t testing.TB) *resample.Pools {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := resample.Classify(tr, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func easy() sim.Scheduler { return sched.NewEASY(0) }

// TestSameResultsAnyWorkers checks that the variants do not depend on the
// number of workers.
func TestSameResultsAnyWorkers(t *testing.T) {
	p := kthPools(t)
	for _, mode := range []replicate.Mode{replicate.Conventional, replicate.TBUOS} {
		var prev *replicate.Result
		for _, workers := range []int{1, 3} {
			r, err := replicate.Run(context.Background(), replicate.Config{Pools: p, Scheduler: easy, Mode: mode,
				Variants: 4, Workers: workers, Generate: resample.Options{Seed: 5, Duration: 20 * resample.Week}, SkipOriginal: true})
			if err != nil {
				t.Fatal(err)
			}
			if prev != nil && !reflect.DeepEqual(prev.Variants, r.Variants) {
				t.Errorf("%v: 1 worker and 3 workers differ:\n%+v\n%+v", mode, prev.Variants, r.Variants)
			}
			prev = r
		}
		t.Logf("%v: %+v", mode, prev.Variants[0])
	}
}

// TestOriginalInside runs a few conventional variants of KTH-SP2 with the
// original replay and checks that the throughput is centred near the
// original's (spec S4: within 15% here, for 8 variants).
func TestOriginalInside(t *testing.T) {
	p := kthPools(t)
	r, err := replicate.Run(context.Background(), replicate.Config{Pools: p, Scheduler: easy, Variants: 8, Generate: resample.Options{Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range r.Summary {
		t.Logf("%-16s original %10.4g  median %10.4g  [%10.4g, %10.4g]  rank %.2f", d.Name, d.Original, d.Median, d.P2_5, d.P97_5, d.OriginalRank)
	}
	tp := r.Summary[0]
	if tp.Name != "throughput" || tp.MedianDiff < -0.15 || tp.MedianDiff > 0.15 {
		t.Errorf("throughput median %.0f vs original %.0f", tp.Median, tp.Original)
	}
}

// TestRegeneration: with the original off-activity gap before each
// regeneration (the default), long-term users come back later than with
// immediate regeneration, so TBUOS completes fewer jobs over a period
// longer than the log (spec section 18.6 #40).
func TestRegeneration(t *testing.T) {
	p := kthPools(t)
	var tp [2]float64
	for i, rule := range []resample.Regeneration{resample.RegenImmediate, resample.RegenGap} {
		r, err := replicate.Run(context.Background(), replicate.Config{Pools: p, Scheduler: easy, Mode: replicate.TBUOS, Regen: rule,
			Variants: 2, Generate: resample.Options{Seed: 3, Duration: 60 * resample.Week}, SkipOriginal: true})
		if err != nil {
			t.Fatal(err)
		}
		tp[i] = r.Summary[0].Median
		if r.Regeneration != rule.String() {
			t.Errorf("Result.Regeneration %q, want %q", r.Regeneration, rule)
		}
		t.Logf("regeneration %v: throughput %.0f", rule, tp[i])
	}
	if !(tp[1] < 0.9*tp[0]) {
		t.Errorf("throughput %.0f with the off-activity gap, %.0f with immediate regeneration; want at least 10%% fewer", tp[1], tp[0])
	}
}
