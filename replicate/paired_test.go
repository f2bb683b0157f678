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
	if w.N != 3 || w.Lower != 3 || !(math.Abs(w.Diff+40.0/3) <= 1e-12) || !(math.Abs(w.MeanA-200) <= 1e-12) || !(math.Abs(w.MeanB-560.0/3) <= 1e-12) {
		t.Errorf("wait: %+v", w)
	}
	if h := (w.CIHigh - w.CILow) / 2; !(math.Abs(h-4.302653*5.773503/math.Sqrt(3)) <= 1e-4) {
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

// TestPairedDiffsSmallSamples works the comparison out by hand for the
// edge cases a user meets with few variants: every variant saturated
// (nothing to compare), one variant (a difference but no spread and no
// interval), two variants (the smallest with an interval), and a tie,
// which is not "B lower". Under TBUOS the job counts may differ (the
// workload follows the schedule) and the runs still pair.
func TestPairedDiffsSmallSamples(t *testing.T) {
	nan := math.NaN()
	t12 := 12.706204736174698 // Student's t, 0.975 quantile, 1 degree of freedom
	for _, tc := range []struct {
		name      string
		mode      string
		a, b      []Metrics
		n, lower  int
		meanA     float64
		meanB     float64
		diff, sd  float64
		halfWidth float64 // NaN: no interval
	}{
		{"all saturated", "conventional",
			[]Metrics{{Jobs: 5, Wait: 10, Saturated: true}, {Jobs: 6, Wait: 20}},
			[]Metrics{{Jobs: 5, Wait: 30}, {Jobs: 6, Wait: 40, Saturated: true}},
			0, 0, nan, nan, nan, nan, nan},
		{"one variant", "conventional",
			[]Metrics{{Jobs: 5, Wait: 10}}, []Metrics{{Jobs: 5, Wait: 4}},
			1, 1, 10, 4, -6, 0, nan},
		{"two variants, one tie", "conventional",
			[]Metrics{{Jobs: 5, Wait: 10}, {Jobs: 7, Wait: 30}},
			[]Metrics{{Jobs: 5, Wait: 10}, {Jobs: 7, Wait: 20}},
			// differences 0 and -10: mean -5, sd sqrt(50) = 7.0711,
			// half-width t * sd / sqrt(2) = 12.7062 * 5 = 63.531.
			2, 1, 20, 15, -5, math.Sqrt(50), t12 * 5},
		{"TBUOS, different job counts", "tbuos",
			[]Metrics{{Jobs: 5, Wait: 10}, {Jobs: 7, Wait: 30}},
			[]Metrics{{Jobs: 6, Wait: 14}, {Jobs: 9, Wait: 30}},
			2, 0, 20, 22, 2, math.Sqrt(8), t12 * 2},
	} {
		ps, err := PairedDiffs(&Result{Mode: tc.mode, Variants: tc.a}, &Result{Mode: tc.mode, Variants: tc.b})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var w Paired
		for _, p := range ps {
			if p.Metric == "wait" {
				w = p
			}
		}
		same := func(got, want float64) bool {
			return got == want || math.IsNaN(got) && math.IsNaN(want) ||
				!math.IsInf(want, 0) && math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))
		}
		h := (w.CIHigh - w.CILow) / 2
		if w.N != tc.n || w.Lower != tc.lower || !same(w.MeanA, tc.meanA) || !same(w.MeanB, tc.meanB) ||
			!same(w.Diff, tc.diff) || !same(w.SD, tc.sd) || !same(h, tc.halfWidth) ||
			!math.IsNaN(tc.halfWidth) && !same((w.CIHigh+w.CILow)/2, tc.diff) {
			t.Errorf("%s: got %+v (half-width %v), want n %d lower %d means %v %v diff %v sd %v half-width %v",
				tc.name, w, h, tc.n, tc.lower, tc.meanA, tc.meanB, tc.diff, tc.sd, tc.halfWidth)
		}
	}
	if _, err := PairedDiffs(&Result{Mode: "conventional", Variants: []Metrics{{}}}, &Result{Mode: "tbuos", Variants: []Metrics{{}}}); !errors.Is(err, ErrNotPaired) {
		t.Errorf("different modes: %v", err)
	}
}
