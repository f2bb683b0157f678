package dist

import (
	"math"
	"math/rand/v2"
)

// LogLogistic is the log-logistic (Fisk) distribution with scale Alpha
// (its median) and shape Beta: F(x) = 1 / (1 + (x/α)^(−β)) for x > 0.
// ln X is logistic with location ln α and scale 1/β. It is one of the
// candidate runtime and inter-arrival distributions of the general
// fitting command.
type LogLogistic struct {
	// Alpha is the scale (the median), > 0.
	Alpha float64
	// Beta is the shape, > 0; the tail is heavier for smaller Beta.
	Beta float64
	// Src is the source of randomness for Rand; Rand panics if it is nil.
	Src *rand.Rand
}

// Prob returns the density (β/α)(x/α)^(β−1) / (1 + (x/α)^β)².
func (l LogLogistic) Prob(x float64) float64 { return math.Exp(l.LogProb(x)) }

// LogProb returns the logarithm of the density at x.
func (l LogLogistic) LogProb(x float64) float64 {
	if x <= 0 {
		return math.Inf(-1)
	}
	z := math.Log(x / l.Alpha)
	// ln f = ln β − ln x + β z − 2 ln(1 + e^{β z})
	bz := l.Beta * z
	return math.Log(l.Beta) - math.Log(x) + bz - 2*softplus(bz)
}

// softplus returns ln(1 + e^x) without overflow.
func softplus(x float64) float64 {
	if x > 30 {
		return x + math.Exp(-x)
	}
	return math.Log1p(math.Exp(x))
}

// CDF returns P(X <= x).
func (l LogLogistic) CDF(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return 1 / (1 + math.Pow(x/l.Alpha, -l.Beta))
}

// Survival returns P(X > x).
func (l LogLogistic) Survival(x float64) float64 {
	if x <= 0 {
		return 1
	}
	return 1 / (1 + math.Pow(x/l.Alpha, l.Beta))
}

// Quantile returns α (p/(1−p))^(1/β). It panics if p is outside [0, 1].
func (l LogLogistic) Quantile(p float64) float64 {
	checkQuantileArg(p)
	return l.Alpha * math.Pow(p/(1-p), 1/l.Beta)
}

// Rand returns a random sample by inversion.
func (l LogLogistic) Rand() float64 {
	if l.Src == nil {
		panic(errNilSrc)
	}
	u := l.Src.Float64()
	for u == 0 {
		u = l.Src.Float64()
	}
	return l.Quantile(u)
}

// Mean returns απ/β / sin(π/β) for β > 1 and +Inf otherwise.
func (l LogLogistic) Mean() float64 {
	if l.Beta <= 1 {
		return math.Inf(1)
	}
	b := math.Pi / l.Beta
	return l.Alpha * b / math.Sin(b)
}

// Variance returns α²(2b/sin 2b − b²/sin² b), b = π/β, for β > 2 and +Inf
// otherwise.
func (l LogLogistic) Variance() float64 {
	if l.Beta <= 2 {
		return math.Inf(1)
	}
	b := math.Pi / l.Beta
	s := math.Sin(b)
	return l.Alpha * l.Alpha * (2*b/math.Sin(2*b) - b*b/(s*s))
}

// NumParameters returns 2.
func (LogLogistic) NumParameters() int { return 2 }

// GeneralizedPareto is the generalized Pareto distribution with location
// Mu, scale Sigma and shape Xi: F(x) = 1 − (1 + ξ(x−μ)/σ)^(−1/ξ) for x >= μ
// (and x <= μ − σ/ξ when ξ < 0); ξ = 0 is the shifted exponential. It models
// heavy tails (ξ > 0) of runtimes and inter-arrival times.
type GeneralizedPareto struct {
	// Mu is the location (the lower end of the support).
	Mu float64
	// Sigma is the scale, > 0.
	Sigma float64
	// Xi is the shape; the tail is a power law of index 1/ξ when ξ > 0.
	Xi float64
	// Src is the source of randomness for Rand; Rand panics if it is nil.
	Src *rand.Rand
}

// z returns the standardised value and whether x is in the support.
func (g GeneralizedPareto) z(x float64) (float64, bool) {
	z := (x - g.Mu) / g.Sigma
	if z < 0 || (g.Xi < 0 && z > -1/g.Xi) {
		return z, false
	}
	return z, true
}

// Prob returns the density at x.
func (g GeneralizedPareto) Prob(x float64) float64 { return math.Exp(g.LogProb(x)) }

// LogProb returns the logarithm of the density at x.
func (g GeneralizedPareto) LogProb(x float64) float64 {
	z, ok := g.z(x)
	if !ok {
		return math.Inf(-1)
	}
	if g.Xi == 0 {
		return -math.Log(g.Sigma) - z
	}
	if g.Xi == -1 {
		// Uniform on [μ, μ + σ]: the exponent 1 + 1/ξ is 0, and at the
		// end 0 · log 0 would give NaN.
		return -math.Log(g.Sigma)
	}
	return -math.Log(g.Sigma) - (1+1/g.Xi)*math.Log1p(g.Xi*z)
}

// CDF returns P(X <= x).
func (g GeneralizedPareto) CDF(x float64) float64 { return 1 - g.Survival(x) }

// Survival returns P(X > x).
func (g GeneralizedPareto) Survival(x float64) float64 {
	z := (x - g.Mu) / g.Sigma
	if z <= 0 {
		return 1
	}
	if g.Xi == 0 {
		return math.Exp(-z)
	}
	if g.Xi < 0 && z >= -1/g.Xi {
		return 0
	}
	return math.Exp(-math.Log1p(g.Xi*z) / g.Xi)
}

// Quantile returns μ + σ((1−p)^(−ξ) − 1)/ξ. It panics if p is outside [0, 1].
func (g GeneralizedPareto) Quantile(p float64) float64 {
	checkQuantileArg(p)
	if g.Xi == 0 {
		return g.Mu - g.Sigma*math.Log1p(-p)
	}
	return g.Mu + g.Sigma*math.Expm1(-g.Xi*math.Log1p(-p))/g.Xi
}

// Rand returns a random sample by inversion.
func (g GeneralizedPareto) Rand() float64 {
	if g.Src == nil {
		panic(errNilSrc)
	}
	return g.Quantile(g.Src.Float64())
}

// Mean returns μ + σ/(1−ξ) for ξ < 1 and +Inf otherwise.
func (g GeneralizedPareto) Mean() float64 {
	if g.Xi >= 1 {
		return math.Inf(1)
	}
	return g.Mu + g.Sigma/(1-g.Xi)
}

// Variance returns σ²/((1−ξ)²(1−2ξ)) for ξ < 1/2 and +Inf otherwise.
func (g GeneralizedPareto) Variance() float64 {
	if g.Xi >= 0.5 {
		return math.Inf(1)
	}
	return g.Sigma * g.Sigma / ((1 - g.Xi) * (1 - g.Xi) * (1 - 2*g.Xi))
}

// NumParameters returns 3.
func (GeneralizedPareto) NumParameters() int { return 3 }
