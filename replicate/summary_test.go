package replicate

import (
	"math"
	"strings"
	"testing"
)

// TestSummarize works a small sample by hand: quantiles are empirical
// (rank ceil(p n)), so the median of four values is the second.
func TestSummarize(t *testing.T) {
	d := summarize("wait", []float64{4, 1, 3, 2}, 2)
	want := Dist{Name: "wait", Original: 2, N: 4, Min: 1, Max: 4, P25: 1, Median: 2, P75: 3, P2_5: 1, P97_5: 4,
		OriginalRank: 0.375, MaxMin: 4, MedianDiff: 0, Mean: 2.5}
	if d.Median != want.Median || d.P25 != want.P25 || d.P75 != want.P75 || d.Min != want.Min || d.Max != want.Max ||
		d.OriginalRank != want.OriginalRank || d.MaxMin != want.MaxMin || d.MedianDiff != want.MedianDiff || d.Mean != want.Mean ||
		abs(d.P2_5-want.P2_5) > 1e-12 || abs(d.P97_5-want.P97_5) > 1e-12 {
		t.Errorf("got %+v\nwant %+v", d, want)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestSummarizeCIAndRange(t *testing.T) {
	one := summarize("wait", []float64{5}, 3)
	if !math.IsNaN(one.CILow) || !math.IsNaN(one.CIHigh) {
		t.Errorf("one variant: CI %v..%v, want none", one.CILow, one.CIHigh)
	}
	if one.OutsideRange {
		t.Error("one variant has no range to lie outside of")
	}
	tests := []struct {
		orig    float64
		outside bool
	}{{0.5, true}, {1, false}, {2, false}, {3, false}, {3.5, true}, {math.NaN(), false}}
	for _, tt := range tests {
		d := summarize("wait", []float64{1, 2, 3}, tt.orig)
		if d.OutsideRange != tt.outside {
			t.Errorf("original %v: outside %v, want %v", tt.orig, d.OutsideRange, tt.outside)
		}
		if math.IsNaN(d.CILow) {
			t.Errorf("three variants: no CI")
		}
	}
}

func TestResultWarnings(t *testing.T) {
	r := &Result{Original: &Metrics{Wait: 100, Saturated: true, Slope: 4}, Variants: []Metrics{{Wait: 1}, {Wait: 2}}}
	r.summarize(false)
	all := strings.Join(r.Warnings, "\n")
	for _, want := range []string{"original log saturates", "outside the range of the 2 variants for", "wait"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings %q lack %q", all, want)
		}
	}
	r = &Result{Variants: []Metrics{{Wait: 1}, {Wait: 2, Saturated: true}}}
	r.summarize(true)
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "no confidence interval") {
		t.Errorf("warnings %q, want one about the confidence interval", r.Warnings)
	}
}
