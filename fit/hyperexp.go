package fit

import (
	"fmt"
	"math"
	"sort"

	"github.com/hpcwl/hpcwl/dist"
)

// HyperExponential fits a k-phase hyper-exponential distribution to
// non-negative values by EM. The start splits the sorted sample into k
// equal-count groups, with rate 1/mean of each; the M-step sets
// λ_j = Σz_j / Σz_j x and p_j = mean z_j. Phases are returned shortest
// mean first.
func HyperExponential(x []float64, k int, s *Settings) (dist.HyperExponential, Result, error) {
	d, r, err := hyperErlangEM(x, k, 1, s)
	if d.Weights == nil {
		return dist.HyperExponential{}, r, err
	}
	h := dist.HyperExponential{Weights: d.Weights, Rates: make([]float64, k)}
	for j, sc := range d.Scales {
		h.Rates[j] = 1 / sc
	}
	return h, r, err
}

// HyperErlang fits a k-phase hyper-Erlang distribution whose phases share
// one order r (the "common order" form of Jann et al.), trying every order
// 1..maxOrder by EM and keeping the most likely. The M-step sets each
// phase's scale to Σz x / (r Σz). Phases are returned shortest mean first.
func HyperErlang(x []float64, k, maxOrder int, s *Settings) (dist.HyperErlang, Result, error) {
	if maxOrder < 1 {
		panic("fit: maxOrder < 1")
	}
	var best dist.HyperErlang
	var bestR Result
	var bestErr error = fmt.Errorf("%w: hyper-Erlang", ErrFailure)
	for r := 1; r <= maxOrder; r++ {
		d, res, err := hyperErlangEM(x, k, r, s)
		if d.Weights == nil {
			return d, res, err
		}
		if best.Weights == nil || res.LogLikelihood > bestR.LogLikelihood {
			best, bestR, bestErr = d, res, err
		}
	}
	return best, bestR, bestErr
}

func hyperErlangEM(x []float64, k, order int, s *Settings) (dist.HyperErlang, Result, error) {
	if k < 1 {
		panic("fit: number of phases < 1")
	}
	if err := needN(fmt.Sprintf("%d-phase mixture", k), x, 2*k); err != nil {
		return dist.HyperErlang{}, Result{}, err
	}
	n := len(x)
	for i, v := range x {
		if !(v >= 0) || math.IsInf(v, 0) || (order > 1 && v == 0) {
			return dist.HyperErlang{}, Result{}, fmt.Errorf("%w: hyper-Erlang of order %d needs finite values > 0 (>= 0 for order 1), x[%d] = %v", ErrDomain, order, i, v)
		}
	}
	sorted := append([]float64(nil), x...)
	sort.Float64s(sorted)
	ro := float64(order)
	d := dist.HyperErlang{Weights: make([]float64, k), Orders: make([]int, k), Scales: make([]float64, k)}
	for j := 0; j < k; j++ {
		part := sorted[j*n/k : (j+1)*n/k]
		m := 0.0
		for _, v := range part {
			m += v
		}
		m /= float64(len(part))
		if m <= 0 {
			m = sorted[n-1] / float64(n)
		}
		d.Weights[j] = float64(len(part)) / float64(n)
		d.Orders[j] = order
		d.Scales[j] = m / ro
	}
	if d.Scales[k-1] <= 0 {
		return dist.HyperErlang{}, Result{}, fmt.Errorf("%w: mixture needs a positive mean", ErrDomain)
	}
	lgo, _ := math.Lgamma(ro)
	z := make([]float64, n*k)
	lw := make([]float64, k)
	prev, ll := math.Inf(-1), math.Inf(-1)
	status := IterationLimit
	it := 1
	for ; it <= s.maxIter(); it++ {
		for j := range lw {
			lw[j] = math.Log(d.Weights[j]) - ro*math.Log(d.Scales[j]) - lgo
		}
		ll = 0
		for i, v := range x {
			zi := z[i*k : (i+1)*k]
			lv := 0.0
			if order > 1 {
				lv = (ro - 1) * math.Log(v)
			}
			for j := range zi {
				zi[j] = lw[j] + lv - v/d.Scales[j]
			}
			ll += responsibilities(zi)
		}
		if math.Abs(ll-prev) < s.tol()*math.Abs(ll) {
			status = Converged
			break
		}
		prev = ll
		for j := 0; j < k; j++ {
			var nj, sx float64
			for i, v := range x {
				nj += z[i*k+j]
				sx += z[i*k+j] * v
			}
			d.Weights[j] = nj / float64(n)
			if nj > 1e-300 && sx > 0 {
				d.Scales[j] = sx / (ro * nj)
			}
		}
	}
	// Order phases by mean, shortest first.
	idx := make([]int, k)
	for j := range idx {
		idx[j] = j
	}
	sort.Slice(idx, func(a, b int) bool { return d.Scales[idx[a]] < d.Scales[idx[b]] })
	out := dist.HyperErlang{Weights: make([]float64, k), Orders: make([]int, k), Scales: make([]float64, k)}
	for a, j := range idx {
		out.Weights[a], out.Orders[a], out.Scales[a] = d.Weights[j], d.Orders[j], d.Scales[j]
	}
	r := Result{Status: status, LogLikelihood: ll, N: float64(n), NumParameters: 2*k - 1, Iterations: min(it, s.maxIter())}
	return out, r, status.Err()
}
