package metrics_test

import (
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/metrics"
)

func months(means ...float64) *metrics.Summary {
	s := &metrics.Summary{}
	sum := 0.0
	for i, m := range means {
		s.PerMonth = append(s.PerMonth, metrics.Group{Key: string(rune('a' + i)), Jobs: 1, Wait: metrics.Stat{Mean: m}})
		sum += m
	}
	s.Wait.Mean = sum / float64(len(means))
	return s
}

// TestGains checks the gains on hand-worked monthly means: the baseline
// months 100, 300 (mean 200, sample SD 141.42) against 150, 170 (mean 160,
// SD 14.142) give a performance gain of 40/200 = 0.2 and a stability gain
// of 1 - 14.142/141.42 = 0.9.
func TestGains(t *testing.T) {
	for _, tc := range []struct {
		name       string
		run, base  *metrics.Summary
		perf, stab float64
		err        bool
	}{
		{"better", months(150, 170), months(100, 300), 0.2, 0.9, false},
		{"same", months(100, 300), months(100, 300), 0, 0, false},
		{"worse", months(100, 500), months(100, 300), -0.5, -1, false},
		{"months differ", months(1, 2, 3), months(1, 2), 0, 0, true},
		{"no months", &metrics.Summary{}, months(1, 2), 0, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := metrics.Gains(tc.run, tc.base)
			if (err != nil) != tc.err {
				t.Fatalf("error %v, want error %v", err, tc.err)
			}
			if tc.err {
				return
			}
			if !(math.Abs(g.Performance-tc.perf) <= 1e-9) || !(math.Abs(g.Stability-tc.stab) <= 1e-9) {
				t.Errorf("gains %v/%v, want %v/%v", g.Performance, g.Stability, tc.perf, tc.stab)
			}
		})
	}
}
