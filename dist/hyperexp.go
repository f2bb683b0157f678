package dist

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// HyperExponential is a finite mixture of exponential distributions (Lublin
// and Feitelson, The workload on parallel supercomputers, JPDC 63(11), 2003,
// section 3.1): with probability Weights[k] a value is drawn from an
// exponential with rate Rates[k] (mean 1/Rates[k], gonum's distuv.Exponential
// convention).
type HyperExponential struct {
	Weights []float64
	Rates   []float64
	// Src is the source of randomness for Rand; Rand panics if it is nil.
	Src *rand.Rand
}

func (h HyperExponential) check() {
	if len(h.Weights) == 0 || len(h.Rates) != len(h.Weights) {
		panic("dist: HyperExponential slices must have the same non-zero length")
	}
}

// Prob returns the density at x.
func (h HyperExponential) Prob(x float64) float64 {
	h.check()
	if x < 0 {
		return 0
	}
	s := 0.0
	for k, w := range h.Weights {
		s += w * h.Rates[k] * math.Exp(-h.Rates[k]*x)
	}
	return s
}

// LogProb returns the logarithm of the density at x.
func (h HyperExponential) LogProb(x float64) float64 {
	h.check()
	if x < 0 {
		return math.Inf(-1)
	}
	v := make([]float64, len(h.Weights))
	for k, w := range h.Weights {
		v[k] = math.Log(w) + math.Log(h.Rates[k]) - h.Rates[k]*x
	}
	return logSumExp(v)
}

// CDF returns P(X <= x).
func (h HyperExponential) CDF(x float64) float64 { return 1 - h.Survival(x) }

// Survival returns P(X > x).
func (h HyperExponential) Survival(x float64) float64 {
	h.check()
	if x <= 0 {
		return 1
	}
	s := 0.0
	for k, w := range h.Weights {
		s += w * math.Exp(-h.Rates[k]*x)
	}
	return s
}

// Quantile returns the inverse of the CDF. It panics if p is outside [0, 1].
func (h HyperExponential) Quantile(p float64) float64 {
	checkQuantileArg(p)
	h.check()
	if p == 0 {
		return 0
	}
	if p == 1 {
		return math.Inf(1)
	}
	lo, hi := math.Inf(1), 0.0
	for k, w := range h.Weights {
		if w == 0 {
			continue
		}
		q := -math.Log1p(-p) / h.Rates[k]
		lo, hi = math.Min(lo, q), math.Max(hi, q)
	}
	return mixtureQuantile(p, h.CDF, lo, hi)
}

// Rand returns a random sample.
func (h HyperExponential) Rand() float64 {
	if h.Src == nil {
		panic(errNilSrc)
	}
	k := pick(h.Src, h.Weights)
	return h.Src.ExpFloat64() / h.Rates[k]
}

// Mean returns Σ w_k / λ_k.
func (h HyperExponential) Mean() float64 {
	h.check()
	m := 0.0
	for k, w := range h.Weights {
		m += w / h.Rates[k]
	}
	return m
}

// Variance returns Σ 2 w_k / λ_k² − mean².
func (h HyperExponential) Variance() float64 {
	m := h.Mean()
	s := 0.0
	for k, w := range h.Weights {
		s += 2 * w / (h.Rates[k] * h.Rates[k])
	}
	return s - m*m
}

// NumParameters returns 2K − 1 for K phases.
func (h HyperExponential) NumParameters() int { return 2*len(h.Weights) - 1 }

// HyperErlang is a finite mixture of Erlang distributions: with probability
// Weights[k] a value is the sum of Orders[k] exponentials of mean Scales[k] (a
// Gamma with integer shape Orders[k] and scale Scales[k]). It is the runtime
// model of Jann et al. and the faster-sampling variant of the hyper-Gamma
// (Lublin and Feitelson (2003), sections 5.2 and 9.2).
type HyperErlang struct {
	Weights []float64
	// Orders are the integer shapes, each >= 1.
	Orders []int
	// Scales are the phase means (Gamma scales), each > 0.
	Scales []float64
	// Src is the source of randomness for Rand; Rand panics if it is nil.
	Src *rand.Rand
}

func (h HyperErlang) check() {
	if len(h.Weights) == 0 || len(h.Orders) != len(h.Weights) || len(h.Scales) != len(h.Weights) {
		panic("dist: HyperErlang slices must have the same non-zero length")
	}
}

func (h HyperErlang) comp(k int) distuv.Gamma {
	return distuv.Gamma{Alpha: float64(h.Orders[k]), Beta: 1 / h.Scales[k], Src: src(h.Src)}
}

// Prob returns the density at x.
func (h HyperErlang) Prob(x float64) float64 {
	h.check()
	return weighted(h.Weights, h.comp, func(c distuv.Gamma) float64 { return c.Prob(x) })
}

// LogProb returns the logarithm of the density at x.
func (h HyperErlang) LogProb(x float64) float64 {
	h.check()
	return weightedLogProb(h.Weights, h.comp, x)
}

// CDF returns P(X <= x).
func (h HyperErlang) CDF(x float64) float64 {
	h.check()
	return weighted(h.Weights, h.comp, func(c distuv.Gamma) float64 { return c.CDF(x) })
}

// Survival returns P(X > x).
func (h HyperErlang) Survival(x float64) float64 {
	h.check()
	return weighted(h.Weights, h.comp, func(c distuv.Gamma) float64 { return c.Survival(x) })
}

// Quantile returns the inverse of the CDF. It panics if p is outside [0, 1].
func (h HyperErlang) Quantile(p float64) float64 {
	checkQuantileArg(p)
	h.check()
	if p == 0 {
		return 0
	}
	if p == 1 {
		return math.Inf(1)
	}
	lo, hi := quantileRange(h.Weights, h.comp, p)
	return mixtureQuantile(p, h.CDF, lo, hi)
}

// Rand returns a random sample: a phase chosen by weight, then the sum of
// Orders[k] exponential draws of mean Scales[k].
func (h HyperErlang) Rand() float64 {
	if h.Src == nil {
		panic(errNilSrc)
	}
	k := pick(h.Src, h.Weights)
	s := 0.0
	for i := 0; i < h.Orders[k]; i++ {
		s += h.Src.ExpFloat64()
	}
	return s * h.Scales[k]
}

// Mean returns Σ w_k r_k β_k.
func (h HyperErlang) Mean() float64 {
	h.check()
	m := 0.0
	for k, w := range h.Weights {
		m += w * float64(h.Orders[k]) * h.Scales[k]
	}
	return m
}

// Variance returns Σ w_k (r_k β_k² + r_k² β_k²) − mean².
func (h HyperErlang) Variance() float64 {
	m := h.Mean()
	s := 0.0
	for k, w := range h.Weights {
		r, b := float64(h.Orders[k]), h.Scales[k]
		s += w * r * b * b * (1 + r)
	}
	return s - m*m
}

// NumParameters returns 2K − 1 for K phases (the orders are structural).
func (h HyperErlang) NumParameters() int { return 2*len(h.Weights) - 1 }
