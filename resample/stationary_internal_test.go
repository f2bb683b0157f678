package resample

import (
	"math"
	"testing"
)

// TestDiffSigma works the robust noise estimate out by hand: the median
// absolute deviation of the week-to-week differences from their median,
// over 0.6745 sqrt 2; 0 for fewer than three weeks.
func TestDiffSigma(t *testing.T) {
	want := 0.5 / (0.6745 * math.Sqrt2)
	for _, tc := range []struct {
		x    []float64
		want float64
	}{
		// Differences 2 1 4 1: median 1.5, deviations .5 .5 2.5 .5, median .5.
		{[]float64{1, 3, 4, 8, 9}, want},
		// Differences 1 2: median 1.5, deviations .5 .5.
		{[]float64{0, 1, 3}, want},
		// Differences 5 -1 5: median 5, deviations 0 6 0.
		{[]float64{0, 5, 4, 9}, 0},
		{[]float64{0, 1}, 0},
		{nil, 0},
	} {
		if got := diffSigma(tc.x); !(math.Abs(got-tc.want) <= 1e-15) {
			t.Errorf("diffSigma(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
	for _, tc := range []struct {
		x    []float64
		want float64
	}{{[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}, {[]float64{7}, 7}} {
		if got := median(tc.x); got != tc.want {
			t.Errorf("median = %v, want %v", got, tc.want)
		}
	}
}
