package dist

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// GaussianMixture is a finite mixture of univariate normal distributions, the
// runtime model of T. N. Minh, L. Wolters and D. Epema, "A realistic
// integrated model of parallel system workloads", CCGrid 2010, section VI-A:
// component k has weight Weights[k], mean Means[k] and standard deviation
// StdDevs[k].
//
// The three slices must have the same, non-zero length; the weights must be
// non-negative and sum to 1 (within rounding). Methods panic otherwise,
// since a malformed mixture is a programming error.
type GaussianMixture struct {
	Weights []float64
	Means   []float64
	StdDevs []float64
	// Src is the source of randomness for Rand; Rand panics if it is nil.
	Src *rand.Rand
}

func (g GaussianMixture) check() {
	if len(g.Weights) == 0 || len(g.Means) != len(g.Weights) || len(g.StdDevs) != len(g.Weights) {
		panic("dist: GaussianMixture slices must have the same non-zero length")
	}
}

func (g GaussianMixture) comp(k int) distuv.Normal {
	return distuv.Normal{Mu: g.Means[k], Sigma: g.StdDevs[k], Src: src(g.Src)}
}

// Len returns the number of components.
func (g GaussianMixture) Len() int { return len(g.Weights) }

// Prob returns the density at x.
func (g GaussianMixture) Prob(x float64) float64 {
	g.check()
	return weighted(g.Weights, g.comp, func(c distuv.Normal) float64 { return c.Prob(x) })
}

// LogProb returns the logarithm of the density at x.
func (g GaussianMixture) LogProb(x float64) float64 {
	g.check()
	return weightedLogProb(g.Weights, g.comp, x)
}

// Posterior stores in dst (allocated if nil or too short) and returns the
// posterior probability of each component given x, the E-step responsibilities
// z_k = w_k N(x|μ_k,σ_k²) / Σ_h w_h N(x|μ_h,σ_h²) (Minh, Wolters and Epema
// (2010), section VI-A).
func (g GaussianMixture) Posterior(x float64, dst []float64) []float64 {
	g.check()
	if cap(dst) < len(g.Weights) {
		dst = make([]float64, len(g.Weights))
	}
	dst = dst[:len(g.Weights)]
	for k, w := range g.Weights {
		dst[k] = math.Log(w) + g.comp(k).LogProb(x)
	}
	l := logSumExp(dst)
	for k := range dst {
		dst[k] = math.Exp(dst[k] - l)
	}
	return dst
}

// Classify returns the component with the largest posterior probability
// for x (the MAP label); of components tied for it, the first listed.
func (g GaussianMixture) Classify(x float64) int {
	g.check()
	best, bl := 0, math.Inf(-1)
	for k, w := range g.Weights {
		if l := math.Log(w) + g.comp(k).LogProb(x); l > bl {
			best, bl = k, l
		}
	}
	return best
}

// CDF returns P(X <= x).
func (g GaussianMixture) CDF(x float64) float64 {
	g.check()
	return weighted(g.Weights, g.comp, func(c distuv.Normal) float64 { return c.CDF(x) })
}

// Survival returns P(X > x).
func (g GaussianMixture) Survival(x float64) float64 {
	g.check()
	return weighted(g.Weights, g.comp, func(c distuv.Normal) float64 { return c.Survival(x) })
}

// Quantile returns the inverse of the CDF, by bisection between the
// smallest and largest component quantiles. It panics if p is outside [0, 1].
func (g GaussianMixture) Quantile(p float64) float64 {
	checkQuantileArg(p)
	g.check()
	if p == 0 {
		return math.Inf(-1)
	}
	if p == 1 {
		return math.Inf(1)
	}
	lo, hi := quantileRange(g.Weights, g.comp, p)
	return mixtureQuantile(p, g.CDF, lo, hi)
}

// Rand returns a random sample: a component chosen by its weight, then a
// normal draw from it.
func (g GaussianMixture) Rand() float64 {
	if g.Src == nil {
		panic(errNilSrc)
	}
	k := pick(g.Src, g.Weights)
	return g.Means[k] + g.StdDevs[k]*g.Src.NormFloat64()
}

// RandComponent returns a random sample and the component it came from.
func (g GaussianMixture) RandComponent() (x float64, k int) {
	if g.Src == nil {
		panic(errNilSrc)
	}
	k = pick(g.Src, g.Weights)
	return g.Means[k] + g.StdDevs[k]*g.Src.NormFloat64(), k
}

// Mean returns Σ w_k μ_k.
func (g GaussianMixture) Mean() float64 {
	g.check()
	m := 0.0
	for k, w := range g.Weights {
		m += w * g.Means[k]
	}
	return m
}

// Variance returns Σ w_k (σ_k² + μ_k²) − mean².
func (g GaussianMixture) Variance() float64 {
	m := g.Mean()
	s := 0.0
	for k, w := range g.Weights {
		s += w * (g.StdDevs[k]*g.StdDevs[k] + g.Means[k]*g.Means[k])
	}
	return s - m*m
}

// NumParameters returns 3G − 1 for G components (weights sum to one).
func (g GaussianMixture) NumParameters() int { return 3*len(g.Weights) - 1 }

// pick returns index k with probability w[k]/Σw.
func pick(r *rand.Rand, w []float64) int {
	t := 0.0
	for _, x := range w {
		t += x
	}
	u := r.Float64() * t
	for k, x := range w {
		if u < x {
			return k
		}
		u -= x
	}
	for k := len(w) - 1; k >= 0; k-- {
		if w[k] > 0 {
			return k
		}
	}
	return len(w) - 1
}
