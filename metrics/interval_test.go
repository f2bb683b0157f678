package metrics

import (
	"math"
	"testing"
)

// TestIntervalLowRaised checks the lower end of the intervals of the
// means: a slowdown of 1 for every job but one of 20,000 gives a
// batch-means interval that reaches below 1, which no mean of slowdowns
// can; its lower end is raised to 1 and said. A wait's least value is 0.
// An interval that stays above the least value is left alone.
func TestIntervalLowRaised(t *testing.T) {
	x := make([]float64, 2000)
	for i := range x {
		x[i] = 1
		if i == 1007 {
			x[i] = 20000
		}
	}
	raw := interval(x, 0.95)
	if !(raw.Low < 1) || raw.Note != "" {
		t.Fatalf("the test needs an interval below 1: %+v", raw)
	}
	for _, q := range []int{sdQ, bsdQ} {
		got := quantityInterval(x, 0.95, q)
		if got.Low != 1 || !got.LowRaised || got.High != raw.High || got.Mean != raw.Mean {
			t.Errorf("quantity %d: %+v, want Low 1 raised, High %v", q, got, raw.High)
		}
	}
	waits := make([]float64, len(x))
	for i := range x {
		waits[i] = x[i] - 1
	}
	rawWait := interval(waits, 0.95)
	if got := quantityInterval(waits, 0.95, waitQ); !(rawWait.Low < 0) || got.Low != 0 || !got.LowRaised {
		t.Errorf("wait: %+v (raw low %v), want Low 0 raised", got, rawWait.Low)
	}
	// Slowdowns between 2 and 3: the interval stays above 1.
	for i := range x {
		x[i] = 2 + math.Mod(float64(i)*0.37, 1)
	}
	if got := quantityInterval(x, 0.95, bsdQ); got.LowRaised || got.Low != interval(x, 0.95).Low {
		t.Errorf("slowdowns 2 to 3: %+v, want the interval as computed", got)
	}
}
