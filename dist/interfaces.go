package dist

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Compile-time checks that the distributions compose with gonum.
var (
	_ distuv.RandLogProber = HyperGamma{}
	_ distuv.Quantiler     = HyperGamma{}
	_ distuv.RandLogProber = TwoStageUniform{}
	_ distuv.Quantiler     = TwoStageUniform{}
	_ distuv.RandLogProber = Zipf{}
	_ distuv.Quantiler     = Zipf{}
	_ distuv.RandLogProber = GaussianMixture{}
	_ distuv.Quantiler     = GaussianMixture{}
	_ distuv.RandLogProber = HyperExponential{}
	_ distuv.Quantiler     = HyperExponential{}
	_ distuv.RandLogProber = HyperErlang{}
	_ distuv.Quantiler     = HyperErlang{}
	_ distuv.RandLogProber = LogLogistic{}
	_ distuv.Quantiler     = LogLogistic{}
	_ distuv.RandLogProber = GeneralizedPareto{}
	_ distuv.Quantiler     = GeneralizedPareto{}
)

// Continuous is the set of queries every continuous distribution of this
// package answers; gonum's Gamma, LogNormal, Weibull and Exponential satisfy
// it too, which lets fitting and goodness-of-fit code treat them alike.
type Continuous interface {
	Prob(x float64) float64
	LogProb(x float64) float64
	CDF(x float64) float64
	Quantile(p float64) float64
	Rand() float64
	Mean() float64
	NumParameters() int
}

// mixtureQuantile inverts a monotone cdf by bisection on [lo, hi], which must
// bracket the p-quantile (cdf(lo) <= p <= cdf(hi)). For a mixture, the
// smallest and largest component quantiles are such a bracket.
func mixtureQuantile(p float64, cdf func(float64) float64, lo, hi float64) float64 {
	if lo > hi {
		lo, hi = hi, lo
	}
	for i := 0; i < 200 && hi-lo > 1e-12*math.Max(1, math.Abs(hi)); i++ {
		mid := lo + (hi-lo)/2
		if cdf(mid) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}

// logSumExp returns log(Σ exp(v_i)) without overflow.
func logSumExp(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		if x > m {
			m = x
		}
	}
	if math.IsInf(m, -1) {
		return m
	}
	s := 0.0
	for _, x := range v {
		s += math.Exp(x - m)
	}
	return m + math.Log(s)
}

// checkQuantileArg panics if p is outside [0, 1], as gonum's Quantile methods do.
func checkQuantileArg(p float64) {
	if !(p >= 0 && p <= 1) {
		panic("dist: quantile argument out of range [0, 1]")
	}
}

const errNilSrc = "dist: nil Src; randomness must be explicit"
