package scorecard

import (
	"math"
	"testing"
)

func TestJudgeEdges(t *testing.T) {
	up := func(x float64) float64 { return math.Nextafter(x, 2) }
	for _, c := range []struct {
		stat, closeB, farB float64
		want               Verdict
	}{
		{0, 0.1, 0.2, Close},
		{0.1, 0.1, 0.2, Close},
		{up(0.1), 0.1, 0.2, Differs},
		{0.2, 0.1, 0.2, Differs},
		{up(0.2), 0.1, 0.2, Far},
		// far bound below the close bound: beyond close is far
		{0.2, 0.2, 0.1, Close},
		{up(0.2), 0.2, 0.1, Far},
		{math.NaN(), 0.1, 0.2, NA},
	} {
		if got := judge(c.stat, c.closeB, c.farB); got != c.want {
			t.Errorf("judge(%v, %v, %v) = %s, want %s", c.stat, c.closeB, c.farB, got, c.want)
		}
	}
}
