package dist

import "math"

// component is one part of a finite mixture (a gonum distribution).
type component interface {
	LogProb(x float64) float64
	Quantile(p float64) float64
}

// weighted returns Σ_k w[k] f(comp(k)), a mixture's density, CDF or
// survival function from its components'.
func weighted[C component](w []float64, comp func(int) C, f func(C) float64) float64 {
	s := 0.0
	for k, wk := range w {
		s += wk * f(comp(k))
	}
	return s
}

// weightedLogProb returns log Σ_k w[k] p_k(x) without underflow.
func weightedLogProb[C component](w []float64, comp func(int) C, x float64) float64 {
	v := make([]float64, len(w))
	for k, wk := range w {
		v[k] = math.Log(wk) + comp(k).LogProb(x)
	}
	return logSumExp(v)
}

// quantileRange returns the smallest and largest p-quantile of the
// components with a positive weight: the mixture's p-quantile lies between
// them.
func quantileRange[C component](w []float64, comp func(int) C, p float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for k, wk := range w {
		if wk == 0 {
			continue
		}
		q := comp(k).Quantile(p)
		lo, hi = math.Min(lo, q), math.Max(hi, q)
	}
	return lo, hi
}
