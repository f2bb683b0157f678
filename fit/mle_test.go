package fit

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/hpcwl/hpcwl/dist"
)

func TestClosedFormErrors(t *testing.T) {
	constant := []float64{5, 5, 5, 5}
	tests := []struct {
		name string
		run  func() error
		want error
	}{
		{"exponential of zeros", func() error { _, _, err := Exponential([]float64{0, 0}, nil); return err }, ErrDomain},
		{"gamma with zero weights", func() error { _, _, err := Gamma([]float64{1, 2, 3}, []float64{0, 0, 0}); return err }, ErrTooFew},
		{"lognormal of a constant", func() error { _, _, err := LogNormal(constant, nil); return err }, ErrDomain},
		{"weibull of a constant", func() error { _, _, err := Weibull(constant, nil); return err }, ErrDomain},
		{"log-logistic of a constant", func() error { _, _, err := LogLogistic(constant, nil, nil); return err }, ErrDomain},
		{"gpd of a constant", func() error { _, _, err := GeneralizedPareto(constant, nil, 0, nil); return err }, ErrDomain},
		{"gpd below its location", func() error { _, _, err := GeneralizedPareto([]float64{1, 2, 3}, nil, 1.5, nil); return err }, ErrDomain},
		{"zipf of ones", func() error { _, _, err := Zipf([]float64{1, 1, 1}, 5); return err }, ErrDomain},
		{"zipf above its maximum", func() error { _, _, err := Zipf([]float64{1, 6}, 5); return err }, ErrDomain},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.run(); !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
		})
	}
}

// TestExponentialWithZeros: zeros are values of an exponential; {0, 2, 4}
// has mean 2, so rate 1/2 and ln L = 3 ln(1/2) − 6/2.
func TestExponentialWithZeros(t *testing.T) {
	d, r, err := Exponential([]float64{0, 2, 4}, nil)
	if want := 3*math.Log(0.5) - 3; err != nil || d.Rate != 0.5 || !(math.Abs(r.LogLikelihood-want) <= 1e-12) {
		t.Errorf("rate %v, log-likelihood %v (%v), want 0.5, %v", d.Rate, r.LogLikelihood, err, want)
	}
}

// TestGeneralizedParetoLocation: shifting the values and the location by the
// same amount gives the same scale and shape (300 values, seed 26, of the
// GPD of scale 50 and shape 0.25), and a value at the location itself is in
// the support.
func TestGeneralizedParetoLocation(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 1))
	p := distuv.Pareto{Xm: 1, Alpha: 4, Src: r}
	x := append(sample(299, func() float64 { return 50 * (p.Rand() - 1) / 0.25 }), 0)
	d0, _, err0 := GeneralizedPareto(x, nil, 0, nil)
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = v + 1000
	}
	d1, _, err1 := GeneralizedPareto(y, nil, 1000, nil)
	if err0 != nil || err1 != nil {
		t.Fatal(err0, err1)
	}
	// Both optimisations stop within about 1e-6 of the same optimum.
	if !(math.Abs(d0.Sigma-d1.Sigma) <= 1e-5*d0.Sigma) || !(math.Abs(d0.Xi-d1.Xi) <= 1e-5) || d1.Mu != 1000 {
		t.Errorf("location 0: %+v; location 1000: %+v", d0, d1)
	}
}

// TestGeneralizedParetoLocationExact: with whole-number values and a shift
// of 1024, every excess x - μ is the same number at both locations, so the
// whole fit (its start, every step of the search, the log-likelihood) must be
// the same bit for bit, iterations included.
func TestGeneralizedParetoLocationExact(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 1))
	p := distuv.Pareto{Xm: 1, Alpha: 4, Src: r}
	x := sample(200, func() float64 { return math.Round(50 * (p.Rand() - 1) / 0.25) })
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = v + 1024
	}
	d0, r0, err0 := GeneralizedPareto(x, nil, 0, nil)
	d1, r1, err1 := GeneralizedPareto(y, nil, 1024, nil)
	if err0 != nil || err1 != nil {
		t.Fatal(err0, err1)
	}
	if d0.Sigma != d1.Sigma || d0.Xi != d1.Xi || r0.Iterations != r1.Iterations || r0.LogLikelihood != r1.LogLikelihood {
		t.Errorf("location 0: %+v, %d iterations, ℓ %v; location 1024: %+v, %d iterations, ℓ %v",
			d0, r0.Iterations, r0.LogLikelihood, d1, r1.Iterations, r1.LogLikelihood)
	}
}

// TestZipfByHand: for {1, 1, 2} truncated at 2, ℓ(α) = −α ln 2 − 3 ln(1 +
// 2^−α) is largest where 3 · 2^−α = 1 + 2^−α, α = 1, with ℓ = −ln 2 − 3
// ln 1.5. The zeta fit (no maximum) reports Σ ln P(x_i) at its estimate,
// which is a maximum of it.
func TestZipfByHand(t *testing.T) {
	x := []float64{1, 1, 2}
	d, r, err := Zipf(x, 2)
	if want := -math.Ln2 - 3*math.Log(1.5); err != nil || !(math.Abs(d.Alpha-1) <= 1e-7) || !(math.Abs(r.LogLikelihood-want) <= 1e-12) {
		t.Errorf("alpha %v, log-likelihood %v (%v), want 1, %v", d.Alpha, r.LogLikelihood, err, want)
	}
	z, r, err := Zipf(x, 0)
	if err != nil {
		t.Fatal(err)
	}
	ll := func(a float64) float64 { return sumLog(x, dist.Zipf{Alpha: a}.LogProb) }
	if !(math.Abs(r.LogLikelihood-ll(z.Alpha)) <= 1e-12*math.Abs(ll(z.Alpha))) || ll(z.Alpha+1e-3) > ll(z.Alpha) || ll(z.Alpha-1e-3) > ll(z.Alpha) {
		t.Errorf("zeta fit alpha %v, log-likelihood %v, want a maximum of %v", z.Alpha, r.LogLikelihood, ll(z.Alpha))
	}
}

// TestTrigamma checks ψ′ against closed forms: ψ′(1/2) = π²/2, ψ′(1) = π²/6
// and ψ′(n) = π²/6 − Σ_{k<n} 1/k² at 6 (where the series takes over) and
// 20. The series' first neglected term, 5/(66 x¹¹), is 2e-10 at 6, 1.2e-9
// of ψ′(6).
func TestTrigamma(t *testing.T) {
	harmonic2 := func(n int) float64 {
		s := 0.0
		for k := 1; k < n; k++ {
			s += 1 / float64(k*k)
		}
		return s
	}
	for _, c := range []struct{ x, want float64 }{
		{0.5, math.Pi * math.Pi / 2}, {1, math.Pi * math.Pi / 6},
		{6, math.Pi*math.Pi/6 - harmonic2(6)}, {20, math.Pi*math.Pi/6 - harmonic2(20)},
	} {
		if got := trigamma(c.x); !(math.Abs(got-c.want) <= 2e-9*c.want) {
			t.Errorf("trigamma(%v) = %.12g, want %.12g", c.x, got, c.want)
		}
	}
}

// TestGammaNewtonSteps: the closed-form start α0 is within a few percent of
// the root of ln α − ψ(α) = s, and Newton's method squares the relative
// error at each step (1e-2, 1e-4, 1e-8, 1e-16), so it stops, its step below
// 1e-12 α, after at most 4 iterations, for shapes from 0.05 to 1000 (1,000
// values each, seed 27).
func TestGammaNewtonSteps(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 1))
	for _, a := range []float64{0.05, 0.3, 1, 2.5, 50, 1000} {
		x := sample(1000, distuv.Gamma{Alpha: a, Beta: 1, Src: r}.Rand)
		d, res, err := Gamma(x, nil)
		// The shape's standard error is below 5 % at n = 1,000 for these
		// shapes; 4 of them is 0.2.
		if err != nil || res.Iterations < 1 || res.Iterations > 4 || !(math.Abs(d.Alpha-a) <= 0.2*a) {
			t.Errorf("shape %v: fit %v after %d iterations (%v)", a, d.Alpha, res.Iterations, err)
		}
	}
}

// TestGeneralizedParetoBounded fits uniform excesses, a generalized Pareto
// with ξ = −1 and σ the upper end. Below ξ = −1 the likelihood has no
// maximum (it grows without bound as σ/|ξ| nears the largest excess), and
// this sample's moment start is ξ0 = −1.27, below it: the fit must stop at
// ξ = −1 (within 0.01) with σ at the largest excess (within 0.1 %) and a
// finite log-likelihood, which is then −n ln σ plus a term that vanishes
// with ξ + 1 (within 1).
func TestGeneralizedParetoBounded(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x := sample(200, r.Float64)
	hi := 0.0
	for _, v := range x {
		hi = math.Max(hi, v)
	}
	d, res, err := GeneralizedPareto(x, nil, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Xi < -1 || !(d.Xi <= -0.99) || !(math.Abs(d.Sigma/hi-1) <= 1e-3) {
		t.Errorf("ξ %v σ %v, want ξ in [-1, -0.99] and σ %v", d.Xi, d.Sigma, hi)
	}
	if want := -200 * math.Log(d.Sigma); !(math.Abs(res.LogLikelihood-want) <= 1) {
		t.Errorf("log-likelihood %v, want about %v", res.LogLikelihood, want)
	}
}

// TestGeneralizedParetoOutlier fits uniform excesses on [0, 1) and one at
// 3. The moments start at ξ0 = −0.86 and σ0 = 1.04, an upper end σ0/|ξ0|
// of 1.2, below the outlier: the likelihood is 0 there and at every point
// near it, and a search from it cannot move. The start is raised to an
// upper end just past the largest excess; the fit (ξ = −0.18, σ = 0.64
// here) must then hold every value in its support, with a finite
// log-likelihood.
func TestGeneralizedParetoOutlier(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x := append(sample(199, r.Float64), 3)
	d, res, err := GeneralizedPareto(x, nil, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Xi < 0 && !(d.Sigma/-d.Xi >= 3) {
		t.Errorf("ξ %v σ %v: upper end %v below the largest value 3", d.Xi, d.Sigma, d.Sigma/-d.Xi)
	}
	if !(res.LogLikelihood > -1e6) || math.IsInf(res.LogLikelihood, 0) {
		t.Errorf("log-likelihood %v", res.LogLikelihood)
	}
}

// TestGPDStart works the start of the generalized Pareto search by hand.
// m = 2, v = 8: m²/v = 1/2, ξ0 = 1/4, σ0 = 3/2 (a heavy tail: unchanged).
// m = 1, v = 0.5: m²/v = 2, ξ0 = −1/2, σ0 = 3/2, an upper end of 3; with a
// largest value of 2 it stays, with 4 σ0 becomes 1.01 · 0.5 · 4 = 2.02.
// m = 1, v = 0.2: m²/v = 5, ξ0 = −2 is raised to −0.9 and σ0 = 3 kept
// (3/0.9 > 3.3); with a largest value of 10, σ0 = 1.01 · 0.9 · 10 = 9.09.
func TestGPDStart(t *testing.T) {
	for _, tc := range []struct {
		m, v, hi  float64
		sigma, xi float64
	}{
		{2, 8, 100, 1.5, 0.25},
		{1, 0.5, 2, 1.5, -0.5},
		{1, 0.5, 4, 2.02, -0.5},
		{1, 0.2, 3.3, 3, -0.9},
		{1, 0.2, 10, 9.09, -0.9},
	} {
		sigma, xi := gpdStart(tc.m, tc.v, tc.hi)
		if !(math.Abs(sigma-tc.sigma) <= 1e-12) || !(math.Abs(xi-tc.xi) <= 1e-12) {
			t.Errorf("gpdStart(%v, %v, %v) = %v, %v; want %v, %v", tc.m, tc.v, tc.hi, sigma, xi, tc.sigma, tc.xi)
		}
	}
}
