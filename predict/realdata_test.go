package predict

import (
	"context"
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/metrics"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// TestRealKTH replays KTH-SP2 under EASY and under SJBF with each predictor
// (docs/validation.md, "Runtime predictors") and checks the shape of
// Talby's Table 15 (SJBF + perfect beats SJBF + requested beats EASY in
// bounded slowdown; RUH is more accurate than the estimates; constant 1 s
// backfills about a fifth more jobs than EASY), and pins our figures:
// mean wait in seconds and time-weighted relative accuracy. They move only
// if the engine, SJBF or the predictors change.
func TestRealKTH(t *testing.T) {
	if testing.Short() {
		t.Skip("real logs skipped in -short mode")
	}
	tr, err := trace.Load(testdata.Path(t, "KTH-SP2-1996-2.1-cln.swf.gz"), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	run := func(scheduler, spec string) *metrics.Summary {
		p, err := New(spec, Env{Trace: tr})
		if err != nil {
			t.Fatal(err)
		}
		s, _ := sched.New(scheduler)
		res, _, err := sim.Simulate(context.Background(), tr, s, sim.Options{Predictor: p, RecordPredictions: true})
		if err != nil {
			t.Fatal(err)
		}
		m, err := metrics.Compute(res, metrics.Options{NoGroups: true})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	got := map[string]*metrics.Summary{"easy": run("easy", "requested")}
	pins := []struct {
		spec       string
		wait, relA float64
	}{
		{"requested", 6026, 0.472}, {"perfect", 5439, 1}, {"constant:1", 5763, 0.432},
		{"ruh", 5601, 0.618}, {"ruh:prop=true", 5640, 0.627}, {"sbh", 5602, 0.647}, {"sbh-noest", 5662, 0.548},
	}
	for _, pin := range pins {
		m := run("sjbf", pin.spec)
		got[pin.spec] = m
		if !(math.Abs(m.Wait.Mean-pin.wait) <= 0.5) || !(math.Abs(m.Accuracy.RelAccuracy-pin.relA) <= 0.0005) {
			t.Errorf("sjbf + %s: mean wait %.1f s, relative accuracy %.4f; pinned %.0f s, %.3f",
				pin.spec, m.Wait.Mean, m.Accuracy.RelAccuracy, pin.wait, pin.relA)
		}
	}
	bsld := func(s string) float64 { return got[s].BoundedSlowdown.Mean }
	if !(bsld("perfect") < bsld("requested") && bsld("requested") < bsld("easy")) {
		t.Errorf("bounded slowdown: perfect %.2f, requested %.2f, easy %.2f: want increasing", bsld("perfect"), bsld("requested"), bsld("easy"))
	}
	if a, e := got["ruh"].Accuracy.RelAccuracy, got["easy"].Accuracy.RelAccuracy; !(a > e) {
		t.Errorf("relative accuracy: ruh %.3f, estimates %.3f", a, e)
	}
	if c, e := got["constant:1"].Backfilled, got["easy"].Backfilled; !(c > 1.15*e) {
		t.Errorf("backfilled: constant 1 s %.3f, easy %.3f: want at least 15%% more", c, e)
	}
}
