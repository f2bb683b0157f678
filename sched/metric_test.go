package sched

import (
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// TestMetricScore checks each PBAS metric on a window worked out by hand:
// 4 jobs ended with sums wait 100, response 200, slowdown 12 and bounded
// slowdown 8, and 3,000 processor-seconds used on 10 processors over 600
// s. The per-job metrics are the means (25, 50, 3 and 2); utilisation is
// 3000 / (10 · 600) = 0.5, negated so that lower is better. A window
// without a job ended has no per-job score, and an empty window (To = From)
// no utilisation.
func TestMetricScore(t *testing.T) {
	w := sim.WindowStats{Ended: 4, Wait: 100, Response: 200, Slowdown: 12, BoundedSlowdown: 8, Busy: 3000, From: 1000, To: 1600}
	for _, tc := range []struct {
		m    Metric
		want float64
	}{
		{MetricWait, 25}, {MetricResponse, 50}, {MetricSlowdown, 3}, {MetricBoundedSlowdown, 2}, {MetricUtilization, -0.5},
	} {
		got, ok := tc.m.score(w, 10)
		if !ok || got != tc.want {
			t.Errorf("%v: %v, %v; want %v, true", tc.m, got, ok, tc.want)
		}
		none := w
		none.Ended = 0
		if got, ok := tc.m.score(none, 10); (ok != (tc.m == MetricUtilization)) || (tc.m == MetricUtilization && got != -0.5) {
			t.Errorf("%v, no job ended: %v, %v", tc.m, got, ok)
		}
		empty := w
		empty.To = empty.From
		if got, ok := tc.m.score(empty, 10); tc.m == MetricUtilization && (ok || got != 0) {
			t.Errorf("%v, empty window: %v, %v; want 0, false", tc.m, got, ok)
		}
	}
}
