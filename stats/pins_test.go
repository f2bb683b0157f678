package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestChiSquareByHand: O = (10, 25, 30, 5), E = (20, 20, 20, 0), one
// parameter estimated: the empty bin is left out, χ² = 100/20 + 25/20 +
// 100/20 = 11.25 with 3 − 1 − 1 = 1 degree of freedom. With no degree of
// freedom left the p-value is NaN.
func TestChiSquareByHand(t *testing.T) {
	got := ChiSquare([]float64{10, 25, 30, 5}, []float64{20, 20, 20, 0}, 1)
	want := distuv.ChiSquared{K: 1}.Survival(11.25)
	if got.Stat != 11.25 || got.DF != 1 || !(math.Abs(got.PValue-want) <= 1e-15) {
		t.Errorf("ChiSquare = %+v, want stat 11.25, df 1, p %v", got, want)
	}
	if got := ChiSquare([]float64{3, 4}, []float64{5, 5}, 1); got.DF != 0 || !math.IsNaN(got.PValue) {
		t.Errorf("no degree of freedom: %+v, want df 0 and p NaN", got)
	}
}

// TestChiSquareSimulatedByHand works two small cases through the binning:
// edges at the pooled values of rank ⌊i·N/k⌋, a value on an edge counted in
// the bin above it, model counts scaled to the data's size, and an empty
// model bin counted as half a value.
func TestChiSquareSimulatedByHand(t *testing.T) {
	for _, c := range []struct {
		name      string
		data, sim []float64
		k, df     int
		stat      float64
	}{
		// Pooled 1 1 1 2 2 3 4 5 6 7 8 9: edges 2 and 6. O = (1, 3, 0),
		// E = (2, 2, 4)·4/8 = (1, 1, 2): χ² = 0 + 4 + 2 = 6.
		{"scaled", []float64{1, 2, 3, 4}, []float64{1, 1, 2, 5, 6, 7, 8, 9}, 3, 2, 6},
		// Pooled 0 0 5 5 5 5 5 5 6 6 10 10: edges 5 and 6. O = (2, 0, 2),
		// E = (0, 6, 2)·4/8 = (0, 3, 1): the empty model bin counts half a
		// value, 0.25 after scaling: 1.75²/0.25 + 9/3 + 1 = 16.25.
		{"empty model bin", []float64{0, 0, 10, 10}, []float64{5, 5, 5, 6, 5, 5, 5, 6}, 3, 2, 16.25},
		// Pooled 1 1 2 2, k = 4: the edges of rank 1, 2, 3 are 1, 2, 2 (2
		// kept once). O = E = (0, 1, 1): the bin empty in both is dropped,
		// χ² = 0 with one degree of freedom.
		{"repeated edge", []float64{1, 2}, []float64{1, 2}, 4, 1, 0},
	} {
		got := ChiSquareSimulated(c.data, c.sim, c.k)
		if got.Stat != c.stat || got.DF != c.df {
			t.Errorf("%s: %+v, want stat %v, df %d", c.name, got, c.stat, c.df)
		}
		if c.df > 0 {
			want := distuv.ChiSquared{K: float64(c.df)}.Survival(c.stat)
			if !(math.Abs(got.PValue-want) <= 1e-15) {
				t.Errorf("%s: p %v, want %v", c.name, got.PValue, want)
			}
		}
	}
	bad := []struct {
		data, sim []float64
		k         int
	}{{[]float64{1}, []float64{1}, 1}, {nil, []float64{1}, 2}, {[]float64{1}, nil, 2}}
	for _, c := range bad {
		if got := ChiSquareSimulated(c.data, c.sim, c.k); !math.IsNaN(got.Stat) {
			t.Errorf("ChiSquareSimulated(%v, %v, %d) = %+v, want NaN", c.data, c.sim, c.k, got)
		}
	}
	if got := ChiSquareSimulated([]float64{1, 2, 3}, []float64{1, 2, 3}, 2); got.Stat != 0 || got.DF != 1 {
		t.Errorf("two bins: %+v", got)
	}
}

// TestAndersonDarlingByHand computes A² = −n − (1/n) Σ_{i=1..n} (2i−1)[ln
// F(X_(i)) + ln(1 − F(X_(n+1−i)))] for three points against U(0,1), checks
// the clamping of CDF values of 0 and 1, and the limits of the asymptotic
// distribution.
func TestAndersonDarlingByHand(t *testing.T) {
	x := []float64{0.7, 0.1, 0.4}
	s := []float64{0.1, 0.4, 0.7}
	want := -3.0
	for i := 1; i <= 3; i++ {
		want -= float64(2*i-1) * (math.Log(s[i-1]) + math.Log(1-s[3-i])) / 3
	}
	got := AndersonDarling(x, distuv.UnitUniform.CDF)
	if !(math.Abs(got.A2-want) <= 1e-12) || got.N != 3 || !(math.Abs(got.PValue-(1-adInf(want))) <= 1e-15) {
		t.Errorf("A² = %+v, want %v", got, want)
	}
	// Points outside the support: CDF 0 and 1, clamped, so A² is large but
	// finite and the fit rejected.
	out := AndersonDarling([]float64{-1, 0.5, 2}, distuv.UnitUniform.CDF)
	if math.IsInf(out.A2, 0) || math.IsNaN(out.A2) || out.A2 < 20 || out.PValue > 1e-6 {
		t.Errorf("outside the support: %+v", out)
	}
	if e := AndersonDarling(nil, distuv.UnitUniform.CDF); !math.IsNaN(e.A2) || !math.IsNaN(e.PValue) {
		t.Errorf("empty sample: %+v", e)
	}
	if adInf(0) != 0 || adInf(-1) != 0 {
		t.Errorf("adInf(0) = %v, adInf(-1) = %v, want 0", adInf(0), adInf(-1))
	}
}

// TestACFByHand: x = 1, 2, 3, 4 has mean 2.5 and Σ(x − x̄)² = 5, so r(1) =
// (0.75 − 0.25 + 0.75)/5 = 0.25, r(2) = −1.5/5, r(3) = −2.25/5, and r(4),
// beyond the series, is NaN. Lag 0 alone is allowed; a negative lag panics.
func TestACFByHand(t *testing.T) {
	got := ACF([]float64{1, 2, 3, 4}, 4)
	want := []float64{1, 0.25, -0.3, -0.45}
	for k, w := range want {
		if !(math.Abs(got[k]-w) <= 1e-15) {
			t.Errorf("r(%d) = %v, want %v", k, got[k], w)
		}
	}
	if !math.IsNaN(got[4]) {
		t.Errorf("r(4) = %v, want NaN", got[4])
	}
	if r := ACF([]float64{1, 2}, 0); len(r) != 1 || r[0] != 1 {
		t.Errorf("ACF(x, 0) = %v", r)
	}
	// Missing values: mean 2 of {1, 3}, pairs with a NaN skipped.
	if r := ACF([]float64{1, math.NaN(), 3}, 2); r[1] != 0 || r[2] != -0.5 {
		t.Errorf("with a missing value: %v, want r(1) 0, r(2) −1/2", r)
	}
	if r := ACF([]float64{math.NaN(), math.NaN()}, 1); !math.IsNaN(r[0]) || !math.IsNaN(r[1]) {
		t.Errorf("all missing: %v", r)
	}
	defer func() {
		if recover() == nil {
			t.Error("negative lag: no panic")
		}
	}()
	ACF([]float64{1, 2}, -1)
}

// TestHurstPinned pins the three estimators on 4096 i.i.d. normal values
// (seed 11): they are deterministic, so every detail of the block sizes,
// the R/S of a block, the aggregation and the frequencies fitted shows.
// Near 0.5 as expected for i.i.d. noise; R/S high by its known small-block
// bias.
func TestHurstPinned(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	x := make([]float64, 4096)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	h := EstimateHurst(x)
	for _, c := range []struct {
		name      string
		got, want float64
		n, wantN  int
	}{
		{"R/S", h.RS.H, 0.56018791443160143, len(h.RS.LogX), 24},
		{"variance-time", h.VarianceTime.H, 0.50666249234794059, len(h.VarianceTime.LogX), 9},
		{"periodogram", h.Periodogram.H, 0.52917164836009112, len(h.Periodogram.LogX), 204},
		{"mean", h.Mean, 0.53200735171321112, 0, 0},
	} {
		if !(math.Abs(c.got-c.want) <= 1e-12) || c.n != c.wantN {
			t.Errorf("%s: H %.17g from %d points, pinned %.17g from %d", c.name, c.got, c.n, c.want, c.wantN)
		}
	}
	// The fitted lines' intercepts (log10 of R/S, variance and power).
	for _, c := range [][2]float64{{h.RS.Intercept, -0.08371860791291752}, {h.VarianceTime.Intercept, -0.012591294397566788},
		{h.Periodogram.Intercept, -0.064750609031667059}} {
		if !(math.Abs(c[0]-c[1]) <= 1e-12) {
			t.Errorf("intercept %.17g, pinned %.17g", c[0], c[1])
		}
	}
	if _, pox := RescaledRange(x); len(pox) != 1959 {
		t.Errorf("%d pox points, pinned 1959", len(pox))
	}
	if got := blockSizes(10, 100, 10); len(got) != 11 || got[0] != 10 || got[1] != 13 || got[5] != 32 || got[10] != 100 {
		t.Errorf("blockSizes(10, 100, 10) = %v, want 10 13 16 20 25 32 40 50 63 79 100", got)
	}
	// Shortest series: R/S needs two block sizes (10 and 13: 26 values), the
	// periodogram 8 values, variance-time two levels with 10 blocks (20);
	// at 40 values the level of 4 (10 blocks) is still used.
	short := []struct {
		name string
		h    float64
		nan  bool
	}{
		{"R/S of 25", rsH(x[:25]), true}, {"R/S of 26", rsH(x[:26]), false},
		{"periodogram of 7", Periodogram(x[:7]).H, true}, {"periodogram of 8", Periodogram(x[:8]).H, false},
		{"variance-time of 19", VarianceTime(x[:19]).H, true}, {"variance-time of 20", VarianceTime(x[:20]).H, false},
	}
	for _, c := range short {
		if math.IsNaN(c.h) != c.nan {
			t.Errorf("%s: H %v", c.name, c.h)
		}
	}
	if vt := VarianceTime(x[:40]); len(vt.LogX) != 3 || !(math.Abs(vt.H-0.3129911710139557) <= 1e-12) {
		t.Errorf("variance-time of 40: H %v from %d levels, pinned 0.3129911710139557 from 3", vt.H, len(vt.LogX))
	}
	// A constant series has no R/S and no variance.
	c := make([]float64, 64)
	if h := EstimateHurst(c); !math.IsNaN(h.RS.H) || !math.IsNaN(h.VarianceTime.H) || !math.IsNaN(h.Periodogram.H) {
		t.Errorf("constant series: %+v", h)
	}
}

func rsH(x []float64) float64 {
	h, _ := RescaledRange(x)
	return h.H
}

// TestKolmogorovSeries: Q(λ) at small λ, where the higher terms of the
// alternating series matter (Kolmogorov's distribution, tabulated: K(0.5) =
// 0.036055, K(0.8) = 0.455858, K(1) = 0.730000, Q = 1 − K).
func TestKolmogorovSeries(t *testing.T) {
	for _, c := range [][2]float64{{0.5, 0.963945}, {0.8, 0.544142}, {1, 0.270000}, {0.1, 1}, {5, 0}} {
		if got := KolmogorovSurvival(c[0]); !(math.Abs(got-c[1]) <= 2e-6) {
			t.Errorf("Q(%v) = %.7f, want %v", c[0], got, c[1])
		}
	}
	if (KSResult{PValue: 0.05}).Reject(0.05) || !(KSResult{PValue: 0.0499}).Reject(0.05) {
		t.Error("Reject: p = alpha must not reject, p < alpha must")
	}
}

// TestKSTwoSampleSize: the p-value of two samples uses the effective size
// nm/(n+m): 3 and 2 values, D = 1, n_e = 1.2.
func TestKSTwoSampleSize(t *testing.T) {
	got := KSTwoSample([]float64{1, 2, 3}, []float64{4, 5})
	sn := math.Sqrt(1.2)
	if got.D != 1 || !(math.Abs(got.N-1.2) <= 1e-15) || !(math.Abs(got.PValue-KolmogorovSurvival(sn+0.12+0.11/sn)) <= 1e-15) {
		t.Errorf("%+v, want D 1, n 1.2", got)
	}
	if got := KSTwoSample(nil, []float64{1}); !math.IsNaN(got.D) {
		t.Errorf("empty sample: %+v", got)
	}
	if got := KSOneSample(nil, distuv.UnitUniform.CDF); !math.IsNaN(got.D) {
		t.Errorf("empty sample: %+v", got)
	}
}

// TestSubsampleKSPinned: a sub-sample of the whole sample is the sample, so
// every repetition gives the full test; smaller sub-samples are pinned at a
// seed; the size must be in [1, len(x)].
func TestSubsampleKSPinned(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	y := make([]float64, 200)
	for i := range y {
		y[i] = r.NormFloat64()
	}
	cdf := distuv.UnitNormal.CDF
	full := KSOneSample(y, cdf)
	all := SubsampleKS(y, cdf, len(y), 3, 0.05, rand.New(rand.NewPCG(1, 2)))
	if !(math.Abs(all.MeanD-full.D) <= 1e-15) || !(math.Abs(all.MeanPValue-full.PValue) <= 1e-15) || all.PassFraction != 1 {
		t.Errorf("sub-samples of the whole sample: %+v, full test %+v", all, full)
	}
	s := SubsampleKS(y, cdf, 50, 20, 0.5, rand.New(rand.NewPCG(1, 2)))
	if !(math.Abs(s.MeanD-0.11250731176741147) <= 1e-12) || !(math.Abs(s.MeanPValue-0.551354053733814) <= 1e-12) ||
		s.PassFraction != 0.6 || s.Size != 50 || s.Reps != 20 || s.Alpha != 0.5 {
		t.Errorf("pinned sub-samples: %+v", s)
	}
	if z := SubsampleKS(y, cdf, 50, 0, 0.05, r); z.MeanD != 0 || z.PassFraction != 0 {
		t.Errorf("no repetition: %+v", z)
	}
	if one := SubsampleKS(y, cdf, 1, 2, 0.05, r); one.Size != 1 || one.Reps != 2 {
		t.Errorf("sub-samples of one value: %+v", one)
	}
	for _, size := range []int{0, 201} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("size %d: no panic", size)
				}
			}()
			SubsampleKS(y, cdf, size, 1, 0.05, r)
		}()
	}
}

// TestSummaryCV: CV is the sample standard deviation over the mean.
func TestSummaryCV(t *testing.T) {
	s := Summarize([]float64{2, 4, 6})
	if s.StdDev != 2 || !(math.Abs(s.CV-0.5) <= 1e-15) || s.N != 3 {
		t.Errorf("%+v, want sd 2, CV 0.5", s)
	}
	if e := Summarize(nil); e.N != 0 || !math.IsNaN(e.Mean) || !math.IsNaN(e.P99) {
		t.Errorf("empty: %+v", e)
	}
	if f := ECDF([]float64{3, 1, 2})(0.5); f != 0 {
		t.Errorf("ECDF below the sample = %v", f)
	}
}

// TestRescaledRangeConstantStretch: blocks of zero variance (a stretch of
// empty time units in a series of job counts) are skipped, so H stays
// finite.
func TestRescaledRangeConstantStretch(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	x := make([]float64, 2000)
	for i := 300; i < len(x); i++ {
		x[i] = r.NormFloat64()
	}
	h, pox := RescaledRange(x)
	if math.IsNaN(h.H) || math.IsInf(h.H, 0) {
		t.Errorf("H = %v with 300 leading zeros", h.H)
	}
	for _, p := range pox {
		if math.IsNaN(p.RS) {
			t.Fatalf("NaN R/S for a block of %d", p.N)
		}
	}
}
