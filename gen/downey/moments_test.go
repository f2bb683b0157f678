package downey_test

import (
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/gen/downey"
)

// TestMoments checks the moments of the runtime and size models against
// sums worked out independently: E[t²] by integrating t² β1/t over
// [t_min, t_max] numerically (on a log scale, where the density is flat),
// and E[n], E[n²] on a machine of 4 processors from the four masses
// P(n) = ln(min(n+½, 4) / max(n-½, 1)) / ln 4.
func TestMoments(t *testing.T) {
	lo, hi := math.Log(downey.MinRuntime()), math.Log(downey.MaxRuntime())
	const steps = 100000
	var e2 float64
	for i := range steps {
		u := lo + (float64(i)+0.5)*(hi-lo)/steps
		e2 += math.Exp(2*u) * downey.Slope * (hi - lo) / steps
	}
	if got := downey.RuntimeSecondMoment(); math.Abs(got-e2) > 1e-6*e2 {
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
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if math.Abs(mean-2.142877241) > 1e-9 || math.Abs(second-5.491993784) > 1e-9 {
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
