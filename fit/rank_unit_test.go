package fit

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestChiSquareBins(t *testing.T) {
	// 2 n^0.4, rounded, between 5 and 100: 2 · 1000^0.4 = 31.7.
	for n, want := range map[int]int{1: 5, 10: 5, 1000: 32, 100000: 100} {
		if got := ChiSquareBins(n); got != want {
			t.Errorf("ChiSquareBins(%d) = %d, want %d", n, got, want)
		}
	}
}

// TestCachedCDF: the cache evaluates the CDF once per distinct value, gives
// the CDF's own values there, and asks the CDF for values outside the
// sample.
func TestCachedCDF(t *testing.T) {
	calls := 0
	cdf := func(v float64) float64 { calls++; return v / 10 }
	f := cachedCDF([]float64{1, 1, 2, 5, 5, 5}, cdf)
	if calls != 3 {
		t.Errorf("%d CDF evaluations for 3 distinct values", calls)
	}
	for _, v := range []float64{1, 2, 5, 0.5, 3, 7} {
		if got := f(v); got != v/10 {
			t.Errorf("cached CDF(%v) = %v, want %v", v, got, v/10)
		}
	}
	if calls != 6 {
		t.Errorf("%d CDF evaluations, want 3 more for the values outside the sample", calls)
	}
}

func TestRankEmpty(t *testing.T) {
	cs, err := Rank(nil, []string{"exponential", "gamma"}, nil)
	if err != nil || len(cs) != 2 {
		t.Fatalf("%d candidates, %v", len(cs), err)
	}
	for _, c := range cs {
		if !errors.Is(c.Err, ErrTooFew) || c.Degenerate != "" {
			t.Errorf("%s: error %v, degenerate %q", c.Name, c.Err, c.Degenerate)
		}
	}
}

// TestDegenerateThresholds builds candidates by hand at the thresholds: a
// generalized Pareto of shape exactly −1 is degenerate, a hyper-gamma part
// of shape exactly CollapsedShape is not, one of shape 1e6 is (coefficient
// of variation 100/√1e6 = 0.1 %).
func TestDegenerateThresholds(t *testing.T) {
	regular := Result{LogLikelihood: -10, N: 20, NumParameters: 2}
	tests := []struct {
		name   string
		params map[string]float64
		want   string
	}{
		{"gpd", map[string]float64{"shape": -1}, "shape -1 at its bound -1"},
		{"gpd", map[string]float64{"shape": -0.999}, "shape -0.999 at its bound"},
		{"gpd", map[string]float64{"shape": -0.9989}, ""},
		{"gpd", map[string]float64{"shape": -1.5}, "below it the likelihood is unbounded"},
		{"hypergamma", map[string]float64{"shape1": 3, "shape2": CollapsedShape}, ""},
		{"hypergamma", map[string]float64{"shape1": 1e6, "shape2": 3}, "coefficient of variation 0.1%"},
	}
	for _, tc := range tests {
		c := Candidate{Name: tc.name, Params: tc.params, Result: regular, AIC: regular.AIC(), BIC: regular.BIC()}
		got := degenerate(&c)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s %v: %q, want %q", tc.name, tc.params, got, tc.want)
		}
	}
}

// TestResultCriteria: AIC = 2k − 2 ln L, BIC = k ln n − 2 ln L, and the
// weighted exponential of {1, 3} with weights {1, 3}: mean 10/4, rate 0.4,
// N the weight total 4, ln L = Σ w (ln 0.4 − 0.4 x) = 4 ln 0.4 − 4.
func TestResultCriteria(t *testing.T) {
	r := Result{LogLikelihood: -10, N: 100, NumParameters: 2}
	if r.AIC() != 24 || !(math.Abs(r.BIC()-(2*math.Log(100)+20)) <= 1e-12) {
		t.Errorf("AIC %v, BIC %v", r.AIC(), r.BIC())
	}
	d, res, err := Exponential([]float64{1, 3, 7}, []float64{1, 3, 0})
	if err != nil || !(math.Abs(d.Rate-0.4) <= 1e-15) || res.N != 4 || !(math.Abs(res.LogLikelihood-(4*math.Log(0.4)-4)) <= 1e-12) {
		t.Errorf("rate %v, %+v, %v", d.Rate, res, err)
	}
}

// TestZeroSettingsAreDefaults: a Settings of zeros means the defaults
// (1000 iterations, tolerance 1e-10), like a nil one.
func TestZeroSettingsAreDefaults(t *testing.T) {
	x := twoNormals()
	_, r0, err0 := GaussianMixture(x, 2, Unequal, nil)
	_, r1, err1 := GaussianMixture(x, 2, Unequal, &Settings{})
	if err0 != nil || err1 != nil || r0 != r1 {
		t.Errorf("nil settings: %+v %v; zero settings: %+v %v", r0, err0, r1, err1)
	}
}

func TestUniqueCountsAndKS(t *testing.T) {
	u, cum := uniqueCounts([]float64{1, 1, 2, 3, 3, 3})
	if len(u) != 3 || u[0] != 1 || u[1] != 2 || u[2] != 3 || cum[0] != 2 || cum[1] != 3 || cum[2] != 6 {
		t.Errorf("uniqueCounts: %v %v, want [1 2 3] [2 3 6]", u, cum)
	}
	// Against the uniform CDF on [0, 6] the empirical CDF jumps to 2/6 at 1
	// (F = 1/6), 3/6 at 2 (F = 2/6) and 1 at 3 (F = 3/6): D = 1/2.
	if d := ksUnique(u, cum, 6, func(v float64) float64 { return v / 6 }); !(math.Abs(d-0.5) <= 1e-15) {
		t.Errorf("KS distance %v, want 0.5", d)
	}
}

// TestTwoStageUniformBounds: a fixed Low or High may equal the sample's
// minimum or maximum; estimated ones lie outside the sample (l <= min,
// h >= max); a constant sample has no fit.
func TestTwoStageUniformBounds(t *testing.T) {
	x := []float64{1, 1.5, 2, 2.5, 3, 4, 5, 7}
	d, _, _, err := TwoStageUniform(x, TwoStageUniformOptions{Low: 1, High: math.NaN()}, nil)
	if err != nil || d.Low != 1 || d.High < 7 {
		t.Errorf("Low fixed at the minimum: %+v, %v", d, err)
	}
	d, _, _, err = TwoStageUniform(x, TwoStageUniformOptions{Low: math.NaN(), High: 7}, nil)
	if err != nil || d.High != 7 || d.Low > 1 {
		t.Errorf("High fixed at the maximum: %+v, %v", d, err)
	}
	if _, _, _, err := TwoStageUniform([]float64{2, 2, 2, 2}, FreeTSU(), nil); !errors.Is(err, ErrDomain) {
		t.Errorf("constant sample: %v", err)
	}
}

// TestRankReportsFittedParameters: the parameters a ranking reports are
// those of the fitted laws. For the gamma MLE, shape · scale equals the
// sample mean exactly (its first-order condition), so a scale reported as
// the rate would show; the hyper-exponential reports its weight and rates.
func TestRankReportsFittedParameters(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	x := make([]float64, 400)
	sum := 0.0
	for i := range x {
		x[i] = 50 + 100*r.ExpFloat64()
		sum += x[i]
	}
	cands, err := Rank(x, []string{"gamma", "hyperexponential"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cands {
		switch c.Name {
		case "gamma":
			if m := c.Params["shape"] * c.Params["scale"]; !(math.Abs(m-sum/400) <= 1e-6*sum/400) {
				t.Errorf("gamma: shape %v × scale %v = %v, sample mean %v", c.Params["shape"], c.Params["scale"], m, sum/400)
			}
		case "hyperexponential":
			if c.Err == nil && (c.Params == nil || !(c.Params["rate1"] > 0) || !(c.Params["rate2"] > 0)) {
				t.Errorf("hyperexponential parameters %v", c.Params)
			}
		}
	}
}

// TestStatusText: each status reads back from the name it writes; an
// unknown name is an error.
func TestStatusText(t *testing.T) {
	for _, s := range []Status{Converged, IterationLimit, Failure} {
		b, err := s.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Status
		if err := back.UnmarshalText(b); err != nil || back != s {
			t.Errorf("%q read back as %v, %v", b, back, err)
		}
	}
	var s Status
	if err := s.UnmarshalText([]byte("done")); err == nil {
		t.Error("unknown status accepted")
	}
}

// TestEquiprobableChiSquareTop: a value where the model's CDF is exactly 1
// falls in the last bin. Five values at F = 0, 1/4, 1/2, 3/4 and 1 in five
// bins of probability 1/5 put one value in each bin: the statistic is 0.
func TestEquiprobableChiSquareTop(t *testing.T) {
	got := equiprobableChiSquare([]float64{0, 0.25, 0.5, 0.75, 1}, func(v float64) float64 { return v }, 0)
	if got.Stat != 0 || got.DF != 4 {
		t.Errorf("statistic %v, %d degrees of freedom; want 0, 4", got.Stat, got.DF)
	}
}
