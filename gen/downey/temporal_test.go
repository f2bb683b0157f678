package downey_test

import (
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/gen/downey"
	"github.com/hpcwl/hpcwl/temporal"
	"github.com/hpcwl/hpcwl/trace"
)

// TestTemporalIndependence runs Talby's temporal tests (Tables 37-40) on
// 100,000 generated jobs, the DOW rows of docs/validation.md: jobs are
// independent and arrivals Poisson, so every autocorrelation must be 0 within
// 4 standard errors, 4/√pairs, where pairs is the expected number of lagged
// pairs of bins that both hold a value (all bins for the job counts; for the
// attributes, bins·p² with p = 1 - exp(-rate·width) the chance a bin holds a
// job), and every Hurst mean within 0.08 of 0.5 (the temporal package's own
// tolerance for a Poisson log).
func TestTemporalIndependence(t *testing.T) {
	g, err := downey.New(downey.Config{Jobs: 100000, Load: 0.7, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var tj []trace.Job
	for {
		j, ok := g.Next()
		if !ok {
			break
		}
		s := j.SWF(int64(len(tj) + 1))
		x, err := trace.FromSWF(&s)
		if err != nil {
			t.Fatal(err)
		}
		tj = append(tj, x)
	}
	rep, err := temporal.Analyze(trace.New(g.Header(len(tj)), tj, trace.Options{}), temporal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	perDay, _ := g.Expected()
	rate := perDay / 86400
	for _, r := range rep.Tests {
		bins := float64(rep.Bins[r.Bin] - r.Lag)
		p := 1 - math.Exp(-rate*float64(r.Bin))
		for s := temporal.Runtime; s <= temporal.Jobs; s++ {
			pairs := bins * p * p
			if s == temporal.Jobs {
				pairs = bins
			}
			if v, tol := r.ACF.Get(s), 4/math.Sqrt(pairs); !(math.Abs(v) <= tol) {
				t.Errorf("%s %ds lag %d, %v: ACF %.3f, beyond 4 SE (%.3f) of 0", r.Name, r.Bin, r.Lag, s, v, tol)
			}
		}
	}
	for s := temporal.Runtime; s <= temporal.Jobs; s++ {
		if h := rep.HurstMean(s); !(math.Abs(h-0.5) <= 0.08) {
			t.Errorf("H of %v = %.3f, want 0.5 ± 0.08", s, h)
		}
	}
}
