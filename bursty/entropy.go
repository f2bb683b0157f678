package bursty

import (
	"math"
	"math/rand/v2"
	"slices"
)

// NormalizedEntropy returns H_NE = −Σ p_i log p_i / log n for the weights w
// (eq. 4), where p_i = w_i / Σw and n = len(w) is the number of possible
// events, including those of weight 0 (0 log 0 = 0). It is 1 for equal
// weights and 0 when one event holds all the weight; NaN when n < 2 or the
// weights sum to 0.
func NormalizedEntropy(w []float64) float64 {
	if len(w) < 2 {
		return math.NaN()
	}
	var total float64
	for _, v := range w {
		total += v
	}
	if !(total > 0) {
		return math.NaN()
	}
	var h float64
	for _, v := range w {
		if v > 0 {
			p := v / total
			h -= p * math.Log(p)
		}
	}
	return h / math.Log(float64(len(w)))
}

// TemporalNE is the temporal normalised entropy of arrivals (seconds, any
// order) at time scale t seconds (T. N. Minh, L. Wolters and D. Epema, "A
// realistic integrated model of parallel system workloads", CCGrid 2010,
// section V-A): the span from the first arrival is cut into N = floor((last −
// first)/t) + 1 intervals of length t, and p_i is the fraction of arrivals in
// interval i. NaN when N < 2.
func TemporalNE(arrivals []float64, t float64) float64 {
	if len(arrivals) == 0 || !(t > 0) {
		return math.NaN()
	}
	lo, hi := slices.Min(arrivals), slices.Max(arrivals)
	n := int(math.Floor((hi-lo)/t)) + 1
	if n < 2 {
		return math.NaN()
	}
	counts := make([]float64, n)
	for _, a := range arrivals {
		counts[int(math.Floor((a-lo)/t))]++
	}
	return NormalizedEntropy(counts)
}

// SpatialNE is the spatial normalised entropy (Minh, Wolters and Epema (2010),
// section V-B): p_i is the share of the total runtime held by jobs on i
// processors, i = 1..maxProcs. Jobs with procs[j] outside [1, maxProcs] are an
// error of the caller; they panic.
func SpatialNE(runtimes []float64, procs []int, maxProcs int) float64 {
	w := make([]float64, maxProcs)
	for j, p := range procs {
		w[p-1] += runtimes[j]
	}
	return NormalizedEntropy(w)
}

// DefaultScales is the grid of time scales of the temporal entropy curve
// (Fig. 6): 1 minute to 1 week, in seconds.
var DefaultScales = []float64{
	60, 120, 300, 600, 900, 1800, 3600, 2 * 3600, 4 * 3600, 6 * 3600, 12 * 3600,
	86400, 2 * 86400, 4 * 86400, 7 * 86400,
}

// PoissonArrivals returns n arrival times of a Poisson process started at
// start with mean inter-arrival time mean seconds (the baseline of Fig. 6).
func PoissonArrivals(n int, start, mean float64, r *rand.Rand) []float64 {
	out := make([]float64, n)
	t := start
	for i := range out {
		out[i] = t
		t += r.ExpFloat64() * mean
	}
	return out
}

// UniformJobs returns n jobs whose runtimes are uniform on [rmin, rmax] and
// processor counts uniform on 1..maxProcs: the random model of Table V.
func UniformJobs(n int, rmin, rmax float64, maxProcs int, r *rand.Rand) (runtimes []float64, procs []int) {
	runtimes = make([]float64, n)
	procs = make([]int, n)
	for i := range runtimes {
		runtimes[i] = rmin + r.Float64()*(rmax-rmin)
		procs[i] = 1 + r.IntN(maxProcs)
	}
	return runtimes, procs
}
