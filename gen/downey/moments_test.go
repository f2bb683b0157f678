package downey_test

import (
	"math"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/gen/downey"
)

// TestMoments checks the moments of the runtime and size models against
// sums worked out independently: E[t²] by integrating t² β1/t over
// [t_min, t_max] numerically (on a log scale, where the density is flat;
// the midpoint rule's relative error with 10^6 steps is about 2e-11, and
// t_min² is 4e-9 of t_max², so the tolerance 1e-9 tells them apart),
// and E[n], E[n²] on a machine of 4 processors from the four masses
// P(n) = ln(min(n+½, 4) / max(n-½, 1)) / ln 4.
func TestMoments(t *testing.T) {
	lo, hi := math.Log(downey.MinRuntime()), math.Log(downey.MaxRuntime())
	const steps = 1000000
	var e2 float64
	for i := range steps {
		u := lo + (float64(i)+0.5)*(hi-lo)/steps
		e2 += math.Exp(2*u) * downey.Slope * (hi - lo) / steps
	}
	if got := downey.RuntimeSecondMoment(); !(math.Abs(got-e2) <= 1e-9*e2) {
		t.Errorf("E[t²] = %g, integral %g", got, e2)
	}
	ln4 := math.Log(4)
	p := []float64{math.Log(1.5) / ln4, math.Log(2.5/1.5) / ln4, math.Log(3.5/2.5) / ln4, math.Log(4/3.5) / ln4}
	mean := p[0] + 2*p[1] + 3*p[2] + 4*p[3]
	second := p[0] + 4*p[1] + 9*p[2] + 16*p[3]
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"E[n], 4 processors", downey.MeanSize(4), mean},
		{"E[n²], 4 processors", downey.SizeSecondMoment(4), second},
		{"E[n], 1 processor", downey.MeanSize(1), 1},
		{"E[n²], 1 processor", downey.SizeSecondMoment(1), 1},
	} {
		if !(math.Abs(c.got-c.want) <= 1e-12) { // NaN fails
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if !(math.Abs(mean-2.142877241) <= 1e-9) || !(math.Abs(second-5.491993784) <= 1e-9) {
		t.Errorf("by hand: E[n] %v, E[n²] %v", mean, second)
	}
}

// TestConfigEdges: zero counts, durations and sizes mean the defaults and
// are accepted; a duration alone stops generation without a job count.
func TestConfigEdges(t *testing.T) {
	for _, cfg := range []downey.Config{{}, {Duration: 3600}, {Jobs: 3}, {Procs: 1}, {Load: 0}} {
		if _, err := downey.New(cfg); err != nil {
			t.Errorf("%+v: %v", cfg, err)
		}
	}
	// SDSC's rate is 24906 jobs a year, 0.00079 per second: an hour
	// holds 2.8 jobs on average (at seed 1 some, and fewer than 20), all
	// submitted within it.
	jobs := generate(t, downey.Config{Duration: 3600, Seed: 1})
	if len(jobs) == 0 || len(jobs) > 20 {
		t.Fatalf("%d jobs in an hour at 0.00079 per second", len(jobs))
	}
	for _, j := range jobs {
		if j.Submit > 3600 {
			t.Errorf("job submitted at %d s, after the duration", j.Submit)
		}
	}
}

// TestFitEdges: the smallest samples and trims the fit accepts, worked by
// hand. Runtimes 1, 10 and 100 s have empirical CDFs 1/3, 2/3 and 1, on a
// line of slope (1/3) / ln 10 through 1/3 at ln t = 0; 1, 10, 10 leave two
// points (1/3 at 0, 1 at ln 10). A 0 s runtime outside the trimmed range
// is counted but not fitted; inside it is refused with a hint.
func TestFitEdges(t *testing.T) {
	ln10 := math.Log(10)
	for _, c := range []struct {
		name        string
		rt          []float64
		trim        float64
		used        int
		slope, icpt float64
	}{
		{"three runtimes", []float64{100, 1, 10}, 0, 3, 1 / (3 * ln10), 1.0 / 3},
		{"two distinct", []float64{10, 1, 10}, 0, 2, 2 / (3 * ln10), 1.0 / 3},
		// Ten runtimes, trim 0.1: the 0 s and the largest are left out;
		// the CDFs 0.2 .. 0.9 of 1, 10, ..., 10^7 s lie on 0.2 + 0.1 log10 t.
		{"a zero trimmed away", []float64{0, 1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e9}, 0.1, 8, 0.1 / ln10, 0.2},
	} {
		f, err := downey.FitLifetimes(c.rt, c.trim)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if f.Used != c.used || f.Jobs != len(c.rt) || !(math.Abs(f.Slope-c.slope) <= 1e-12) || !(math.Abs(f.Intercept-c.icpt) <= 1e-12) {
			t.Errorf("%s: %+v, want %d points, slope %v, intercept %v", c.name, f, c.used, c.slope, c.icpt)
		}
	}
	_, err := downey.FitLifetimes([]float64{0, 1, 10, 100}, 0)
	if err == nil || !strings.Contains(err.Error(), "raise the trim") {
		t.Errorf("a 0 s runtime in the fitted range: %v", err)
	}
	// t_min and t_max of a fit: exp(-β0/β1) and exp((1-β0)/β1).
	f := downey.Fit{Intercept: -0.2, Slope: 0.1}
	if !(math.Abs(f.MinRuntime()-math.Exp(2)) <= 1e-9) || !(math.Abs(f.MaxRuntime()-math.Exp(12)) <= 1e-6) {
		t.Errorf("fit t_min %v, t_max %v; want e² and e¹²", f.MinRuntime(), f.MaxRuntime())
	}
}

// TestDurationIncludesItsEnd: a job submitted exactly at the duration is
// generated; the first after it is not.
func TestDurationIncludesItsEnd(t *testing.T) {
	all := generate(t, downey.Config{Jobs: 50, Seed: 4})
	d := all[20].Submit
	if all[21].Submit == d {
		t.Skip("two jobs in the same second at this seed")
	}
	got := generate(t, downey.Config{Duration: d, Seed: 4})
	if len(got) != 21 || got[20] != all[20] {
		t.Errorf("duration %d s: %d jobs, want the 21 submitted up to it", d, len(got))
	}
}

// TestHeaderArrivals: the header says how the arrival rate was chosen.
func TestHeaderArrivals(t *testing.T) {
	for _, c := range []struct {
		cfg  downey.Config
		want string
	}{
		{downey.Config{Jobs: 1}, "Arrivals: Poisson at the SDSC Paragon's 1995 rate (24906 jobs in 1995, 68.2356 jobs/day)"},
		{downey.Config{Jobs: 1, Load: 0.7}, "calibrated to offered load 0.7"},
	} {
		g, err := downey.New(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		h := g.Header(1)
		if notes := strings.Join(h.Notes(), "\n"); !strings.Contains(notes, c.want) {
			t.Errorf("%+v: notes\n%s\nwant %q", c.cfg, notes, c.want)
		}
	}
}
