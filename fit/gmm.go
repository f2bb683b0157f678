package fit

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/stat"

	"github.com/hpcwl/hpcwl/dist"
)

// VarianceModel selects the covariance structure of a Gaussian mixture, in
// MCLUST's naming (the software T. N. Minh, L. Wolters and D. Epema, A
// realistic integrated model of parallel system workloads, CCGrid 2010,
// section VI-A, fit their runtime classes with).
type VarianceModel int

const (
	// Unequal ("V") gives every component its own variance: 3G−1 parameters.
	Unequal VarianceModel = iota
	// Equal ("E") shares one variance between components: 2G parameters.
	Equal
)

// String returns the MCLUST name, "V" or "E".
func (m VarianceModel) String() string {
	if m == Equal {
		return "E"
	}
	return "V"
}

// MarshalText encodes the model as its MCLUST name.
func (m VarianceModel) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// GaussianMixture fits a g-component 1-D Gaussian mixture by EM (Minh, Wolters
// and Epema (2010), section VI-A; the details are our choice, since the paper
// only names MCLUST). The start splits the sorted sample into g equal-count
// groups (deterministic, in place of MCLUST's hierarchical start); the E-step
// computes the responsibilities, the M-step n_k = Σz, p_k = n_k/n, μ_k = Σz
// x/n_k and the variances (own or pooled), floored at 1e-6·Var(x). Iteration
// stops when |ΔlogL| < Tolerance·|logL| (1e-8 is enough in practice; the
// default Settings use 1e-10) or at MaxIterations.
func GaussianMixture(x []float64, g int, model VarianceModel, s *Settings) (dist.GaussianMixture, Result, error) {
	if g < 1 {
		panic("fit: Gaussian mixture needs g >= 1")
	}
	if err := needN(fmt.Sprintf("%d-component Gaussian mixture", g), x, 2*g); err != nil {
		return dist.GaussianMixture{}, Result{}, err
	}
	n := len(x)
	sorted := append([]float64(nil), x...)
	sort.Float64s(sorted)
	total := stat.Variance(x, nil)
	if !(total > 0) {
		return dist.GaussianMixture{}, Result{}, fmt.Errorf("%w: Gaussian mixture needs values that are not all equal", ErrDomain)
	}
	floor := 1e-6 * total
	gm := dist.GaussianMixture{Weights: make([]float64, g), Means: make([]float64, g), StdDevs: make([]float64, g)}
	for k := 0; k < g; k++ {
		part := sorted[k*n/g : (k+1)*n/g]
		m, v := stat.MeanVariance(part, nil)
		gm.Weights[k] = float64(len(part)) / float64(n)
		gm.Means[k] = m
		gm.StdDevs[k] = math.Sqrt(math.Max(v, floor))
	}
	if model == Equal {
		pooled := 0.0
		for k := range gm.StdDevs {
			pooled += gm.Weights[k] * gm.StdDevs[k] * gm.StdDevs[k]
		}
		for k := range gm.StdDevs {
			gm.StdDevs[k] = math.Sqrt(math.Max(pooled, floor))
		}
	}
	// EM runs on the distinct values weighted by their counts (see
	// compress): the same likelihood as the full sample at a fraction of the
	// cost, since runtimes repeat.
	u, cnt := compress(x)
	z := make([]float64, len(u)*g)
	lw := make([]float64, g)
	prev, ll := math.Inf(-1), math.Inf(-1)
	status := IterationLimit
	it := 1
	for ; it <= s.maxIter(); it++ {
		// E-step.
		for k := range lw {
			lw[k] = math.Log(gm.Weights[k]) - math.Log(gm.StdDevs[k]) - 0.5*math.Log(2*math.Pi)
		}
		ll = 0
		for i, v := range u {
			zi := z[i*g : (i+1)*g]
			for k := range zi {
				d := (v - gm.Means[k]) / gm.StdDevs[k]
				zi[k] = lw[k] - 0.5*d*d
			}
			ll += cnt[i] * responsibilities(zi)
		}
		if math.Abs(ll-prev) < s.tol()*math.Abs(ll) {
			status = Converged
			break
		}
		prev = ll
		// M-step.
		pooled := 0.0
		for k := 0; k < g; k++ {
			var nk, sx float64
			for i, v := range u {
				w := cnt[i] * z[i*g+k]
				nk += w
				sx += w * v
			}
			if nk < 1e-300 {
				gm.Weights[k] = 0
				continue
			}
			mu := sx / nk
			var ss float64
			for i, v := range u {
				d := v - mu
				ss += cnt[i] * z[i*g+k] * d * d
			}
			gm.Weights[k] = nk / float64(n)
			gm.Means[k] = mu
			gm.StdDevs[k] = math.Sqrt(math.Max(ss/nk, floor))
			pooled += ss
		}
		if model == Equal {
			sd := math.Sqrt(math.Max(pooled/float64(n), floor))
			for k := range gm.StdDevs {
				gm.StdDevs[k] = sd
			}
		}
	}
	np := 3*g - 1
	if model == Equal {
		np = 2 * g
	}
	r := Result{Status: status, LogLikelihood: ll, N: float64(n), NumParameters: np, Iterations: min(it, s.maxIter())}
	return gm, r, status.Err()
}

// MixtureCandidate is one model considered by [SelectGaussianMixture].
type MixtureCandidate struct {
	G      int                  `json:"g"`
	Model  VarianceModel        `json:"model"`
	Result Result               `json:"result"`
	BIC    float64              `json:"bic"` // k ln n − 2 ln L; smaller is better
	Dist   dist.GaussianMixture `json:"-"`
	Err    error                `json:"-"`
}

// SelectGaussianMixture fits Gaussian mixtures with 1..gmax components under
// both variance models and returns the one with the smallest BIC (the largest
// MCLUST BIC, 2 ln L − k ln n) together with every candidate (Minh, Wolters
// and Epema (2010), section VI-A; MCLUST's default gmax is 9). Fits that stop
// at the iteration limit still compete; fits that fail outright (too few
// values for g) are listed with their error and skipped.
func SelectGaussianMixture(x []float64, gmax int, s *Settings) (best MixtureCandidate, all []MixtureCandidate, err error) {
	if gmax < 1 {
		panic("fit: gmax < 1")
	}
	bestIdx := -1
	for g := 1; g <= gmax; g++ {
		for _, m := range []VarianceModel{Unequal, Equal} {
			if g == 1 && m == Equal {
				continue // identical to V with one component
			}
			d, r, e := GaussianMixture(x, g, m, s)
			c := MixtureCandidate{G: g, Model: m, Result: r, Dist: d, Err: e, BIC: math.Inf(1)}
			if e == nil || r.Status == IterationLimit {
				c.BIC = r.BIC()
				if bestIdx < 0 || c.BIC < all[bestIdx].BIC {
					bestIdx = len(all)
				}
			}
			all = append(all, c)
		}
	}
	if bestIdx < 0 {
		return MixtureCandidate{}, all, fmt.Errorf("no Gaussian mixture could be fitted: %w", all[0].Err)
	}
	return all[bestIdx], all, nil
}

// responsibilities turns the log-weighted component densities in z into
// posterior probabilities (the E-step of EM), in place, and returns the log
// of their sum: the sample's log-likelihood under the mixture. Subtracting
// the largest term first keeps the exponentials from underflowing.
func responsibilities(z []float64) float64 {
	m := math.Inf(-1)
	for _, v := range z {
		m = math.Max(m, v)
	}
	t := 0.0
	for k := range z {
		z[k] = math.Exp(z[k] - m)
		t += z[k]
	}
	for k := range z {
		z[k] /= t
	}
	return m + math.Log(t)
}
