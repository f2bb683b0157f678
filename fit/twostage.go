package fit

import (
	"fmt"
	"math"
	"sort"

	"github.com/hpcwl/hpcwl/dist"
)

// TwoStageUniformOptions fixes parameters of [TwoStageUniform]. A NaN field
// (the zero value is not NaN; use [FreeTSU]) is estimated.
type TwoStageUniformOptions struct {
	// Low fixes l; NaN estimates it (l <= min x).
	Low float64
	// High fixes h; NaN estimates it (h >= max x). The Lublin-Feitelson model
	// ties h to the machine, h = log2 P (Lublin and Feitelson, The workload on
	// parallel supercomputers, JPDC 63(11), 2003, section 4.3).
	High float64
}

// FreeTSU returns options that estimate all four parameters.
func FreeTSU() TwoStageUniformOptions {
	return TwoStageUniformOptions{Low: math.NaN(), High: math.NaN()}
}

// TwoStageUniform fits TSU(l, m, h, p) to x by minimising the
// Kolmogorov-Smirnov distance between the model CDF and the empirical CDF, the
// criterion Lublin and Feitelson report for it (Table 1 and section 4.3 of
// their 2003 paper; they fit CDFs, not moments, section 1). The search is
// Nelder-Mead over an unconstrained reparametrisation (l = min − e^a, h = max
// + e^b, m between l and h through a logistic, p logistic), restarted from
// several medians. The returned Result's LogLikelihood is that of x under the
// fit (−Inf if some value falls outside [l, h]); the KS distance is returned
// separately.
func TwoStageUniform(x []float64, opt TwoStageUniformOptions, s *Settings) (dist.TwoStageUniform, float64, Result, error) {
	if err := needN("two-stage uniform", x, 4); err != nil {
		return dist.TwoStageUniform{}, 0, Result{}, err
	}
	sorted := append([]float64(nil), x...)
	sort.Float64s(sorted)
	lo, hi := sorted[0], sorted[len(sorted)-1]
	if !(hi > lo) {
		return dist.TwoStageUniform{}, 0, Result{}, fmt.Errorf("%w: two-stage uniform needs values that are not all equal", ErrDomain)
	}
	if !math.IsNaN(opt.Low) && opt.Low > lo {
		return dist.TwoStageUniform{}, 0, Result{}, fmt.Errorf("%w: fixed Low %v is above the smallest value %v", ErrDomain, opt.Low, lo)
	}
	if !math.IsNaN(opt.High) && opt.High < hi {
		return dist.TwoStageUniform{}, 0, Result{}, fmt.Errorf("%w: fixed High %v is below the largest value %v", ErrDomain, opt.High, hi)
	}
	u, cnt := uniqueCounts(sorted)
	span := hi - lo
	decode := func(v []float64) dist.TwoStageUniform {
		l, h := opt.Low, opt.High
		if math.IsNaN(l) {
			l = lo - span*math.Exp(v[2])
		}
		if math.IsNaN(h) {
			h = hi + span*math.Exp(v[3])
		}
		return dist.TwoStageUniform{Low: l, Med: l + (h-l)*logistic(v[0]), High: h, P: logistic(v[1])}
	}
	obj := func(v []float64) float64 { return ksUnique(u, cnt, len(x), decode(v).CDF) }
	best, bestD := dist.TwoStageUniform{}, math.Inf(1)
	status, iters := Converged, 0
	for _, q := range []float64{0.5, 0.7, 0.85} {
		m0 := sorted[int(q*float64(len(sorted)-1))]
		l0, h0 := opt.Low, opt.High
		if math.IsNaN(l0) {
			l0 = lo - 0.1*span
		}
		if math.IsNaN(h0) {
			h0 = hi + 0.01*span
		}
		fm := math.Min(math.Max((m0-l0)/(h0-l0), 0.05), 0.95)
		start := []float64{logit(fm), logit(math.Min(math.Max(q, 0.05), 0.95)), math.Log(0.1), math.Log(0.01)}
		v, st, it := minimize(obj, start, s)
		iters += it
		if d := obj(v); d < bestD {
			best, bestD, status = decode(v), d, st
		}
	}
	ll, n := logLik(x, nil, best.LogProb)
	if status == Failure {
		return best, bestD, Result{Status: status, LogLikelihood: ll, N: n, NumParameters: 4, Iterations: iters}, status.Err()
	}
	// Nelder-Mead on a non-smooth objective often stops on its iteration
	// budget close to the optimum; the best point found is still reported
	// as converged because the KS distance, not a gradient, is the target.
	return best, bestD, Result{Status: Converged, LogLikelihood: ll, N: n, NumParameters: 4, Iterations: iters}, nil
}

func logistic(v float64) float64 { return 1 / (1 + math.Exp(-v)) }
func logit(p float64) float64    { return math.Log(p / (1 - p)) }

// uniqueCounts returns the distinct values of a sorted slice and the
// cumulative count of values <= each.
func uniqueCounts(sorted []float64) (u []float64, cum []int) {
	for i, v := range sorted {
		if len(u) > 0 && u[len(u)-1] == v {
			cum[len(cum)-1] = i + 1
			continue
		}
		u = append(u, v)
		cum = append(cum, i+1)
	}
	return u, cum
}

// ksUnique returns the KS distance of the sample described by its distinct
// values and cumulative counts from cdf.
func ksUnique(u []float64, cum []int, n int, cdf func(float64) float64) float64 {
	d, prev := 0.0, 0
	fn := float64(n)
	for i, v := range u {
		f := cdf(v)
		d = math.Max(d, math.Max(f-float64(prev)/fn, float64(cum[i])/fn-f))
		prev = cum[i]
	}
	return d
}
