package replicate

import (
	"math"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// TestMeasure works the metrics of a hand-made schedule on 10 processors
// over the period [100, 1100) out by hand. Jobs (submit, start, end,
// processors): A (50, 60, 200, 4) is submitted before the period and F
// (1100, 1100, 1200, 1) at its end, so they count only in the utilization,
// as does H (900, 900, 1000, 1), a rare behaviour; E (700) never starts.
// The others: B (100, 150, 400, 2): wait 50, response 300, slowdown 1.2;
// C (500, 500, 1500, 5) ends after the period; D (600, 605, 606, 1):
// slowdown 6, bounded 1; G (800, 800, 800, 3) runs 0 s: slowdown 1;
// K (300, 340, 342, 1): response 42, slowdown 21, bounded 4.2; L (1000,
// 1000, 1100, 1) completes at the period's end.
func TestMeasure(t *testing.T) {
	type j struct {
		submit, start, end sim.Time
		procs              int32
	}
	jobs := []j{{50, 60, 200, 4}, {100, 150, 400, 2}, {500, 500, 1500, 5}, {600, 605, 606, 1}, {700, -1, -1, 2},
		{1100, 1100, 1200, 1}, {800, 800, 800, 3}, {900, 900, 1000, 1}, {300, 340, 342, 1}, {1000, 1000, 1100, 1}}
	res := &sim.Result{Procs: 10}
	for i, x := range jobs {
		res.Jobs = append(res.Jobs, sim.Outcome{Job: sim.Job{ID: int64(i + 1), Submit: x.submit, Procs: x.procs}, Start: x.start, End: x.end})
	}
	m := measure(res, 100, 1100, 10, func(i int) bool { return i == 7 })
	// Busy processor-seconds in the period: A 100 x 4, B 250 x 2, C 600 x 5,
	// D 1, H 100, K 2, L 100.
	want := Metrics{Jobs: 7, Throughput: 5, Utilization: 4103.0 / 10000,
		Wait: (50 + 0 + 5 + 0 + 40 + 0) / 6.0, Response: (300 + 1000 + 6 + 0 + 42 + 100) / 6.0,
		Slowdown: (1.2 + 1 + 6 + 1 + 21 + 1) / 6, BoundedSlowdown: (1.2 + 1 + 1 + 1 + 4.2 + 1) / 6}
	if m.Jobs != want.Jobs || m.Throughput != want.Throughput {
		t.Errorf("%d jobs, %d completed; want %d and %d", m.Jobs, m.Throughput, want.Jobs, want.Throughput)
	}
	for _, name := range MetricNames {
		if got, w := m.Value(name), want.Value(name); !(math.Abs(got-w) <= 1e-12*math.Abs(w)) {
			t.Errorf("%s: %v, want %v", name, got, w)
		}
	}
	// A job that starts at time 0 counts like any other.
	first := measure(&sim.Result{Procs: 4, Jobs: []sim.Outcome{{Job: sim.Job{Submit: 0, Procs: 2}, Start: 0, End: 10}}}, 0, 100, 10, nil)
	if first != (Metrics{Jobs: 1, Throughput: 1, Utilization: 20.0 / 400, Wait: 0, Response: 10, Slowdown: 1, BoundedSlowdown: 1}) {
		t.Errorf("one job from time 0: %+v", first)
	}
	// Without a started job the means stay 0.
	idle := measure(&sim.Result{Procs: 4, Jobs: []sim.Outcome{{Job: sim.Job{Submit: 5, Procs: 1}, Start: -1, End: -1}}}, 0, 100, 10, nil)
	if idle != (Metrics{Jobs: 1}) {
		t.Errorf("one job that never started: %+v", idle)
	}
}

// TestMetricValue checks that every metric name reads its own field and
// that an unknown name panics.
func TestMetricValue(t *testing.T) {
	m := Metrics{Jobs: 1, Throughput: 2, Utilization: 3, Wait: 4, Response: 5, Slowdown: 6, BoundedSlowdown: 7}
	for name, want := range map[string]float64{"jobs": 1, "throughput": 2, "utilization": 3, "wait": 4, "response": 5, "slowdown": 6, "bounded_slowdown": 7} {
		if got := m.Value(name); got != want {
			t.Errorf("Value(%q) = %v, want %v", name, got, want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Value(\"makespan\") did not panic")
		}
	}()
	m.Value("makespan")
}

// TestSummarizeSpread pins the standard deviation, the confidence interval
// of the mean (mean ± 1.96 sd / sqrt(n)) and the max/min ratio.
func TestSummarizeSpread(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }
	sd4 := math.Sqrt(20.0 / 3) // 2, 4, 6, 8: squares of deviations 20, over n-1
	for _, c := range []struct {
		name               string
		x                  []float64
		sd, lo, hi, maxMin float64
	}{
		{"four", []float64{8, 2, 6, 4}, sd4, 5 - 1.96*sd4/2, 5 + 1.96*sd4/2, 4},
		{"two", []float64{2, 4}, math.Sqrt2, 3 - 1.96, 3 + 1.96, 2},
		{"one", []float64{5}, 0, math.NaN(), math.NaN(), 1},
		{"a zero", []float64{0, 3}, math.Sqrt(4.5), 1.5 - 1.96*1.5, 1.5 + 1.96*1.5, math.NaN()},
	} {
		d := summarize("wait", c.x, 0)
		ok := near(d.SD, c.sd) && (near(d.CILow, c.lo) || math.IsNaN(c.lo) && math.IsNaN(d.CILow)) &&
			(near(d.CIHigh, c.hi) || math.IsNaN(c.hi) && math.IsNaN(d.CIHigh)) &&
			(near(d.MaxMin, c.maxMin) || math.IsNaN(c.maxMin) && math.IsNaN(d.MaxMin))
		if !ok {
			t.Errorf("%s: sd %v, CI %v..%v, max/min %v; want %v, %v..%v, %v", c.name, d.SD, d.CILow, d.CIHigh, d.MaxMin, c.sd, c.lo, c.hi, c.maxMin)
		}
		if !math.IsNaN(d.MedianDiff) {
			t.Errorf("%s: median vs an original of 0: %v, want NaN", c.name, d.MedianDiff)
		}
	}
}

// TestSummaryCounts checks that saturated variants are counted and left
// out of the summary, and when the warnings appear: fewer than two
// unsaturated variants, and an original outside their range.
func TestSummaryCounts(t *testing.T) {
	for _, c := range []struct {
		name      string
		variants  []Metrics
		saturated int
		warnings  []string
	}{
		{"two inside", []Metrics{{Wait: 90}, {Wait: 110}}, 0, nil},
		{"one left", []Metrics{{Wait: 90, Saturated: true}, {Wait: 110}, {Wait: 300, Saturated: true}}, 2, []string{"1 unsaturated variant(s)"}},
		{"outside", []Metrics{{Wait: 10}, {Wait: 20}, {Wait: 30, Saturated: true}}, 1, []string{"outside the range of the 2 variants for wait"}},
	} {
		r := &Result{Original: &Metrics{Wait: 100, Utilization: 0}, Variants: c.variants}
		r.summarize(false)
		if r.Saturated != c.saturated || r.Summary[2].Name != "wait" || r.Summary[2].N != len(c.variants)-c.saturated {
			t.Errorf("%s: %d saturated, wait over %d variants; want %d and %d", c.name, r.Saturated, r.Summary[2].N, c.saturated, len(c.variants)-c.saturated)
		}
		if len(r.Warnings) != len(c.warnings) {
			t.Errorf("%s: warnings %q, want %q", c.name, r.Warnings, c.warnings)
			continue
		}
		for i, w := range c.warnings {
			if !strings.Contains(r.Warnings[i], w) {
				t.Errorf("%s: warning %q lacks %q", c.name, r.Warnings[i], w)
			}
		}
	}
}
