package scorecard

import (
	"math"
	"testing"
)

// TestTextByHand pins how the rows write numbers and durations: whole
// numbers without decimals, three significant digits otherwise, and the
// largest unit a duration reaches (60 s is a minute, 3,600 s an hour, 86,400
// s a day; the sign does not change the unit).
func TestTextByHand(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{3, "3"}, {-3, "-3"}, {0, "0"}, {2.5, "2.5"}, {1234.5678, "1.23e+03"},
		{999999999999999, "999999999999999"}, {1e15, "1e+15"}, {-1e15, "-1e+15"},
	} {
		if got := trimFloat(c.x); got != c.want {
			t.Errorf("trimFloat(%v) = %q, want %q", c.x, got, c.want)
		}
	}
	for _, c := range []struct {
		s    float64
		want string
	}{
		{0, "0s"}, {59, "59s"}, {59.9, "59.9s"}, {60, "1m"}, {-60, "-1m"}, {90, "1.5m"},
		{3599, "60m"}, {3600, "1h"}, {-3600, "-1h"}, {5400, "1.5h"},
		{86399, "24h"}, {86400, "1d"}, {-86400, "-1d"}, {129600, "1.5d"},
	} {
		if got := durationText(c.s); got != c.want {
			t.Errorf("durationText(%v) = %q, want %q", c.s, got, c.want)
		}
	}
	// Medians: of an odd and an even sample; counts are plain numbers,
	// times durations.
	for _, c := range []struct {
		x          []float64
		unit, want string
	}{
		{[]float64{1, 2, 40}, "", "median 2"},
		{[]float64{1, 2, 40}, "processors", "median 2"},
		{[]float64{1, 2, 40}, "s", "median 2s"},
		{[]float64{60, 3600, 90000}, "s", "median 1h"},
		// the lower median, an observed value
		{[]float64{30, 90}, "s", "median 30s"},
	} {
		if got := medianText(c.x, c.unit); got != c.want {
			t.Errorf("medianText(%v, %q) = %q, want %q", c.x, c.unit, got, c.want)
		}
	}
}

// TestPeakTies checks that the peak of a cycle is its first largest bin.
func TestPeakTies(t *testing.T) {
	for _, c := range []struct {
		x    []float64
		want int
	}{
		{[]float64{5, 1, 2}, 0}, {[]float64{1, 3, 3, 2}, 1}, {[]float64{0, 0, 0}, 0},
		{[]float64{1, 2, 3}, 2}, {[]float64{2, 2}, 0},
	} {
		if got := peak(c.x); got != c.want {
			t.Errorf("peak(%v) = %d, want %d", c.x, got, c.want)
		}
	}
	if got := dayLabel(9); got != "peak 09-10h" {
		t.Errorf("dayLabel(9) = %q", got)
	}
	if got := weekLabel(6); got != "peak Sun" {
		t.Errorf("weekLabel(6) = %q", got)
	}
}

// TestCohenWEmptyBins: a bin empty in both histograms adds nothing to w
// (its pooled proportion is 0) and nothing to the total variation. With
// counts (2, 0, 2) and (1, 0, 3): p = (½, 0, ½), q = (¼, 0, ¾), r = (3/8,
// 0, 5/8), w² = (1/16)/(3/8) + (1/16)/(5/8) = 1/6 + 1/10 = 4/15, tv = ¼.
func TestCohenWEmptyBins(t *testing.T) {
	w, tv := CohenW([]float64{2, 0, 2}, []float64{1, 0, 3})
	if want := math.Sqrt(4.0 / 15); !(math.Abs(w-want) <= 1e-12) {
		t.Errorf("w = %v, want %v", w, want)
	}
	if !(math.Abs(tv-0.25) <= 1e-12) {
		t.Errorf("total variation %v, want 0.25", tv)
	}
}

// TestCycleRowWithoutSubmits: a cycle with no submit in one workload has
// no verdict; the other's peak is still given.
func TestCycleRowWithoutSubmits(t *testing.T) {
	r := cycleRow("daily cycle", []float64{0, 0, 0}, []float64{1, 2, 0}, dayLabel)
	if r.Verdict != NA || r.Note != "no submit times" || r.Reference != "" || r.Candidate != "peak 01-02h" || r.N != [2]int{0, 3} {
		t.Errorf("%+v", r)
	}
	r = cycleRow("weekly cycle", []float64{0, 1}, []float64{0, 0}, weekLabel)
	if r.Verdict != NA || r.Reference != "peak Tue" || r.Candidate != "" {
		t.Errorf("%+v", r)
	}
	r = cycleRow("weekly cycle", []float64{1, 3}, []float64{3, 1}, weekLabel)
	if r.Verdict == NA || r.Note != "" || !(math.Abs(r.Distance-0.5) <= 1e-12) {
		t.Errorf("%+v: want a verdict, total variation 0.5", r)
	}
}
