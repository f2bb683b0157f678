package lublin

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/hpcwl/hpcwl/stats"
)

// TestFitRecoversGeneratorParams fits a generated log: the fit must give
// back the parameters it was generated with, within tolerances set by the
// sample size (100,000 jobs) — probabilities to 0.01, the runtime Gamma
// means to 3 %, the arrival Gamma mean to 2 %.
func TestFitRecoversGeneratorParams(t *testing.T) {
	l := generatedLog(t, 100000, 5)
	l.MachineProcs = 128
	got, rep, err := FitLog(l, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := WholeParams
	for _, c := range []struct {
		name           string
		got, want, tol float64
	}{
		{"serial_prob", got.SerialProb, w.SerialProb, 0.01},
		{"u_hi", got.UHi, w.UHi, 1e-9},
		{"mean1", got.A1 * got.B1, w.A1 * w.B1, 0.03 * w.A1 * w.B1},
		{"mean2", got.A2 * got.B2, w.A2 * w.B2, 0.03 * w.A2 * w.B2},
		{"pb", got.PB, w.PB, 0.05},
		// Peak-hour interarrivals of the model are the whole day's scaled by
		// the slot weights, so only the ln-mean is comparable.
		{"arrival ln-mean", got.AArr * got.BArr * got.ARAR, w.AArr * w.BArr * w.ARAR, 0.15 * w.AArr * w.BArr * w.ARAR},
		{"daily mean slot", got.ANum * got.BNum, w.ANum * w.BNum, 0.02 * w.ANum * w.BNum},
	} {
		if !(math.Abs(c.got-c.want) <= c.tol) {
			t.Errorf("%s = %.4g, want %.4g ± %.2g", c.name, c.got, c.want, c.tol)
		}
	}
	if rep.Runtimes.ModelD > 0.02 {
		t.Errorf("runtime model KS D = %v on its own output", rep.Runtimes.ModelD)
	}
	// The chi-square test with simulated expected counts accepts the
	// model on its own output (19 degrees of freedom).
	if c := rep.Runtimes.Chi2; c.DF != 19 || c.PValue < 0.001 {
		t.Errorf("runtime chi-square on the model's own output: %+v", c)
	}
}

func TestFitTooFewJobs(t *testing.T) {
	l := Log{Submit: []int64{1, 2, 3}, Runtime: []int64{5, 6, 7}, Procs: []int64{1, 2, 4}}
	_, _, err := FitLog(l, nil)
	if !errors.Is(err, ErrTooFewJobs) || !strings.Contains(err.Error(), "size model") {
		t.Fatalf("%v", err)
	}
}

// TestRefitKTH re-fits the KTH-SP2 log and compares with the paper's KTH
// rows (Tables 1, 2, 5, 6, 7). The archive's cleaned log (20,530 successful
// jobs) is not the paper's input (16,221 jobs), so only the quantities that
// are robust to that are asserted; docs/validation.md lists all of
// them with the differences explained.
func TestRefitKTH(t *testing.T) {
	l, _ := readLog(t, "KTH-SP2-1996-2.1-cln.swf.gz", nil)
	p, rep, err := FitLog(l, &FitOptions{Slots: PaperSlots})
	if err != nil {
		t.Fatal(err)
	}
	// Table 1: p2 = 0.60; h = log2 100 = 6.64.
	if !(math.Abs(rep.Sizes.P2-0.60) <= 0.02) || !(math.Abs(p.UHi-6.64) <= 0.01) {
		t.Errorf("sizes: p2 %.3f (paper 0.60), h %.3f (paper 6.64)", rep.Sizes.P2, p.UHi)
	}
	// Table 2: D_n = 0.081 for the hyper-Gamma; ours must fit at least as well.
	if rep.Runtimes.HGD > 0.081 {
		t.Errorf("runtime hyper-Gamma D = %.3f, paper 0.081", rep.Runtimes.HGD)
	}
	// Table 2 component means α1β1 = 4.72 and α2β2 = 7.98 (ln s): within 15 %.
	if m := p.A1 * p.B1; !(math.Abs(m-4.72) <= 0.15*4.72) {
		t.Errorf("lower runtime mean %.2f, paper 4.72", m)
	}
	// Section 3.3: on the full log the runtime model fails the formal
	// tests; the chi-square with simulated counts says so too.
	if c := rep.Runtimes.Chi2; c.PValue > 0.01 {
		t.Errorf("runtime chi-square on KTH: %+v, expected a rejection", c)
	}
	// Table 5: a < 0 (p falls with size) and D_n 0.058.
	if p.PA >= 0 || rep.Runtimes.ModelD > 0.058 {
		t.Errorf("linear weight: a = %.4f, D = %.3f", p.PA, rep.Runtimes.ModelD)
	}
	// Table 6: peak interarrival ln-mean αβ = 14.10 × 0.37 = 5.22 within 5 %.
	if m := p.AArr * p.BArr; !(math.Abs(m-5.22) <= 0.05*5.22) {
		t.Errorf("peak interarrival ln-mean %.2f, paper 5.22", m)
	}
	// Table 7: daily-cycle mean slot αβ = 12.00 × 2.55 = 30.6 within 2 %,
	// D_n 0.054.
	if m := p.ANum * p.BNum; !(math.Abs(m-30.6) <= 0.02*30.6) || rep.Arrivals.DailyD > 0.054 {
		t.Errorf("daily cycle mean %.2f (paper 30.6), D %.3f (paper 0.054)", m, rep.Arrivals.DailyD)
	}
}

// TestGeneratedVsKTH generates from parameters fitted to KTH (seed 1, as
// many jobs as the log's successful ones) and compares the two logs with
// two-sample KS; docs/validation.md reports the figures. The statistics are
// pinned within 1e-4: with about 27,000 jobs on each side the 5 % critical
// value is 1.36·√(2/n) ≈ 0.012, so D values of 0.05-0.15 measure the
// model's misfit, not noise, and any change of the fit or the generator
// moves them; 1e-4 (about three jobs) leaves room for the size fit, which
// differs between runs in the ninth digit.
func TestGeneratedVsKTH(t *testing.T) {
	l, real := readLog(t, "KTH-SP2-1996-2.1-cln.swf.gz", nil)
	p, _, err := FitLog(l, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, gen, err := Generate(Config{Params: Params{Mode: Whole, Whole: p}, Jobs: len(real), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rr, rn, ri := columns(real)
	gr, gn, gi := columns(gen)
	for _, c := range []struct {
		name string
		a, b []float64
		d    float64
	}{{"runtime", rr, gr, 0.050462737457379392}, {"size", rn, gn, 0.059912323429128111}, {"interarrival", ri, gi, 0.14740123727410009}} {
		ks := stats.KSTwoSample(c.a, c.b)
		t.Logf("KTH vs generated, %s: two-sample KS D = %.3f", c.name, ks.D)
		if !(math.Abs(ks.D-c.d) <= 1e-4) {
			t.Errorf("%s: D = %.17g, pinned %.17g", c.name, ks.D, c.d)
		}
	}
	// Hourly arrival profile: real log in local time, generated from midnight.
	var hr [24]float64
	for _, s := range l.Submit {
		hr[time.Unix(l.StartTime+s, 0).In(l.Location).Hour()] += 1 / float64(len(l.Submit))
	}
	hg := Summarize(gen, 100, 0).Hourly
	worst := 0.0
	for h := range hr {
		worst = math.Max(worst, math.Abs(hr[h]-hg[h]))
	}
	t.Logf("KTH vs generated, hourly arrival fractions: max |difference| = %.4f; 48-slot chi2 in FitReport", worst)
	if !(math.Abs(worst-0.020263029712617044) <= 1e-4) {
		t.Errorf("hourly profile differs by at most %.17g, pinned %.17g", worst, 0.020263029712617044)
	}
}

// generatedLog generates n jobs of the published whole-sample model with
// the given seed and returns their submit times, runtimes and sizes as a
// Log to fit.
func generatedLog(t *testing.T, n int, seed uint64) Log {
	t.Helper()
	_, jobs, err := Generate(Config{Params: DefaultParams(Whole), Jobs: n, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	var l Log
	for _, j := range jobs {
		l.Submit = append(l.Submit, j.Submit)
		l.Runtime = append(l.Runtime, j.Runtime)
		l.Procs = append(l.Procs, j.Procs)
	}
	return l
}
