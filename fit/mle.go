package fit

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/optimize"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/hpcwl/hpcwl/dist"
)

// Exponential returns the maximum-likelihood exponential fit: the rate is the
// reciprocal of the (weighted) mean, θ̂ = mean (Lublin and Feitelson, The
// workload on parallel supercomputers, JPDC 63(11), 2003, section 3.2.2).
// Values must be >= 0 with a positive mean.
func Exponential(x, weights []float64) (distuv.Exponential, Result, error) {
	checkWeights(x, weights)
	if err := needN("exponential", x, 1); err != nil {
		return distuv.Exponential{}, Result{}, err
	}
	m := stat.Mean(x, weights)
	for i, v := range x {
		if v < 0 {
			return distuv.Exponential{}, Result{}, fmt.Errorf("%w: exponential needs values >= 0, x[%d] = %v", ErrDomain, i, v)
		}
	}
	if !(m > 0) {
		return distuv.Exponential{}, Result{}, fmt.Errorf("%w: exponential needs a positive mean", ErrDomain)
	}
	d := distuv.Exponential{Rate: 1 / m}
	ll, n := logLik(x, weights, d.LogProb)
	return d, Result{Status: Converged, LogLikelihood: ll, N: n, NumParameters: 1}, nil
}

// Gamma returns the maximum-likelihood Gamma fit of positive values, as a
// gonum distuv.Gamma (whose Beta is the rate; the scale is 1/Beta). The shape
// solves ln α − ψ(α) = ln m − g, with m the weighted mean and g the weighted
// mean of ln x, by Newton's method from the closed-form start α0 = (3 − s +
// √((s−3)² + 24s))/(12s) (the usual closed-form approximation; our choice, as
// Lublin and Feitelson (2003), section 3.2, do not say how they solve for α).
func Gamma(x, weights []float64) (distuv.Gamma, Result, error) {
	checkWeights(x, weights)
	if err := needN("gamma", x, 2); err != nil {
		return distuv.Gamma{}, Result{}, err
	}
	if err := needPositive("gamma", x); err != nil {
		return distuv.Gamma{}, Result{}, err
	}
	shape, scale, it, err := gammaMLE(x, weights)
	if err != nil {
		return distuv.Gamma{}, Result{}, err
	}
	d := distuv.Gamma{Alpha: shape, Beta: 1 / scale}
	ll, n := logLik(x, weights, d.LogProb)
	return d, Result{Status: Converged, LogLikelihood: ll, N: n, NumParameters: 2, Iterations: it}, nil
}

// gammaMLE returns the weighted Gamma MLE as shape and scale. Values must be
// positive and weights non-negative with a positive total.
func gammaMLE(x, w []float64) (shape, scale float64, iter int, err error) {
	return gammaMLELog(x, nil, w)
}

// gammaMLELog is gammaMLE with the logarithms of x precomputed in lx (nil:
// computed here), which saves most of the work of an EM M-step.
func gammaMLELog(x, lx, w []float64) (shape, scale float64, iter int, err error) {
	var sw, sx, slx float64
	for i, v := range x {
		wi := weight(w, i)
		sw += wi
		sx += wi * v
		if lx != nil {
			slx += wi * lx[i]
		} else {
			slx += wi * math.Log(v)
		}
	}
	if !(sw > 0) {
		return 0, 0, 0, fmt.Errorf("%w: gamma needs a positive total weight", ErrTooFew)
	}
	m := sx / sw
	s := math.Log(m) - slx/sw
	if !(s > 1e-12) {
		return 0, 0, 0, fmt.Errorf("%w: gamma needs values that are not all equal", ErrDomain)
	}
	a := (3 - s + math.Sqrt((s-3)*(s-3)+24*s)) / (12 * s)
	for iter = 1; iter <= 100; iter++ {
		f := math.Log(a) - mathext.Digamma(a) - s
		df := 1/a - trigamma(a)
		next := a - f/df
		if next <= 0 {
			next = a / 2
		}
		done := math.Abs(next-a) <= 1e-12*a
		a = next
		if done {
			break
		}
	}
	return a, m / a, iter, nil
}

// LogNormal returns the maximum-likelihood lognormal fit of positive values:
// μ and σ are the (weighted) mean and the maximum-likelihood (biased)
// standard deviation of ln x.
func LogNormal(x, weights []float64) (distuv.LogNormal, Result, error) {
	checkWeights(x, weights)
	if err := needN("lognormal", x, 2); err != nil {
		return distuv.LogNormal{}, Result{}, err
	}
	if err := needPositive("lognormal", x); err != nil {
		return distuv.LogNormal{}, Result{}, err
	}
	lx := make([]float64, len(x))
	for i, v := range x {
		lx[i] = math.Log(v)
	}
	mu, sd := stat.PopMeanStdDev(lx, weights)
	if !(sd > 0) {
		return distuv.LogNormal{}, Result{}, fmt.Errorf("%w: lognormal needs values that are not all equal", ErrDomain)
	}
	d := distuv.LogNormal{Mu: mu, Sigma: sd}
	ll, n := logLik(x, weights, d.LogProb)
	return d, Result{Status: Converged, LogLikelihood: ll, N: n, NumParameters: 2}, nil
}

// Weibull returns the maximum-likelihood Weibull fit of positive values. The
// shape k solves Σw x^k ln x / Σw x^k − 1/k − mean(ln x) = 0 (increasing in
// k) by bisection on ln k over [1e-3, 1e3]; the scale is
// (Σw x^k / Σw)^(1/k).
func Weibull(x, weights []float64) (distuv.Weibull, Result, error) {
	checkWeights(x, weights)
	if err := needN("weibull", x, 2); err != nil {
		return distuv.Weibull{}, Result{}, err
	}
	if err := needPositive("weibull", x); err != nil {
		return distuv.Weibull{}, Result{}, err
	}
	// Work with y = x/max to keep x^k finite.
	xmax := 0.0
	for _, v := range x {
		xmax = math.Max(xmax, v)
	}
	ly := make([]float64, len(x))
	var sw, mly float64
	for i, v := range x {
		ly[i] = math.Log(v / xmax)
		sw += weight(weights, i)
		mly += weight(weights, i) * ly[i]
	}
	mly /= sw
	g := func(k float64) (float64, float64) {
		var s0, s1 float64
		for i, l := range ly {
			e := weight(weights, i) * math.Exp(k*l)
			s0 += e
			s1 += e * l
		}
		return s1/s0 - 1/k - mly, s0 / sw
	}
	lo, hi := math.Log(1e-3), math.Log(1e3)
	if v, _ := g(math.Exp(hi)); v < 0 {
		return distuv.Weibull{}, Result{}, fmt.Errorf("%w: weibull needs values that are not all equal", ErrDomain)
	}
	it := 0
	for ; it < 200 && hi-lo > 1e-12; it++ {
		mid := (lo + hi) / 2
		if v, _ := g(math.Exp(mid)); v < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	k := math.Exp((lo + hi) / 2)
	_, m := g(k)
	d := distuv.Weibull{K: k, Lambda: xmax * math.Pow(m, 1/k)}
	ll, n := logLik(x, weights, d.LogProb)
	return d, Result{Status: Converged, LogLikelihood: ll, N: n, NumParameters: 2, Iterations: it}, nil
}

// minimize runs gonum's Nelder-Mead on f from x0 and maps its status.
func minimize(f func([]float64) float64, x0 []float64, s *Settings) ([]float64, Status, int) {
	settings := &optimize.Settings{MajorIterations: s.maxIter() * 10, Converger: &optimize.FunctionConverge{Absolute: 1e-10, Relative: 1e-12, Iterations: 50}}
	res, err := optimize.Minimize(optimize.Problem{Func: f}, x0, settings, &optimize.NelderMead{})
	if res == nil {
		return x0, Failure, 0
	}
	st := Converged
	if err != nil || res.Status == optimize.IterationLimit || res.Status == optimize.FunctionEvaluationLimit {
		st = IterationLimit
		if err != nil && res.Status != optimize.IterationLimit {
			st = Failure
		}
	}
	return res.X, st, res.Stats.MajorIterations
}

// LogLogistic returns the maximum-likelihood log-logistic fit of positive
// values (unweighted when weights is nil), by Nelder-Mead on (ln α, ln β)
// from the moment estimates of ln x (median, π/(√3·sd)).
func LogLogistic(x, weights []float64, s *Settings) (dist.LogLogistic, Result, error) {
	checkWeights(x, weights)
	if err := needN("log-logistic", x, 2); err != nil {
		return dist.LogLogistic{}, Result{}, err
	}
	if err := needPositive("log-logistic", x); err != nil {
		return dist.LogLogistic{}, Result{}, err
	}
	lx := make([]float64, len(x))
	for i, v := range x {
		lx[i] = math.Log(v)
	}
	mu, sd := stat.MeanStdDev(lx, weights)
	if !(sd > 0) {
		return dist.LogLogistic{}, Result{}, fmt.Errorf("%w: log-logistic needs values that are not all equal", ErrDomain)
	}
	nll := func(p []float64) float64 {
		d := dist.LogLogistic{Alpha: math.Exp(p[0]), Beta: math.Exp(p[1])}
		ll, _ := logLik(x, weights, d.LogProb)
		return -ll
	}
	p, st, it := minimize(nll, []float64{mu, math.Log(math.Pi / (math.Sqrt(3) * sd))}, s)
	d := dist.LogLogistic{Alpha: math.Exp(p[0]), Beta: math.Exp(p[1])}
	ll, n := logLik(x, weights, d.LogProb)
	r := Result{Status: st, LogLikelihood: ll, N: n, NumParameters: 2, Iterations: it}
	return d, r, st.Err()
}

// GeneralizedPareto returns the maximum-likelihood generalized Pareto fit of
// the values above the fixed location mu (values below mu are an error), by
// Nelder-Mead on (ln σ, ξ) from the method-of-moments start
// ξ0 = (1 − m²/v)/2, σ0 = m(m²/v + 1)/2 of the excesses. The search keeps
// ξ >= −1: below it the likelihood has no maximum (it grows without bound
// as σ/|ξ| approaches the largest excess), so a bounded sample (uniform
// excesses, ξ = −1) is fitted at the edge, not at an infinite likelihood.
func GeneralizedPareto(x, weights []float64, mu float64, s *Settings) (dist.GeneralizedPareto, Result, error) {
	checkWeights(x, weights)
	if err := needN("generalized Pareto", x, 3); err != nil {
		return dist.GeneralizedPareto{}, Result{}, err
	}
	ex := make([]float64, len(x))
	for i, v := range x {
		if v < mu || math.IsInf(v, 0) || math.IsNaN(v) {
			return dist.GeneralizedPareto{}, Result{}, fmt.Errorf("%w: generalized Pareto needs values >= location %v, x[%d] = %v", ErrDomain, mu, i, v)
		}
		ex[i] = v - mu
	}
	m, v := stat.MeanVariance(ex, weights)
	if !(v > 0) {
		return dist.GeneralizedPareto{}, Result{}, fmt.Errorf("%w: generalized Pareto needs values that are not all equal", ErrDomain)
	}
	sigma0, xi0 := gpdStart(m, v, floats.Max(ex))
	nll := func(p []float64) float64 {
		if p[1] < -1 {
			return math.MaxFloat64
		}
		d := dist.GeneralizedPareto{Mu: mu, Sigma: math.Exp(p[0]), Xi: p[1]}
		ll, _ := logLik(x, weights, d.LogProb)
		if math.IsNaN(ll) || math.IsInf(ll, -1) {
			return math.MaxFloat64
		}
		return -ll
	}
	p, st, it := minimize(nll, []float64{math.Log(sigma0), xi0}, s)
	d := dist.GeneralizedPareto{Mu: mu, Sigma: math.Exp(p[0]), Xi: p[1]}
	ll, n := logLik(x, weights, d.LogProb)
	r := Result{Status: st, LogLikelihood: ll, N: n, NumParameters: 2, Iterations: it}
	return d, r, st.Err()
}

// gpdStart returns the generalized Pareto search's start from the mean m,
// variance v and largest value hi of the excesses: the method of moments,
// ξ0 = (1 − m²/v)/2, σ0 = m(m²/v + 1)/2, moved where the search can leave
// it. The moments of a bounded sample can put ξ0 below −1 (it is raised to
// −0.9), and a negative ξ0 needs σ0/|ξ0| above the largest excess, else the
// likelihood is 0 there and at every point near it (σ0 is raised to 1.01
// |ξ0| hi).
func gpdStart(m, v, hi float64) (sigma0, xi0 float64) {
	xi0 = 0.5 * (1 - m*m/v)
	sigma0 = 0.5 * m * (m*m/v + 1)
	xi0 = max(xi0, -0.9)
	if xi0 < 0 {
		sigma0 = max(sigma0, -xi0*hi*1.01)
	}
	return sigma0, xi0
}

// Zipf returns the maximum-likelihood Zipf exponent for integer values >= 1
// (our choice for the bag-of-tasks sizes of T. N. Minh, L. Wolters and D.
// Epema, A realistic integrated model of parallel system workloads, CCGrid
// 2010, section VI-C, which fit a Zipf law without giving the method): it
// maximises ℓ(α) = −α Σ ln x_i − n ln Σ_{k=1}^{max} k^(−α) by golden-section
// search on α ∈ [0.01, 10] (truncated, max > 0) or α ∈ [1.001, 10] (zeta, max
// == 0). With max > 0, values above max are an error; use the largest observed
// value as max for the truncated fit of Minh, Wolters and Epema (2010),
// section VI-C.
func Zipf(x []float64, max int) (dist.Zipf, Result, error) {
	if err := needN("zipf", x, 1); err != nil {
		return dist.Zipf{}, Result{}, err
	}
	var sl float64
	distinct := false
	for i, v := range x {
		if v < 1 || v != math.Floor(v) || (max > 0 && v > float64(max)) {
			return dist.Zipf{}, Result{}, fmt.Errorf("%w: zipf needs integers in [1, %d], x[%d] = %v", ErrDomain, max, i, v)
		}
		sl += math.Log(v)
		distinct = distinct || v != x[0]
	}
	if !distinct && x[0] == 1 {
		return dist.Zipf{}, Result{}, fmt.Errorf("%w: zipf exponent is unbounded when every value is 1", ErrDomain)
	}
	n := float64(len(x))
	nll := func(a float64) float64 {
		return a*sl + n*dist.Zipf{Alpha: a, Max: max}.LogNorm()
	}
	lo := 0.01
	if max == 0 {
		lo = 1.001
	}
	a, it := goldenMin(nll, lo, 10, 1e-9)
	z := dist.NewZipf(a, max, nil)
	return z, Result{Status: Converged, LogLikelihood: -nll(a), N: n, NumParameters: 1, Iterations: it}, nil
}
