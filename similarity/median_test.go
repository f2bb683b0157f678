package similarity

import (
	"math"
	"testing"
)

// TestAccMedian: the median is the lower median, read as the middle of
// its histogram bin (width 1e-4); a similarity of 1 falls in the last bin.
func TestAccMedian(t *testing.T) {
	for _, c := range []struct {
		r          []float64
		median     float64
		same, n    int64
		sum        float64
		lastBinHas int64
	}{
		{[]float64{0.25, 0.5, 1}, 0.50005, 1, 3, 1.75, 1},
		{[]float64{1, 0.75, 0.5, 0.25}, 0.50005, 1, 4, 2.5, 1},
		{[]float64{1, 1}, 0.99995, 2, 2, 2, 2},
		{[]float64{0}, 0.00005, 0, 1, 0, 0},
	} {
		a := acc{hist: make([]int64, medianBins)}
		for _, r := range c.r {
			a.add(r)
		}
		if got := a.median(); !(math.Abs(got-c.median) <= 1e-12) {
			t.Errorf("%v: median %v, want %v", c.r, got, c.median)
		}
		if a.same != c.same || a.n != c.n || a.sum != c.sum || a.hist[medianBins-1] != c.lastBinHas {
			t.Errorf("%v: same %d, n %d, sum %v, last bin %d; want %d, %d, %v, %d", c.r, a.same, a.n, a.sum, a.hist[medianBins-1], c.same, c.n, c.sum, c.lastBinHas)
		}
	}
	if m := (&acc{hist: make([]int64, medianBins)}).median(); !math.IsNaN(m) {
		t.Errorf("median of nothing %v, want NaN", m)
	}
}

func TestAttributeString(t *testing.T) {
	for a, want := range map[Attribute]string{Procs: "procs", Estimate: "estimate", Runtime: "runtime", -1: "Attribute(-1)", NumAttributes: "Attribute(3)"} {
		if got := a.String(); got != want {
			t.Errorf("%d: %q, want %q", int(a), got, want)
		}
	}
}
