package dist

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// HyperGamma is a mixture of two Gamma distributions: with probability P a
// value is drawn from Gamma(Shape1, Scale1), otherwise from Gamma(Shape2,
// Scale2) (Lublin and Feitelson, The workload on parallel supercomputers, JPDC
// 63(11), 2003, section 3.1). It generalises the hyper-exponential (both
// shapes 1) and the hyper-Erlang (integer shapes). The Lublin-Feitelson model
// uses it for ln(runtime) (Lublin and Feitelson (2003), sections 5 and 6.3),
// with the first component the lower ("short jobs") one.
//
// The Gamma parameters are shape and scale, the paper's and the reference
// program's convention: component i has mean Shape_i·Scale_i. Note that
// gonum's distuv.Gamma takes the rate 1/Scale.
type HyperGamma struct {
	// Shape1 and Scale1 are the shape α1 > 0 and scale β1 > 0 of the
	// first component.
	Shape1, Scale1 float64
	// Shape2 and Scale2 are the shape α2 > 0 and scale β2 > 0 of the
	// second component.
	Shape2, Scale2 float64
	// P is the weight of the first component, in [0, 1].
	P float64
	// Src is the source of randomness for Rand; Rand panics if it is nil.
	Src *rand.Rand
}

// Component returns component i (0 or 1) as a gonum Gamma sharing Src.
func (h HyperGamma) Component(i int) distuv.Gamma {
	switch i {
	case 0:
		return distuv.Gamma{Alpha: h.Shape1, Beta: 1 / h.Scale1, Src: src(h.Src)}
	case 1:
		return distuv.Gamma{Alpha: h.Shape2, Beta: 1 / h.Scale2, Src: src(h.Src)}
	}
	panic("dist: hyper-Gamma component index out of range")
}

// src converts a possibly nil *rand.Rand into a rand.Source without turning a
// nil pointer into a non-nil interface.
func src(r *rand.Rand) rand.Source {
	if r == nil {
		return nil
	}
	return r
}

// Prob returns the probability density at x.
func (h HyperGamma) Prob(x float64) float64 {
	return h.P*h.Component(0).Prob(x) + (1-h.P)*h.Component(1).Prob(x)
}

// LogProb returns the natural logarithm of the density at x.
func (h HyperGamma) LogProb(x float64) float64 {
	return logSumExp([]float64{
		math.Log(h.P) + h.Component(0).LogProb(x),
		math.Log1p(-h.P) + h.Component(1).LogProb(x),
	})
}

// CDF returns P(X <= x).
func (h HyperGamma) CDF(x float64) float64 {
	return h.P*h.Component(0).CDF(x) + (1-h.P)*h.Component(1).CDF(x)
}

// Survival returns P(X > x).
func (h HyperGamma) Survival(x float64) float64 {
	return h.P*h.Component(0).Survival(x) + (1-h.P)*h.Component(1).Survival(x)
}

// Quantile returns the inverse of the CDF, found by bisection between the
// component quantiles. It panics if p is outside [0, 1].
func (h HyperGamma) Quantile(p float64) float64 {
	checkQuantileArg(p)
	if p == 0 {
		return 0
	}
	if p == 1 {
		return math.Inf(1)
	}
	return mixtureQuantile(p, h.CDF, h.Component(0).Quantile(p), h.Component(1).Quantile(p))
}

// Rand returns a random sample, choosing the first component when a uniform
// draw is at most P, as the reference program's hyper_gamma does (lublin99.c,
// the generator Lublin and Feitelson (2003) publish with the paper).
func (h HyperGamma) Rand() float64 {
	if h.Src == nil {
		panic(errNilSrc)
	}
	if h.Src.Float64() <= h.P {
		return h.Component(0).Rand()
	}
	return h.Component(1).Rand()
}

// Mean returns p·α1β1 + (1−p)·α2β2.
func (h HyperGamma) Mean() float64 {
	return h.P*h.Shape1*h.Scale1 + (1-h.P)*h.Shape2*h.Scale2
}

// Variance returns the variance of the mixture, p(α1β1² + α1²β1²) +
// (1−p)(α2β2² + α2²β2²) − mean²; the reference program's comment gives a
// different formula, p²α1β1² + (1−p)²α2β2², which is not the variance of the
// mixture.
func (h HyperGamma) Variance() float64 {
	m := h.Mean()
	s1 := h.Shape1 * h.Scale1 * h.Scale1 * (1 + h.Shape1)
	s2 := h.Shape2 * h.Scale2 * h.Scale2 * (1 + h.Shape2)
	return h.P*s1 + (1-h.P)*s2 - m*m
}

// NumParameters returns 5.
func (HyperGamma) NumParameters() int { return 5 }

// HyperErlang returns the hyper-Erlang approximation of h used to speed up
// sampling (Lublin and Feitelson (2003), section 5.2): each shape is rounded
// to the nearest integer (at least 1) and its scale adjusted to keep the
// component mean, β′ = αβ/round(α).
func (h HyperGamma) HyperErlang() HyperErlang {
	r1 := math.Max(1, math.Round(h.Shape1))
	r2 := math.Max(1, math.Round(h.Shape2))
	return HyperErlang{
		Weights: []float64{h.P, 1 - h.P},
		Orders:  []int{int(r1), int(r2)},
		Scales:  []float64{h.Shape1 * h.Scale1 / r1, h.Shape2 * h.Scale2 / r2},
		Src:     h.Src,
	}
}
