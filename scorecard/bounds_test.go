package scorecard_test

import (
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/locality"
	"github.com/hpcwl/hpcwl/scorecard"
	"github.com/hpcwl/hpcwl/trace"
)

// TestLoadBounds checks the bounds of the offered load on a case worked by
// hand: weeks {1, 3} and {2, 4}: variances 2, standard error sqrt(2),
// Welch's 2 degrees of freedom (t = 4.3027), and 1.96 sqrt(2).
func TestLoadBounds(t *testing.T) {
	closeB, farB := scorecard.LoadBounds([]float64{1, 3}, []float64{2, 4})
	if want := 4.302653 * math.Sqrt(2); !(math.Abs(closeB-want) <= 1e-5) {
		t.Errorf("close bound %v, want %v", closeB, want)
	}
	if want := 1.959964 * math.Sqrt(2); !(math.Abs(farB-want) <= 1e-5) {
		t.Errorf("far bound %v, want %v", farB, want)
	}
	// Identical constant weeks: no sampling error, any difference is
	// beyond the close bound.
	if closeB, farB := scorecard.LoadBounds([]float64{0.5, 0.5, 0.5}, []float64{0.5, 0.5}); closeB != 0 || farB != 0 {
		t.Errorf("constant weeks: bounds %v, %v; want 0, 0", closeB, farB)
	}
}

// TestWeeklyLoads checks the weekly offered load on a small log: one
// 100-processor machine, a job of 50 processors for one week in week 0 and
// none in week 1; the third, incomplete week is left out.
func TestWeeklyLoads(t *testing.T) {
	const week = 7 * 86400
	tr := &trace.Trace{Name: "w", Procs: 100, Jobs: []trace.Job{
		{ID: 1, Submit: 0, Runtime: week, Procs: 50, ReqProcs: 50, User: 1, Wait: 0, ReqTime: week, Status: 1},
		{ID: 2, Submit: 2*week + 10, Runtime: 1, Procs: 1, ReqProcs: 1, User: 1, Wait: 0, ReqTime: 1, Status: 1},
	}}
	got := scorecard.WeeklyLoads(tr)
	if len(got) != 2 || got[0] != 0.5 || got[1] != 0 {
		t.Errorf("weekly loads %v, want [0.5 0]", got)
	}
	tr.Procs = 0
	if got := scorecard.WeeklyLoads(tr); got != nil {
		t.Errorf("without a machine size: %v, want nil", got)
	}
}

// TestHurstNull checks that the spread of H over shuffles is reproducible
// from its seed and that shuffled arrivals lose the log's self-similarity.
func TestHurstNull(t *testing.T) {
	k := loadKTH(t)
	x := locality.Arrivals(k, 3600)
	m1, s1 := scorecard.HurstNull(x, 10, 7)
	m2, s2 := scorecard.HurstNull(x, 10, 7)
	if m1 != m2 || s1 != s2 {
		t.Errorf("the same seed gave %v±%v and %v±%v", m1, s1, m2, s2)
	}
	h := locality.HurstSeries(x, locality.HurstOptions{}).H
	if !(m1 < h-0.1) || !(s1 > 0 && s1 < 0.05) {
		t.Errorf("shuffled H %v ± %v against the log's %v: want clearly below, with a small spread", m1, s1, h)
	}
}
