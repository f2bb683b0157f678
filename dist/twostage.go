package dist

import (
	"math"
	"math/rand/v2"
)

// TwoStageUniform is the two-stage (two-phase) uniform distribution TSU(l, m,
// h, p) of Lublin and Feitelson, The workload on parallel supercomputers, JPDC
// 63(11), 2003, section 3.1: its CDF is two straight segments through (Low,
// 0), (Med, P) and (High, 1). With probability P a value is uniform on [Low,
// Med], otherwise uniform on [Med, High]. The Lublin-Feitelson model uses it
// for log2 of the size of parallel jobs (Lublin and Feitelson (2003), section
// 4).
type TwoStageUniform struct {
	// Low, Med and High are l <= m <= h; Low < High.
	Low, Med, High float64
	// P is the probability mass on [Low, Med], in [0, 1].
	P float64
	// Src is the source of randomness for Rand; Rand panics if it is nil.
	Src *rand.Rand
}

// Prob returns the density at x: P/(m−l) on [l, m), (1−P)/(h−m) on [m, h].
func (t TwoStageUniform) Prob(x float64) float64 {
	switch {
	case x < t.Low || x > t.High:
		return 0
	case x < t.Med:
		return t.P / (t.Med - t.Low)
	case t.High > t.Med:
		return (1 - t.P) / (t.High - t.Med)
	}
	return 0
}

// LogProb returns the logarithm of the density at x.
func (t TwoStageUniform) LogProb(x float64) float64 { return math.Log(t.Prob(x)) }

// CDF returns P(X <= x) (Lublin and Feitelson (2003), section 3.1).
func (t TwoStageUniform) CDF(x float64) float64 {
	switch {
	case x < t.Low:
		return 0
	case x >= t.High:
		return 1
	case x <= t.Med:
		if t.Med == t.Low {
			return t.P
		}
		return t.P * (x - t.Low) / (t.Med - t.Low)
	}
	return t.P + (1-t.P)*(x-t.Med)/(t.High-t.Med)
}

// Survival returns P(X > x).
func (t TwoStageUniform) Survival(x float64) float64 { return 1 - t.CDF(x) }

// Quantile returns the inverse of the CDF. It panics if p is outside [0, 1].
func (t TwoStageUniform) Quantile(p float64) float64 {
	checkQuantileArg(p)
	if p <= t.P && t.P > 0 {
		return t.Low + p/t.P*(t.Med-t.Low)
	}
	if t.P == 1 {
		return t.Med
	}
	return t.Med + (p-t.P)/(1-t.P)*(t.High-t.Med)
}

// Rand returns a random sample the way the reference program's
// two_stage_uniform does (lublin99.c, which Lublin and Feitelson (2003)
// publish with the paper): a first uniform draw u picks the stage (u <= P
// selects [Low, Med]) and a second one the position in it.
func (t TwoStageUniform) Rand() float64 {
	if t.Src == nil {
		panic(errNilSrc)
	}
	if t.Src.Float64() <= t.P {
		return t.Low + t.Src.Float64()*(t.Med-t.Low)
	}
	return t.Med + t.Src.Float64()*(t.High-t.Med)
}

// Mean returns (P·l + m + (1−P)·h)/2, as the reference program's comment gives
// it.
func (t TwoStageUniform) Mean() float64 {
	return (t.P*t.Low + t.Med + (1-t.P)*t.High) / 2
}

// Variance returns the variance of the distribution.
func (t TwoStageUniform) Variance() float64 {
	l, m, h := t.Low, t.Med, t.High
	e2 := t.P*(l*l+l*m+m*m)/3 + (1-t.P)*(m*m+m*h+h*h)/3
	mu := t.Mean()
	return e2 - mu*mu
}

// NumParameters returns 4.
func (TwoStageUniform) NumParameters() int { return 4 }
