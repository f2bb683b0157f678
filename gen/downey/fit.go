package downey

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// Fit is a uniform-log lifetime model fitted to a sample as Downey fits it
// (IPPS 1997, section 3): a least-squares line through the empirical
// cumulative distribution against ln t, omitting the shortest and longest
// Trim fraction of the jobs.
type Fit struct {
	Intercept float64 // β0
	Slope     float64 // β1
	RSquared  float64 // of the regression, over the points used
	Jobs      int     // sample size, before trimming
	Used      int     // points in the regression
	Trim      float64 // fraction omitted at each end
}

// MinRuntime is t_min = exp(-β0/β1) of the fitted model, in seconds.
func (f Fit) MinRuntime() float64 { return math.Exp(-f.Intercept / f.Slope) }

// MaxRuntime is t_max = exp((1-β0)/β1) of the fitted model, in seconds.
func (f Fit) MaxRuntime() float64 { return math.Exp((1 - f.Intercept) / f.Slope) }

// FitLifetimes fits the uniform-log lifetime model to runtimes (seconds),
// omitting the trim fraction of jobs at each end (the paper omits 10%:
// trim 0.1). Runtimes of 0 s, whose logarithm is undefined, are counted in
// the distribution but never fall in the regression when trim leaves them
// out; the fit fails when one would be used. The empirical CDF of the i-th
// smallest of n runtimes (1-based) is i/n; tied runtimes share the CDF of
// the last of them, so every distinct runtime is one point.
func FitLifetimes(runtimes []float64, trim float64) (Fit, error) {
	if !(trim >= 0 && trim < 0.5) {
		return Fit{}, fmt.Errorf("downey: trim must be in [0, 0.5), got %g", trim)
	}
	n := len(runtimes)
	if n < 3 {
		return Fit{}, fmt.Errorf("downey: need at least 3 runtimes to fit, got %d", n)
	}
	rt := slices.Clone(runtimes)
	slices.Sort(rt)
	if math.IsNaN(rt[0]) || rt[0] < 0 || math.IsInf(rt[n-1], 0) {
		return Fit{}, errors.New("downey: runtimes must be finite and not negative")
	}
	lo, hi := int(math.Floor(trim*float64(n))), int(math.Ceil((1-trim)*float64(n)))
	var x, y []float64
	for i := lo; i < hi; i++ {
		if i+1 < n && rt[i+1] == rt[i] {
			continue // the last of a run of ties carries the CDF
		}
		if rt[i] <= 0 {
			return Fit{}, fmt.Errorf("downey: a runtime of %g s falls within the fitted range; raise the trim", rt[i])
		}
		x = append(x, math.Log(rt[i]))
		y = append(y, float64(i+1)/float64(n))
	}
	if len(x) < 2 {
		return Fit{}, errors.New("downey: fewer than 2 distinct runtimes in the fitted range")
	}
	a, b := stat.LinearRegression(x, y, nil, false)
	if !(b > 0) {
		return Fit{}, fmt.Errorf("downey: the fitted slope %g is not positive", b)
	}
	return Fit{Intercept: a, Slope: b, RSquared: stat.RSquared(x, y, nil, a, b), Jobs: n, Used: len(x), Trim: trim}, nil
}
