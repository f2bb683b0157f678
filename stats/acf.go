package stats

import "math"

// ACF returns the autocorrelation of x at lags 0..maxLag, r(k) = Σ_{t=1}^{n−k}
// (x_t − x̄)(x_{t+k} − x̄) / Σ_{t=1}^{n} (x_t − x̄)² (the temporal analysis of
// Talby, User Modeling of Parallel Workloads, PhD thesis, Hebrew University,
// 2006, chapter 5). NaN values mark missing bins; if any are present the
// pairwise-complete variant is used: the mean and variance are those of the
// non-missing values and pairs with a missing member are skipped (our choice
// where the thesis leaves it open: it does not say how empty bins enter). A
// constant series gives NaN for lags >= 1.
func ACF(x []float64, maxLag int) []float64 {
	if maxLag < 0 {
		panic("stats: negative maxLag")
	}
	r := make([]float64, maxLag+1)
	var sum float64
	var cnt int
	for _, v := range x {
		if !math.IsNaN(v) {
			sum += v
			cnt++
		}
	}
	if cnt == 0 {
		for k := range r {
			r[k] = math.NaN()
		}
		return r
	}
	mean := sum / float64(cnt)
	den := 0.0
	for _, v := range x {
		if !math.IsNaN(v) {
			den += (v - mean) * (v - mean)
		}
	}
	for k := 0; k <= maxLag; k++ {
		if k >= len(x) || den == 0 {
			r[k] = math.NaN()
			continue
		}
		num := 0.0
		for t := 0; t+k < len(x); t++ {
			a, b := x[t], x[t+k]
			if math.IsNaN(a) || math.IsNaN(b) {
				continue
			}
			num += (a - mean) * (b - mean)
		}
		r[k] = num / den
	}
	return r
}
