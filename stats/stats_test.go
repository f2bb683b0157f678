package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/dsp/fourier"
	"gonum.org/v1/gonum/stat/distuv"
)

func TestKSOneSample(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	n := distuv.Normal{Mu: 0, Sigma: 1, Src: r}
	x := make([]float64, 2000)
	for i := range x {
		x[i] = n.Rand()
	}
	// Right model: D below the 5 % critical value 1.36/√n (§3.3).
	good := KSOneSample(x, n.CDF)
	if good.D > 1.36/math.Sqrt(2000) || good.PValue < 0.05 {
		t.Errorf("right model rejected: %+v", good)
	}
	// Shifted model: rejected.
	bad := KSOneSample(x, distuv.Normal{Mu: 0.2, Sigma: 1}.CDF)
	if !bad.Reject(0.01) {
		t.Errorf("shifted model accepted: %+v", bad)
	}
}

func TestKSHandComputed(t *testing.T) {
	// Sample {0.1, 0.5, 0.5, 0.9} against U(0,1): ECDF steps 0.25 at 0.1,
	// 0.75 at 0.5, 1 at 0.9; D = max(0.25−0.1, 0.75−0.5, 0.5−0.25, 1−0.9,
	// 0.9−0.75, 0.1−0) = 0.25.
	got := KSOneSample([]float64{0.5, 0.1, 0.9, 0.5}, distuv.UnitUniform.CDF)
	if !(math.Abs(got.D-0.25) <= 1e-15) {
		t.Fatalf("D = %v, want 0.25", got.D)
	}
}

func TestKSTwoSample(t *testing.T) {
	if d := KSTwoSample([]float64{1, 2, 3}, []float64{4, 5}).D; d != 1 {
		t.Errorf("disjoint samples: D = %v", d)
	}
	if d := KSTwoSample([]float64{1, 2, 3}, []float64{3, 2, 1}).D; d != 0 {
		t.Errorf("equal samples: D = %v", d)
	}
	r := rand.New(rand.NewPCG(3, 3))
	a, b := make([]float64, 3000), make([]float64, 2000)
	for i := range a {
		a[i] = r.ExpFloat64()
	}
	for i := range b {
		b[i] = r.ExpFloat64()
	}
	// Under the null p is uniform; 0.01 keeps false alarms at 1 %.
	if res := KSTwoSample(a, b); res.PValue < 0.01 {
		t.Errorf("same distribution rejected: %+v", res)
	}
}

func TestKolmogorov(t *testing.T) {
	// Tabulated: Q(1.358) ≈ 0.05, Q(1.628) ≈ 0.01 (Kolmogorov distribution).
	for _, c := range [][2]float64{{1.3581, 0.05}, {1.6276, 0.01}, {1.2238, 0.10}} {
		if got := KolmogorovSurvival(c[0]); !(math.Abs(got-c[1]) <= 2e-4) {
			t.Errorf("Q(%v) = %v, want %v", c[0], got, c[1])
		}
	}
	// §3.3: large-n 95 % critical value ≈ 1.36/√n.
	if got, want := KSCritical(10000, 0.05), 1.358/100; !(math.Abs(got-want) <= 1e-4) {
		t.Errorf("KSCritical = %v, want %v", got, want)
	}
}

func TestSubsampleKS(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	x := make([]float64, 20000)
	for i := range x {
		x[i] = r.NormFloat64()*1.05 + 0.03 // slightly off model: full sample rejects
	}
	cdf := distuv.UnitNormal.CDF
	if !KSOneSample(x, cdf).Reject(0.05) {
		t.Fatal("full sample not rejected")
	}
	sub := SubsampleKS(x, cdf, 500, 50, 0.05, r)
	if sub.PassFraction < 0.8 {
		t.Errorf("sub-samples of 500 should mostly pass: %+v", sub)
	}
}

func TestAndersonDarling(t *testing.T) {
	// Asymptotic critical values of A² (Marsaglia & Marsaglia 2004):
	// 1.933 at 10 %, 2.492 at 5 %, 3.857 at 1 %.
	for _, c := range [][2]float64{{1.933, 0.90}, {2.492, 0.95}, {3.857, 0.99}} {
		if got := adInf(c[0]); !(math.Abs(got-c[1]) <= 1e-3) {
			t.Errorf("adinf(%v) = %v, want %v", c[0], got, c[1])
		}
	}
	r := rand.New(rand.NewPCG(5, 5))
	x := make([]float64, 1000)
	for i := range x {
		x[i] = r.ExpFloat64()
	}
	if res := AndersonDarling(x, distuv.Exponential{Rate: 1}.CDF); res.PValue < 0.05 {
		t.Errorf("right model rejected: %+v", res)
	}
	if res := AndersonDarling(x, distuv.Exponential{Rate: 1.2}.CDF); res.PValue > 0.01 {
		t.Errorf("wrong model accepted: %+v", res)
	}
}

func TestChiSquare(t *testing.T) {
	// Hand-computed: O = (10, 20, 30), E = (20, 20, 20): χ² = 5 + 0 + 5 = 10,
	// 2 df, p = e^{-5} = 0.006738.
	got := ChiSquare([]float64{10, 20, 30}, []float64{20, 20, 20}, 0)
	if got.Stat != 10 || got.DF != 2 || !(math.Abs(got.PValue-math.Exp(-5)) <= 1e-12) {
		t.Fatalf("%+v", got)
	}
	if d := DailyCycleChi2([]float64{1, 2, 0}, []float64{3, 2, 0}); d != 1 {
		t.Fatalf("DailyCycleChi2 = %v, want 4/4 = 1", d)
	}
	r := rand.New(rand.NewPCG(6, 6))
	a, b := make([]float64, 2000), make([]float64, 2000)
	for i := range a {
		a[i], b[i] = r.NormFloat64(), r.NormFloat64()
	}
	if res := ChiSquareSimulated(a, b, 20); res.PValue < 0.01 {
		t.Errorf("same distribution rejected: %+v", res)
	}
}

func TestSummaryQuantile(t *testing.T) {
	s := Summarize([]float64{4, 1, 3, 2, 5})
	if s.Median != 3 || s.P25 != 2 || s.Min != 1 || s.Max != 5 || s.Mean != 3 {
		t.Fatalf("%+v", s)
	}
	if q := Quantile([]float64{1, 2}, 0.25); q != 1.25 {
		t.Fatalf("Quantile = %v", q)
	}
	if f := ECDF([]float64{1, 2, 2, 3})(2); f != 0.75 {
		t.Fatalf("ECDF(2) = %v", f)
	}
}

func TestACF(t *testing.T) {
	// AR(1) with φ = 0.7: r(k) ≈ φ^k. Tolerance 0.03 ≈ 3 standard errors
	// (√((1+φ²)/(1−φ²)/n) ≈ 0.0065 at lag 1 for n = 50,000, larger at lag 3).
	r := rand.New(rand.NewPCG(7, 7))
	x := make([]float64, 50000)
	for i := 1; i < len(x); i++ {
		x[i] = 0.7*x[i-1] + r.NormFloat64()
	}
	a := ACF(x, 3)
	for k, want := range []float64{1, 0.7, 0.49, 0.343} {
		if !(math.Abs(a[k]-want) <= 0.03) {
			t.Errorf("r(%d) = %v, want %v", k, a[k], want)
		}
	}
	// Missing values: pairwise complete.
	y := []float64{1, math.NaN(), 1, -1, 1, -1}
	if got := ACF(y, 1); got[0] != 1 || !(got[1] < 0) {
		t.Errorf("pairwise ACF %v", got)
	}
}

// fgn returns n values of fractional Gaussian noise with Hurst parameter h
// by the Davies-Harte circulant embedding.
func fgn(n int, h float64, r *rand.Rand) []float64 {
	m := 2 * n
	gamma := func(k float64) float64 {
		return 0.5 * (math.Pow(math.Abs(k+1), 2*h) - 2*math.Pow(math.Abs(k), 2*h) + math.Pow(math.Abs(k-1), 2*h))
	}
	row := make([]complex128, m)
	for j := 0; j <= n; j++ {
		row[j] = complex(gamma(float64(j)), 0)
	}
	for j := n + 1; j < m; j++ {
		row[j] = row[m-j]
	}
	fft := fourier.NewCmplxFFT(m)
	lam := fft.Coefficients(nil, row)
	z := make([]complex128, m)
	for k := 0; k <= n; k++ {
		l := math.Max(real(lam[k]), 0)
		if k == 0 || k == n {
			z[k] = complex(math.Sqrt(l/float64(m))*r.NormFloat64(), 0)
			continue
		}
		s := math.Sqrt(l / (2 * float64(m)))
		z[k] = complex(s*r.NormFloat64(), s*r.NormFloat64())
		z[m-k] = complex(real(z[k]), -imag(z[k]))
	}
	out := fft.Coefficients(nil, z)
	x := make([]float64, n)
	for i := range x {
		x[i] = real(out[i])
	}
	return x
}

func TestHurst(t *testing.T) {
	// talby-user-session-modeling.md §9.5 estimator unit tests: i.i.d. noise
	// gives H ≈ 0.5 and fGn with H = 0.8 gives 0.8 ± 0.05. R/S is known to
	// be biased upwards on short blocks (Anis-Lloyd), hence its wider band
	// for the i.i.d. case.
	r := rand.New(rand.NewPCG(8, 8))
	iid := make([]float64, 1<<15)
	for i := range iid {
		iid[i] = r.NormFloat64()
	}
	h := EstimateHurst(iid)
	for name, c := range map[string][2]float64{
		"rs": {h.RS.H, 0.1}, "vt": {h.VarianceTime.H, 0.05}, "per": {h.Periodogram.H, 0.05},
	} {
		if !(math.Abs(c[0]-0.5) <= c[1]) {
			t.Errorf("iid %s: H = %v, want 0.5 ± %v", name, c[0], c[1])
		}
	}
	x := fgn(1<<15, 0.8, r)
	h = EstimateHurst(x)
	for name, v := range map[string]float64{"rs": h.RS.H, "vt": h.VarianceTime.H, "per": h.Periodogram.H} {
		if !(math.Abs(v-0.8) <= 0.05) {
			t.Errorf("fGn(0.8) %s: H = %v", name, v)
		}
	}
	_, pox := RescaledRange(x)
	if len(pox) == 0 {
		t.Error("no pox-plot points")
	}
}

// TestQuantileInterpolation checks type-7 quantiles (Hyndman and Fan, 1996)
// on a sample with unequal gaps and more than two values, where both the
// position h = p(n−1) and the interpolation weight matter. The wanted values
// are those of R's quantile(x, p) and NumPy's quantile(x, p) (default
// method): x = {0, 10, 20, 40, 80}.
func TestQuantileInterpolation(t *testing.T) {
	x := []float64{40, 0, 80, 10, 20}
	for _, c := range []struct{ p, want float64 }{
		{0, 0}, {0.1, 4}, {0.3, 12}, {0.5, 20}, {0.6, 28}, {0.75, 40}, {0.9, 64}, {0.99, 78.4}, {1, 80},
	} {
		if got := Quantile(x, c.p); !(math.Abs(got-c.want) <= 1e-12) {
			t.Errorf("Quantile(%v, %v) = %v, want %v", x, c.p, got, c.want)
		}
	}
	s := Summarize(x)
	if s.P25 != 10 || s.Median != 20 || s.P75 != 40 || !(math.Abs(s.P90-64) <= 1e-12) || !(math.Abs(s.P99-78.4) <= 1e-12) {
		t.Errorf("Summarize(%v) = %+v", x, s)
	}
	if !math.IsNaN(Quantile(nil, 0.5)) {
		t.Error("quantile of an empty sample is not NaN")
	}
}

// TestKSStephensSmallSample checks the p-value's small-sample correction
// (Stephens, 1970: λ = (√n + 0.12 + 0.11/√n)·D) against the exact
// two-sided percentage points of the one-sample statistic D_n tabulated by
// Miller (1956, JASA 51, Table 1). At those D the p-value must be the
// table's α within 0.002 (the correction's own error is at most 0.0014
// here); dropping or changing a term of the correction moves it by 0.0026
// or more at some n.
func TestKSStephensSmallSample(t *testing.T) {
	for _, c := range []struct {
		n        int
		d, alpha float64
	}{
		{5, 0.56328, 0.05}, {5, 0.66853, 0.01},
		{10, 0.40925, 0.05}, {10, 0.48893, 0.01},
		{20, 0.29408, 0.05}, {20, 0.35241, 0.01},
	} {
		// x_i = (1−d)·i/n, i = 1..n: the ECDF exceeds F = x by d·i/n,
		// most (d) at the last point; below, F exceeds it by at most 1/n < d.
		x := make([]float64, c.n)
		for i := range x {
			x[i] = (1 - c.d) * float64(i+1) / float64(c.n)
		}
		res := KSOneSample(x, distuv.UnitUniform.CDF)
		if !(math.Abs(res.D-c.d) <= 1e-12) {
			t.Fatalf("n %d: constructed sample has D %v, want %v", c.n, res.D, c.d)
		}
		if !(math.Abs(res.PValue-c.alpha) <= 0.002) {
			t.Errorf("n %d, D %v: p = %.5f, want %v ± 0.002", c.n, c.d, res.PValue, c.alpha)
		}
		if c.n >= 10 {
			// The inverse: the critical value within 0.002 of the exact one.
			if got := KSCritical(c.n, c.alpha); !(math.Abs(got-c.d) <= 0.002) {
				t.Errorf("KSCritical(%d, %v) = %.5f, want %v ± 0.002", c.n, c.alpha, got, c.d)
			}
		}
	}
}
