package replicate

import (
	"errors"
	"math"
	"testing"
)

func TestPairedDiffs(t *testing.T) {
	a := &Result{Mode: "conventional", Variants: []Metrics{
		{Jobs: 10, Wait: 100}, {Jobs: 12, Wait: 200}, {Jobs: 11, Wait: 300}, {Jobs: 9, Wait: 999, Saturated: true}}}
	b := &Result{Mode: "conventional", Variants: []Metrics{
		{Jobs: 10, Wait: 90}, {Jobs: 12, Wait: 180}, {Jobs: 11, Wait: 290}, {Jobs: 9, Wait: 1}}}
	ps, err := PairedDiffs(a, b)
	if err != nil {
		t.Fatal(err)
	}
	var w Paired
	for _, p := range ps {
		if p.Metric == "wait" {
			w = p
		}
		if p.Metric == "jobs" {
			t.Error("jobs compared: it is the workload, not a result")
		}
	}
	// Differences -10, -20, -10 (the saturated variant left out): mean
	// -40/3, sd 5.7735, t(0.975, 2) = 4.302653: half-width 14.3422.
	if w.N != 3 || w.Lower != 3 || math.Abs(w.Diff+40.0/3) > 1e-12 || math.Abs(w.MeanA-200) > 1e-12 || math.Abs(w.MeanB-560.0/3) > 1e-12 {
		t.Errorf("wait: %+v", w)
	}
	if h := (w.CIHigh - w.CILow) / 2; math.Abs(h-4.302653*5.773503/math.Sqrt(3)) > 1e-4 {
		t.Errorf("half-width %v", h)
	}
	b.Variants[1].Jobs = 13
	if _, err := PairedDiffs(a, b); !errors.Is(err, ErrNotPaired) {
		t.Errorf("different workloads: %v", err)
	}
	if _, err := PairedDiffs(a, &Result{Mode: "conventional"}); !errors.Is(err, ErrNotPaired) {
		t.Errorf("different variant counts: %v", err)
	}
}
