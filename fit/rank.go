package fit

import (
	"fmt"
	"math"
	"sort"

	"github.com/hpcwl/hpcwl/dist"
	"github.com/hpcwl/hpcwl/stats"
)

// Candidate is one distribution fitted by [Rank].
type Candidate struct {
	// Name identifies the family: one of [CandidateNames].
	Name string `json:"name"`
	// Dist is the fitted distribution (nil when Err is set).
	Dist dist.Continuous `json:"-"`
	// Params holds the fitted parameters by name.
	Params map[string]float64 `json:"params,omitempty"`
	// Result describes the fit.
	Result Result `json:"result"`
	// KS is the one-sample Kolmogorov-Smirnov test of the fit.
	KS stats.KSResult `json:"ks"`
	// AD is the Anderson-Darling test of the fit, more sensitive than KS in
	// the tails.
	AD stats.ADResult `json:"ad"`
	// ChiSquare is the chi-square test on [ChiSquareBins] bins of equal
	// probability under the fit, with the fitted parameters subtracted from
	// the degrees of freedom.
	ChiSquare stats.ChiSquareResult `json:"chi_square"`
	// AIC and BIC are the information criteria (smaller is better).
	AIC float64 `json:"aic"`
	BIC float64 `json:"bic"`
	// Degenerate says why the fit, although it was computed, describes the
	// sample badly whatever its statistics say, or "" for a regular fit: a
	// constant sample, an infinite or NaN likelihood, a generalized Pareto
	// whose shape stopped at its bound −1 (below it the likelihood is
	// unbounded; see [GPDShapeBound]), a mixture with a part
	// collapsed onto one repeated value. Degenerate fits rank after the
	// regular ones; their statistics that are not finite are zero, as are
	// those of failed fits, and their parameters that are not finite are
	// left out, so that no output holds Inf or NaN.
	Degenerate string `json:"degenerate,omitempty"`
	// Err is why the family could not be fitted.
	Err error `json:"-"`
	// Error is Err as text, for JSON output.
	Error string `json:"error,omitempty"`
}

// CandidateNames lists the families [Rank] fits, in its default order.
var CandidateNames = []string{
	"exponential", "gamma", "lognormal", "weibull", "loglogistic",
	"gpd", "hyperexponential", "hypergamma",
}

// ChiSquareBins returns the number of equal-probability bins of the
// chi-square test of [Rank] for n values: 2·n^0.4 (the usual rule of
// thumb), between 5 and 100.
func ChiSquareBins(n int) int {
	return max(5, min(100, int(math.Round(2*math.Pow(float64(n), 0.4)))))
}

// equiprobableChiSquare bins the sorted values by F(x) into k bins of
// probability 1/k under the model and compares the counts with n/k.
func equiprobableChiSquare(sorted []float64, cdf func(float64) float64, estimated int) stats.ChiSquareResult {
	k := ChiSquareBins(len(sorted))
	obs := make([]float64, k)
	for _, v := range sorted {
		obs[min(k-1, max(0, int(cdf(v)*float64(k))))]++
	}
	exp := make([]float64, k)
	for i := range exp {
		exp[i] = float64(len(sorted)) / float64(k)
	}
	return stats.ChiSquare(obs, exp, estimated)
}

// cachedCDF evaluates cdf once per distinct value of the sorted sample and
// answers later calls at those values from the table, so the KS,
// Anderson-Darling and chi-square tests share one pass of CDF evaluations
// (sizes and whole-second times repeat a lot).
func cachedCDF(sorted []float64, cdf func(float64) float64) func(float64) float64 {
	var u, f []float64
	for i, v := range sorted {
		if i == 0 || v != sorted[i-1] {
			u = append(u, v)
			f = append(f, cdf(v))
		}
	}
	return func(v float64) float64 {
		if i := sort.SearchFloat64s(u, v); i < len(u) && u[i] == v {
			return f[i]
		}
		return cdf(v)
	}
}

// Rank fits each named family (all of [CandidateNames] when names is nil)
// to the positive values x and returns the candidates ordered by KS
// distance, best first, each with its KS, Anderson-Darling and chi-square
// tests; families that cannot be fitted come last with Err set and zero
// tests, AIC and BIC. Degenerate fits (see [Candidate.Degenerate]) come
// after the regular ones and before the failures. The generalized Pareto is fitted with location 0, the
// hyper-exponential with two phases. An unknown name is an error.
func Rank(x []float64, names []string, s *Settings) ([]Candidate, error) {
	if names == nil {
		names = CandidateNames
	}
	out := make([]Candidate, 0, len(names))
	sorted := append([]float64(nil), x...)
	sort.Float64s(sorted)
	constant := len(sorted) > 0 && sorted[0] == sorted[len(sorted)-1]
	for _, name := range names {
		c := Candidate{Name: name}
		var err error
		switch name {
		case "exponential":
			d, r, e := Exponential(x, nil)
			c.Dist, c.Result, err = d, r, e
			c.Params = map[string]float64{"rate": d.Rate}
		case "gamma":
			d, r, e := Gamma(x, nil)
			c.Dist, c.Result, err = d, r, e
			c.Params = map[string]float64{"shape": d.Alpha, "scale": 1 / d.Beta}
		case "lognormal":
			d, r, e := LogNormal(x, nil)
			c.Dist, c.Result, err = d, r, e
			c.Params = map[string]float64{"mu": d.Mu, "sigma": d.Sigma}
		case "weibull":
			d, r, e := Weibull(x, nil)
			c.Dist, c.Result, err = d, r, e
			c.Params = map[string]float64{"shape": d.K, "scale": d.Lambda}
		case "loglogistic":
			d, r, e := LogLogistic(x, nil, s)
			c.Dist, c.Result, err = d, r, e
			c.Params = map[string]float64{"scale": d.Alpha, "shape": d.Beta}
		case "gpd":
			d, r, e := GeneralizedPareto(x, nil, 0, s)
			c.Dist, c.Result, err = d, r, e
			c.Params = map[string]float64{"location": d.Mu, "scale": d.Sigma, "shape": d.Xi}
		case "hyperexponential":
			d, r, e := HyperExponential(x, 2, s)
			c.Dist, c.Result, err = d, r, e
			if d.Weights != nil {
				c.Params = map[string]float64{"p": d.Weights[0], "rate1": d.Rates[0], "rate2": d.Rates[1]}
			}
		case "hypergamma":
			d, r, e := HyperGamma(x, s)
			c.Dist, c.Result, err = d, r, e
			c.Params = map[string]float64{"shape1": d.Shape1, "scale1": d.Scale1, "shape2": d.Shape2, "scale2": d.Scale2, "p": d.P}
		default:
			return nil, fmt.Errorf("unknown distribution %q (known: %v)", name, CandidateNames)
		}
		// An iteration limit still leaves a usable fit; anything else does not.
		if err != nil && c.Result.Status != IterationLimit {
			// Zero KS/AIC/BIC (not ±Inf, which JSON cannot encode); the
			// sort below puts failed candidates last.
			c.Err, c.Error, c.Dist, c.Params = err, err.Error(), nil, nil
		} else {
			if err != nil {
				c.Error = err.Error()
			}
			cdf := cachedCDF(sorted, c.Dist.CDF)
			c.KS = stats.KSOneSampleSorted(sorted, cdf)
			c.AD = stats.AndersonDarling(sorted, cdf)
			c.ChiSquare = equiprobableChiSquare(sorted, cdf, c.Result.NumParameters)
			c.AIC, c.BIC = c.Result.AIC(), c.Result.BIC()
			c.Degenerate = degenerate(&c)
			if constant {
				c.Degenerate = fmt.Sprintf("constant sample: every value is %g", sorted[0])
			}
		}
		if c.Err == nil {
			dropNonFinite(&c)
		}
		out = append(out, c)
	}
	rank := func(c *Candidate) int {
		switch {
		case c.Err != nil:
			return 2
		case c.Degenerate != "":
			return 1
		}
		return 0
	}
	sort.SliceStable(out, func(i, j int) bool {
		if ri, rj := rank(&out[i]), rank(&out[j]); ri != rj {
			return ri < rj
		}
		return out[i].KS.D < out[j].KS.D
	})
	return out, nil
}

// CollapsedShape is the Gamma shape above which a part of a hyper-gamma
// mixture counts as collapsed onto one value: its coefficient of variation
// 1/sqrt(shape) is below 1%. Such a part puts a spike on a value the
// sample repeats (a wall-clock limit, a fixed size), and its likelihood
// grows without bound as the spike narrows.
const CollapsedShape = 1e4

// GPDShapeBound is the shape at or below which a generalized Pareto fit is
// degenerate: [GeneralizedPareto] keeps the shape at −1 or above, where the
// likelihood is bounded, and a fit that stops within 0.001 of −1 is one
// whose likelihood would have grown without bound below it.
const GPDShapeBound = -0.999

// degenerate returns why the fitted candidate c is degenerate, or "".
func degenerate(c *Candidate) string {
	r := c.Result
	if xi, ok := c.Params["shape"]; ok && c.Name == "gpd" && xi <= GPDShapeBound {
		return fmt.Sprintf("shape %.4g at its bound -1 (below it the likelihood is unbounded at the sample maximum): a uniform distribution up to the largest value", xi)
	}
	if !finite(r.LogLikelihood) || !finite(c.AIC) || !finite(c.BIC) {
		return fmt.Sprintf("log-likelihood %v is not finite", r.LogLikelihood)
	}
	for k, v := range c.Params {
		if !finite(v) {
			return fmt.Sprintf("parameter %s = %v is not finite", k, v)
		}
	}
	if !finite(c.KS.D) || !finite(c.AD.A2) || !finite(c.ChiSquare.Stat) {
		return "goodness-of-fit statistic not finite"
	}
	switch c.Name {
	case "hypergamma":
		for _, k := range []string{"shape1", "shape2"} {
			if c.Params[k] > CollapsedShape {
				return fmt.Sprintf("mixture part collapsed onto one value (%s %.3g, coefficient of variation %.2g%%)",
					k, c.Params[k], 100/math.Sqrt(c.Params[k]))
			}
		}
	}
	return ""
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// dropNonFinite zeroes c's statistics that are not finite and drops its
// parameters that are not, so that c encodes as JSON.
func dropNonFinite(c *Candidate) {
	for _, p := range []*float64{&c.Result.LogLikelihood, &c.AIC, &c.BIC, &c.KS.D, &c.KS.PValue,
		&c.AD.A2, &c.AD.PValue, &c.ChiSquare.Stat, &c.ChiSquare.PValue} {
		if !finite(*p) {
			*p = 0
		}
	}
	for k, v := range c.Params {
		if !finite(v) {
			delete(c.Params, k)
		}
	}
}
