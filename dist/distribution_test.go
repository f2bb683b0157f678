package dist

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat"
)

// quantiler is the minimal interface of checkQuantileCDF.
type quantiler interface {
	CDF(float64) float64
	Quantile(float64) float64
}

// checkQuantileCDF checks CDF(Quantile(p)) == p for continuous distributions
// within tol (the bisection of the mixtures stops at 1e-12 relative width,
// so 1e-8 is ample).
func checkQuantileCDF(t *testing.T, name string, d quantiler, tol float64) {
	t.Helper()
	for _, p := range []float64{0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999} {
		x := d.Quantile(p)
		if got := d.CDF(x); !(math.Abs(got-p) <= tol) {
			t.Errorf("%s: CDF(Quantile(%v)) = %v", name, p, got)
		}
	}
}

// prober is the minimal interface of checkProbIntegrates.
type prober interface {
	Prob(float64) float64
	LogProb(float64) float64
	CDF(float64) float64
}

// checkProbIntegrates checks that the density integrates to the CDF
// difference over [lo, hi] (Gauss-Legendre with many points; tol covers the
// quadrature error on kinks such as the two-stage uniform's), and that
// LogProb agrees with log(Prob).
func checkProbIntegrates(t *testing.T, name string, d prober, lo, hi, tol float64) {
	t.Helper()
	got := quad.Fixed(d.Prob, lo, hi, 2000, nil, 0)
	want := d.CDF(hi) - d.CDF(lo)
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s: ∫Prob over [%v, %v] = %v, CDF difference %v", name, lo, hi, got, want)
	}
	for _, x := range []float64{lo + 0.37*(hi-lo), lo + 0.61*(hi-lo)} {
		if p, lp := d.Prob(x), d.LogProb(x); p > 0 && !(math.Abs(math.Log(p)-lp) <= 1e-9) {
			t.Errorf("%s: LogProb(%v) = %v, log(Prob) = %v", name, x, lp, math.Log(p))
		}
	}
}

// sampler is the minimal interface of checkMean.
type sampler interface {
	Rand() float64
	Mean() float64
	Variance() float64
}

// checkMean draws n samples and checks the sample mean against Mean within
// 4 standard errors (a 1-in-15,000 false alarm for a fixed seed that, once
// passing, stays passing) and the sample variance within 10 %.
func checkMean(t *testing.T, name string, d sampler, n int) {
	t.Helper()
	x := make([]float64, n)
	for i := range x {
		x[i] = d.Rand()
	}
	m, v := stat.MeanVariance(x, nil)
	se := math.Sqrt(d.Variance() / float64(n))
	if !(math.Abs(m-d.Mean()) <= 4*se) {
		t.Errorf("%s: sample mean %v, Mean %v (4 s.e. = %v)", name, m, d.Mean(), 4*se)
	}
	if !(math.Abs(v-d.Variance()) <= 0.1*d.Variance()) {
		t.Errorf("%s: sample variance %v, Variance %v", name, v, d.Variance())
	}
}

func TestContinuousProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	cases := []struct {
		name   string
		d      Continuous
		lo, hi float64
	}{
		{"hypergamma-program", HyperGamma{Shape1: 4.2, Scale1: 0.94, Shape2: 312, Scale2: 0.03, P: 0.7, Src: r}, 0, 14},
		{"hypergamma-interactive", HyperGamma{Shape1: 3.8351, Scale1: 0.6605, Shape2: 7.073, Scale2: 0.6856, P: 0.9, Src: r}, 0, 12},
		{"tsu", TwoStageUniform{Low: 0.8, Med: 4.5, High: 7, P: 0.86, Src: r}, 0, 8},
		{"gmm", GaussianMixture{Weights: []float64{0.3, 0.7}, Means: []float64{-1, 3}, StdDevs: []float64{0.5, 1.5}, Src: r}, -6, 12},
		{"hyperexp", HyperExponential{Weights: []float64{0.8, 0.2}, Rates: []float64{1, 0.05}, Src: r}, 0, 400},
		{"hypererlang", HyperErlang{Weights: []float64{0.6, 0.4}, Orders: []int{2, 5}, Scales: []float64{1, 3}, Src: r}, 0, 60},
		{"loglogistic", LogLogistic{Alpha: 100, Beta: 3.5, Src: r}, 0, 1e5},
		{"gpd", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: 0.2, Src: r}, 1, 1e4},
		{"gpd-negative", GeneralizedPareto{Mu: 0, Sigma: 1, Xi: -0.3, Src: r}, 0, 1 / 0.3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkQuantileCDF(t, c.name, c.d, 1e-8)
			checkProbIntegrates(t, c.name, c.d, c.lo, c.hi, 2e-3)
			checkMean(t, c.name, c.d.(sampler), 100000)
		})
	}
}

func TestHyperGammaVarianceMatchesMixture(t *testing.T) {
	// §3.1: the mixture variance, not the program comment's p²-weighted one.
	h := HyperGamma{Shape1: 4.2, Scale1: 0.94, Shape2: 312, Scale2: 0.03, P: 0.5}
	m1, m2 := 4.2*0.94, 312*0.03
	v1, v2 := 4.2*0.94*0.94, 312*0.03*0.03
	want := 0.5*(v1+m1*m1) + 0.5*(v2+m2*m2) - math.Pow(0.5*m1+0.5*m2, 2)
	if got := h.Variance(); !(math.Abs(got-want) <= 1e-12) {
		t.Fatalf("Variance = %v, want %v", got, want)
	}
}

func TestHyperErlangKeepsMeans(t *testing.T) {
	h := HyperGamma{Shape1: 4.2, Scale1: 0.94, Shape2: 312.4, Scale2: 0.03, P: 0.7}
	e := h.HyperErlang()
	if e.Orders[0] != 4 || e.Orders[1] != 312 {
		t.Fatalf("orders %v", e.Orders)
	}
	if !(math.Abs(e.Mean()-h.Mean()) <= 1e-12) {
		t.Fatalf("mean %v, want %v", e.Mean(), h.Mean())
	}
}

func TestTwoStageUniformKnots(t *testing.T) {
	// §3.1: the CDF passes through (l, 0), (m, p), (h, 1).
	d := TwoStageUniform{Low: 0.8, Med: 4.5, High: 7, P: 0.86}
	for _, c := range [][2]float64{{0.8, 0}, {4.5, 0.86}, {7, 1}, {0, 0}, {9, 1}} {
		if got := d.CDF(c[0]); !(math.Abs(got-c[1]) <= 1e-15) {
			t.Errorf("CDF(%v) = %v, want %v", c[0], got, c[1])
		}
	}
	if got, want := d.Mean(), (0.86*0.8+4.5+0.14*7)/2; got != want {
		t.Errorf("Mean = %v, want %v", got, want)
	}
}

func TestZipf(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	cases := []struct {
		name string
		z    Zipf
	}{
		{"truncated", NewZipf(1.6, 200, r)},
		{"truncated-literal", Zipf{Alpha: 2.2, Max: 50, Src: r}},
		{"zeta", NewZipf(6, 0, r)}, // α > 5 so the sample variance has finite variance
		{"zeta-heavy", NewZipf(1.7, 0, r)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Probabilities sum to one (truncated: exactly; zeta: to 1e-3 over
			// the first 10^5 values, the tail mass beyond is ~ k^(1−α)).
			n := c.z.Max
			if n == 0 {
				n = 100000
			}
			s := 0.0
			for k := 1; k <= n; k++ {
				s += c.z.Prob(float64(k))
			}
			if !(math.Abs(s-1) <= 1e-3) {
				t.Errorf("Σ Prob = %v", s)
			}
			for _, p := range []float64{0.1, 0.5, 0.9, 0.99} {
				q := c.z.Quantile(p)
				if c.z.CDF(q) < p || (q > 1 && c.z.CDF(q-1) >= p) {
					t.Errorf("Quantile(%v) = %v is not the smallest k with CDF >= p", p, q)
				}
			}
			if c.z.Max > 0 || c.z.Alpha > 5 {
				checkMean(t, c.name, c.z, 200000)
			}
			if got := c.z.Prob(2.5); got != 0 {
				t.Errorf("Prob(2.5) = %v", got)
			}
		})
	}
}

func TestNilSrcPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Rand with nil Src did not panic")
		}
	}()
	HyperGamma{Shape1: 1, Scale1: 1, Shape2: 1, Scale2: 1, P: 0.5}.Rand()
}

func TestGaussianMixturePosterior(t *testing.T) {
	g := GaussianMixture{Weights: []float64{0.5, 0.5}, Means: []float64{0, 10}, StdDevs: []float64{1, 1}}
	z := g.Posterior(0, nil)
	if !(math.Abs(z[0]+z[1]-1) <= 1e-12) || z[0] < 0.999 {
		t.Fatalf("posterior %v", z)
	}
	if g.Classify(9) != 1 || g.Classify(-3) != 0 {
		t.Fatal("Classify")
	}
	if got := g.NumParameters(); got != 5 {
		t.Fatalf("NumParameters = %d", got)
	}
}

func BenchmarkHyperGammaRand(b *testing.B) {
	h := HyperGamma{Shape1: 4.2, Scale1: 0.94, Shape2: 312, Scale2: 0.03, P: 0.7, Src: rand.New(rand.NewPCG(1, 1))}
	b.ReportAllocs()
	for b.Loop() {
		h.Rand()
	}
}

func BenchmarkZipfRand(b *testing.B) {
	z := NewZipf(1.8, 1000, rand.New(rand.NewPCG(1, 1)))
	b.ReportAllocs()
	for b.Loop() {
		z.Rand()
	}
}
