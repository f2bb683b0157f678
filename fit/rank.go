package fit

import (
	"fmt"
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
	// AIC and BIC are the information criteria (smaller is better).
	AIC float64 `json:"aic"`
	BIC float64 `json:"bic"`
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

// Rank fits each named family (all of [CandidateNames] when names is nil)
// to the positive values x and returns the candidates ordered by KS
// distance, best first; families that cannot be fitted come last with Err
// set and zero KS, AIC and BIC. The generalized Pareto is fitted with location 0, the
// hyper-exponential with two phases. An unknown name is an error.
func Rank(x []float64, names []string, s *Settings) ([]Candidate, error) {
	if names == nil {
		names = CandidateNames
	}
	out := make([]Candidate, 0, len(names))
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
			c.KS = stats.KSOneSample(x, c.Dist.CDF)
			c.AIC, c.BIC = c.Result.AIC(), c.Result.BIC()
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if (out[i].Err == nil) != (out[j].Err == nil) {
			return out[i].Err == nil
		}
		return out[i].KS.D < out[j].KS.D
	})
	return out, nil
}
