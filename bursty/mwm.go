package bursty

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/hpcwl/hpcwl/stats"
)

// MWM is a multifractal wavelet model of arrival counts (Riedi et al. 1999;
// the arrival model of T. N. Minh, L. Wolters and D. Epema, "A realistic
// integrated model of parallel system workloads", CCGrid 2010 builds on it,
// after Minh and Wolters, CCGrid 2009): counts per bin of width Bin seconds
// over 2^Levels bins, built from the total count by multiplying, at each scale
// j, a parent Haar scaling coefficient by (1 ± A) with A = 2B − 1, B ~
// Beta(P[j], P[j]). The paper's arrival process is a modification of MWM that
// it does not describe; this is the standard model with one Beta parameter per
// scale estimated from the log.
type MWM struct {
	// Bin is the bin width in seconds; Levels the number of scales (the
	// model spans 2^Levels bins).
	Bin    float64 `json:"bin_s"`
	Levels int     `json:"levels"`
	// P holds the Beta parameters, coarsest scale first.
	P []float64 `json:"p"`
	// Hurst is the Hurst parameter of the fitted counts (mean of the R/S,
	// variance-time and periodogram estimates), for reference.
	Hurst float64 `json:"hurst"`
}

// pFloor bounds the Beta parameters away from 0 (a scale where all arrivals
// fall on one side).
const pFloor = 1e-3

// FitMWM fits an MWM to arrival times (seconds, sorted ascending): the span
// from the first to the last arrival is cut into 2^n bins with n chosen so
// that the bin is as near as possible to bin seconds, and at each scale
// p_j = (E[U_j²]/E[W_j²] − 1)/2 from the Haar scaling (U) and wavelet (W)
// coefficients of the counts.
func FitMWM(arrivals []float64, bin float64) (MWM, error) {
	if len(arrivals) < 2 || !(bin > 0) {
		return MWM{}, errors.New("bursty: MWM needs two arrivals or more and a positive bin width")
	}
	span := arrivals[len(arrivals)-1] - arrivals[0]
	if !(span > 0) {
		return MWM{}, errors.New("bursty: MWM needs arrivals spread over time")
	}
	n := max(1, int(math.Round(math.Log2(span/bin))))
	if n > 26 {
		return MWM{}, fmt.Errorf("bursty: MWM bin of %g s gives 2^%d bins over the span of %g s; use a wider bin", bin, n, span)
	}
	size := 1 << n
	width := span / float64(size)
	x := make([]float64, size)
	for _, a := range arrivals {
		x[min(size-1, int((a-arrivals[0])/width))]++
	}
	m := MWM{Bin: width, Levels: n, P: make([]float64, n)}
	// Haar analysis from the finest scale up; u holds the scaling
	// coefficients of the current scale (unnormalised sums: the ratio
	// E[U²]/E[W²] is the same with the 2^{-1/2} factors).
	u := x
	for j := n - 1; j >= 0; j-- {
		parent := make([]float64, len(u)/2)
		var eu, ew float64
		for k := range parent {
			a, b := u[2*k], u[2*k+1]
			parent[k] = a + b
			eu += (a + b) * (a + b)
			ew += (a - b) * (a - b)
		}
		p := pFloor
		if ew > 0 {
			p = math.Max(pFloor, (eu/ew-1)/2)
		} else {
			p = 1e6 // no variation at this scale: split evenly
		}
		m.P[j] = p
		u = parent
	}
	m.Hurst = stats.EstimateHurst(x).Mean
	return m, nil
}

// Counts draws 2^Levels bin counts summing to total (before rounding) by
// the multiplicative cascade.
func (m MWM) Counts(total float64, r *rand.Rand) []float64 {
	u := []float64{total}
	for j := 0; j < m.Levels; j++ {
		beta := distuv.Beta{Alpha: m.P[j], Beta: m.P[j], Src: r}
		next := make([]float64, 2*len(u))
		for k, v := range u {
			a := 2*beta.Rand() - 1
			next[2*k] = v * (1 + a) / 2
			next[2*k+1] = v * (1 - a) / 2
		}
		u = next
	}
	return u
}

// Arrivals draws n arrival times (ascending, from 0): cascade counts with
// total n, rounded stochastically so that they sum to n, each bin's
// arrivals placed uniformly at random inside it.
func (m MWM) Arrivals(n int, r *rand.Rand) []float64 {
	c := m.Counts(float64(n), r)
	ints := make([]int, len(c))
	sum := 0
	for i, v := range c {
		ints[i] = int(math.Floor(v))
		if r.Float64() < v-math.Floor(v) {
			ints[i]++
		}
		sum += ints[i]
	}
	// Fix the total: add or remove arrivals in bins drawn uniformly among
	// those with a positive cascade count (adding) or an arrival (removing).
	for sum != n {
		i := r.IntN(len(ints))
		switch {
		case sum < n && c[i] > 0:
			ints[i]++
			sum++
		case sum > n && ints[i] > 0:
			ints[i]--
			sum--
		}
	}
	out := make([]float64, 0, n)
	for i, k := range ints {
		for range k {
			out = append(out, (float64(i)+r.Float64())*m.Bin)
		}
	}
	slices.Sort(out)
	return out
}

// check reports the first invalid field of the MWM.
func (m MWM) check() error {
	if !(m.Bin > 0) || math.IsInf(m.Bin, 0) {
		return fmt.Errorf("%w: field %q: must be > 0, got %v", ErrParams, "arrivals.bin_s", m.Bin)
	}
	if m.Levels < 1 || m.Levels > 26 || len(m.P) != m.Levels {
		return fmt.Errorf("%w: field %q: needs 1..26 levels and one p per level, got %d levels and %d", ErrParams, "arrivals.levels", m.Levels, len(m.P))
	}
	for j, p := range m.P {
		if !(p > 0) || math.IsInf(p, 0) {
			return fmt.Errorf("%w: field %q: must be > 0, got %v", ErrParams, fmt.Sprintf("arrivals.p[%d]", j), p)
		}
	}
	return nil
}
