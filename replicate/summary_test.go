package replicate

import "testing"

// TestSummarize works a small sample by hand: quantiles interpolate
// between order statistics, so the median of four values is the mean of
// the middle two.
func TestSummarize(t *testing.T) {
	d := summarize("wait", []float64{4, 1, 3, 2}, 2)
	want := Dist{Name: "wait", Original: 2, N: 4, Min: 1, Max: 4, P25: 1.75, Median: 2.5, P75: 3.25, P2_5: 1.075, P97_5: 3.925,
		OriginalRank: 0.375, MaxMin: 4, MedianDiff: 0.25, Mean: 2.5}
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
