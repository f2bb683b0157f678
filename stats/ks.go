package stats

import (
	"math"
	"math/rand/v2"
	"sort"
)

// KSResult is the outcome of a Kolmogorov-Smirnov test.
type KSResult struct {
	// D is the KS statistic, the largest distance between the two CDFs.
	D float64 `json:"d"`
	// PValue is the asymptotic p-value (Kolmogorov distribution with the
	// Stephens small-sample correction); small values reject the fit.
	PValue float64 `json:"p_value"`
	// N is the (effective, for two samples nm/(n+m)) sample size.
	N float64 `json:"n"`
}

// Reject reports whether the test rejects at significance level alpha.
func (r KSResult) Reject(alpha float64) bool { return r.PValue < alpha }

// KSOneSample tests the sample x against a fully specified continuous CDF: D_n
// = max_i max(F(X_i) − (i−1)/n, i/n − F(X_i)) over the sorted sample (Lublin
// and Feitelson, The workload on parallel supercomputers, JPDC 63(11), 2003,
// section 3.3.1). Ties are handled as steps of the empirical CDF. x is not
// modified. With estimated parameters the p-value is conservative (too large),
// as the paper notes.
func KSOneSample(x []float64, cdf func(float64) float64) KSResult {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return KSOneSampleSorted(s, cdf)
}

// KSOneSampleSorted is [KSOneSample] for an already sorted sample.
func KSOneSampleSorted(sorted []float64, cdf func(float64) float64) KSResult {
	n := len(sorted)
	if n == 0 {
		return KSResult{D: math.NaN(), PValue: math.NaN()}
	}
	fn := float64(n)
	d := 0.0
	for i := 0; i < n; {
		j := i + 1
		for j < n && sorted[j] == sorted[i] {
			j++
		}
		f := cdf(sorted[i])
		d = math.Max(d, math.Max(f-float64(i)/fn, float64(j)/fn-f))
		i = j
	}
	return KSResult{D: d, PValue: KolmogorovSurvival(ksLambda(d, fn)), N: fn}
}

// KSTwoSample tests whether x and y come from the same distribution:
// D = sup |F_x − F_y| over the pooled values, with the p-value for the
// effective size nm/(n+m). The inputs are not modified.
func KSTwoSample(x, y []float64) KSResult {
	a := append([]float64(nil), x...)
	b := append([]float64(nil), y...)
	sort.Float64s(a)
	sort.Float64s(b)
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return KSResult{D: math.NaN(), PValue: math.NaN()}
	}
	i, j := 0, 0
	d := 0.0
	for i < n && j < m {
		v := math.Min(a[i], b[j])
		for i < n && a[i] == v {
			i++
		}
		for j < m && b[j] == v {
			j++
		}
		d = math.Max(d, math.Abs(float64(i)/float64(n)-float64(j)/float64(m)))
	}
	ne := float64(n) * float64(m) / float64(n+m)
	return KSResult{D: d, PValue: KolmogorovSurvival(ksLambda(d, ne)), N: ne}
}

// ksLambda returns the Stephens-corrected argument (√n + 0.12 + 0.11/√n)·D.
func ksLambda(d, n float64) float64 {
	sn := math.Sqrt(n)
	return (sn + 0.12 + 0.11/sn) * d
}

// KolmogorovSurvival returns Q(λ) = 2 Σ_{k>=1} (−1)^(k−1) e^(−2k²λ²), the
// probability that the limiting Kolmogorov statistic √n·D exceeds λ.
func KolmogorovSurvival(lambda float64) float64 {
	if lambda < 0.2 {
		return 1
	}
	s, sign := 0.0, 1.0
	for k := 1; k <= 100; k++ {
		t := sign * 2 * math.Exp(-2*float64(k*k)*lambda*lambda)
		s += t
		if math.Abs(t) < 1e-16*math.Abs(s) {
			break
		}
		sign = -sign
	}
	return math.Max(0, math.Min(1, s))
}

// KSCritical returns the large-sample critical value of D for sample size n at
// significance level alpha (for alpha = 0.05, ≈ 1.36/√n, the usual
// large-sample value), found by inverting [KolmogorovSurvival] with the
// Stephens correction.
func KSCritical(n int, alpha float64) float64 {
	lo, hi := 0.2, 5.0
	for i := 0; i < 100; i++ {
		mid := (lo + hi) / 2
		if KolmogorovSurvival(mid) > alpha {
			lo = mid
		} else {
			hi = mid
		}
	}
	sn := math.Sqrt(float64(n))
	return (lo + hi) / 2 / (sn + 0.12 + 0.11/sn)
}

// SubsampleKSResult summarises repeated KS tests on random sub-samples.
type SubsampleKSResult struct {
	// Size and Reps are the sub-sample size and the number of sub-samples.
	Size int `json:"size"`
	Reps int `json:"reps"`
	// MeanD and MeanPValue average the statistic and p-value over the
	// sub-samples.
	MeanD      float64 `json:"mean_d"`
	MeanPValue float64 `json:"mean_p_value"`
	// PassFraction is the fraction of sub-samples not rejected at Alpha.
	PassFraction float64 `json:"pass_fraction"`
	Alpha        float64 `json:"alpha"`
}

// SubsampleKS runs the one-sample KS test on reps random sub-samples of size
// values drawn without replacement from x, the procedure Lublin and Feitelson
// use because full logs of 15,000-70,000 dependent jobs fail the formal test
// while sub-samples of 500-1000 jobs pass at 95 % (Lublin and Feitelson
// (2003), section 5.1). It panics if size > len(x) or r is nil.
func SubsampleKS(x []float64, cdf func(float64) float64, size, reps int, alpha float64, r *rand.Rand) SubsampleKSResult {
	if r == nil {
		panic("stats: nil *rand.Rand")
	}
	if size > len(x) || size < 1 {
		panic("stats: sub-sample size out of range")
	}
	pool := append([]float64(nil), x...)
	sub := make([]float64, size)
	res := SubsampleKSResult{Size: size, Reps: reps, Alpha: alpha}
	pass := 0
	for k := 0; k < reps; k++ {
		// Partial Fisher-Yates shuffle: the first size entries are the sample.
		for i := 0; i < size; i++ {
			j := i + r.IntN(len(pool)-i)
			pool[i], pool[j] = pool[j], pool[i]
		}
		copy(sub, pool[:size])
		t := KSOneSample(sub, cdf)
		res.MeanD += t.D
		res.MeanPValue += t.PValue
		if !t.Reject(alpha) {
			pass++
		}
	}
	if reps > 0 {
		res.MeanD /= float64(reps)
		res.MeanPValue /= float64(reps)
		res.PassFraction = float64(pass) / float64(reps)
	}
	return res
}
