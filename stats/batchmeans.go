package stats

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// MeanCI is a confidence interval of the mean of a series of correlated
// observations, such as the waits of one simulation's jobs in arrival
// order.
type MeanCI struct {
	// Mean is the mean of the whole series; Low and High bound the
	// interval of confidence Level (e.g. 0.95).
	Mean  float64 `json:"mean"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	Level float64 `json:"level"`
	// Method names how the interval was made: "batch means".
	Method string `json:"method"`
	// BatchSize and Batches are the batches the interval was made from;
	// Tau is the series' integrated autocorrelation time in observations
	// that chose the batch size.
	BatchSize int     `json:"batch_size"`
	Batches   int     `json:"batches"`
	Tau       float64 `json:"autocorrelation_time"`
}

// MinBatches is the fewest batches [BatchMeans] accepts: below it the
// Student t quantile and the variance of the batch means are too unsteady
// for an interval.
const MinBatches = 10

// BatchTauMultiple is the batch size in units of the integrated
// autocorrelation time. Batch means of a series with autocorrelation time
// τ are correlated, and their variance underestimates the mean's, by
// roughly τ/b for batches of b observations; batches of 10τ keep that
// bias near a tenth for a strongly correlated AR(1) series (φ = 0.9) and
// far below it for weaker correlation.
const BatchTauMultiple = 10

// ErrShortSeries is wrapped by [BatchMeans]'s error for a series too short
// for its autocorrelation: fewer than MinBatches batches of
// BatchTauMultiple autocorrelation times, or no autocorrelation window
// (see [AutocorrTime]).
var ErrShortSeries = errors.New("the series is too short for its autocorrelation")

// AutocorrTime returns the integrated autocorrelation time of x, τ = 1 +
// 2 Σ_{k=1}^{M} ρ(k), with the window M chosen by Sokal's rule (the
// smallest M with M >= 5τ(M); Sokal, Monte Carlo Methods in Statistical
// Mechanics, 1997, section 3): the number of observations that carry the
// information of one independent one. The autocorrelations come from fast
// Fourier transforms (gonum's dsp/fourier) of the centred series, cut in
// blocks, for the lags up to a bound that doubles until the window is
// found; the memory needed grows with the window, not with the series. ok
// is false when no window up to half the series satisfies the rule: the
// series is too short for its correlation. A constant series has τ = 1.
func AutocorrTime(x []float64) (tau float64, window int, ok bool) {
	n := len(x)
	if n < 2 {
		return 1, 0, false
	}
	mean := stat.Mean(x, nil)
	half := n / 2 // the window is below half the series
	lags := acFirstLags
	for lags/2 >= half {
		lags /= 2
	}
	for {
		rho := autocorr(x, mean, lags)
		if rho == nil {
			return 1, 0, true
		}
		tau = 1
		for m := 1; m < min(half, lags); m++ {
			tau += 2 * rho[m]
			if float64(m) >= 5*tau {
				return tau, m, true
			}
		}
		if lags >= half {
			return tau, half, false
		}
		lags *= 2
	}
}

// acFirstLags is how many lags [AutocorrTime] computes first (a power of
// two): windows up to it (autocorrelation times up to about 800
// observations) need one pass over the series.
const acFirstLags = 1 << 12

// autocorr returns the autocorrelations of x (whose mean is mean) at lags
// 0 to lags-1 (lags a power of two), or nil for a constant series.
//
// The series is cut into blocks of L = lags observations. The
// autocovariance at lag k < L sums d[i]·d[i+k] over i (d the centred
// series), and d[i+k] lies in i's block or the next, so it is the sum over
// blocks j of the correlation of block j with blocks j and j+1 side by
// side, which a transform of 2L points (block j zero-padded) gives without
// wrapping around. In the frequency domain the pair's transform is
// B_j + (-1)^f B_{j+1} (the next block shifted by L points), so the sum
// over blocks is accumulated as Σ conj(B_j)(B_j + (-1)^f B_{j+1}) and
// transformed back once. Memory: about 100 bytes per lag, whatever the
// length of the series; time: one transform of 2L points per block.
func autocorr(x []float64, mean float64, lags int) []float64 {
	n := len(x)
	size := 2 * lags
	fft := fourier.NewFFT(size)
	seq := make([]float64, size)
	prev := make([]complex128, lags+1)
	next := make([]complex128, lags+1)
	acc := make([]complex128, lags+1)
	blocks := (n + lags - 1) / lags
	// transform sets dst to the transform of block j, zero-padded.
	transform := func(j int, dst []complex128) {
		b := x[j*lags : min((j+1)*lags, n)]
		for i, v := range b {
			seq[i] = v - mean
		}
		clear(seq[len(b):])
		fft.Coefficients(dst, seq)
	}
	transform(0, prev)
	for j := range blocks {
		if j+1 < blocks {
			transform(j+1, next)
			for f, b := range prev {
				s := b + next[f]
				if f&1 == 1 {
					s = b - next[f]
				}
				acc[f] += complex(real(b), -imag(b)) * s
			}
		} else {
			for f, b := range prev {
				acc[f] += complex(real(b)*real(b)+imag(b)*imag(b), 0)
			}
		}
		prev, next = next, prev
	}
	// The transform back is unnormalized: each value is size times the
	// autocovariance (a sum, not a mean; the ratios are the same).
	acov := fft.Sequence(seq, acc)
	a0 := acov[0]
	if !(a0 > 1e-12*float64(size)*math.Max(1, mean*mean)) {
		return nil
	}
	rho := acov[:lags:lags]
	for k := range rho {
		rho[k] = acov[k] / a0
	}
	return rho
}

// BatchMeans returns a confidence interval of level (0 < level < 1) for
// the mean of the correlated series x by the method of batch means
// (Law and Kelton, Simulation Modeling and Analysis, section 9.5.3): the
// series is cut into batches of BatchTauMultiple x its autocorrelation time
// ([AutocorrTime]), so that the batch means are nearly independent, and
// the interval is the series' mean ± t(k-1) x sd(batch means)/√k over the k
// batches. The last len(x) mod b observations enter the mean, not the
// batches. It fails (wrapping [ErrShortSeries]) when fewer than MinBatches
// batches fit.
func BatchMeans(x []float64, level float64) (MeanCI, error) {
	if !(level > 0 && level < 1) {
		return MeanCI{}, fmt.Errorf("stats: confidence level %v is not between 0 and 1", level)
	}
	ci := MeanCI{Level: level, Method: "batch means", Mean: stat.Mean(x, nil)}
	tau, _, ok := AutocorrTime(x)
	ci.Tau = tau
	if !ok {
		return ci, fmt.Errorf("%w: %d observations, no autocorrelation window within half of them", ErrShortSeries, len(x))
	}
	b := max(1, int(math.Ceil(BatchTauMultiple*math.Max(tau, 1))))
	k := len(x) / b
	ci.BatchSize, ci.Batches = b, k
	if k < MinBatches {
		return ci, fmt.Errorf("%w: %d observations with autocorrelation time %.1f make %d batches of %d, fewer than %d",
			ErrShortSeries, len(x), tau, k, b, MinBatches)
	}
	bm := make([]float64, k)
	for i := range bm {
		bm[i] = stat.Mean(x[i*b:(i+1)*b], nil)
	}
	sd := stat.StdDev(bm, nil)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(k - 1)}.Quantile(1 - (1-level)/2)
	h := t * sd / math.Sqrt(float64(k))
	ci.Low, ci.High = ci.Mean-h, ci.Mean+h
	return ci, nil
}

// MSERTruncation returns how many leading observations of x to delete as
// warm-up by the MSER-5 rule (White, Cobb and Spratt, A comparison of five
// steady-state truncation heuristics, Winter Simulation Conference 2000):
// the series is averaged in batches of 5, and the truncation d (in
// batches, at most half of them) minimizes the squared standard error of
// the remaining batch means, Σ_{i>d} (z_i - z̄_d)² / (k-d)². The result is
// in observations (5d); 0 for a series of fewer than 10 observations.
// limit, when between 0 and len(x)/2, bounds the truncation instead of
// half the series; a result at the bound says that the series has no
// steady state within it, rather than a warm-up.
func MSERTruncation(x []float64, limit int) int {
	const b = 5
	k := len(x) / b
	if k < 2 {
		return 0
	}
	z := make([]float64, k)
	for i := range z {
		z[i] = stat.Mean(x[i*b:(i+1)*b], nil)
	}
	// Suffix sums of z and z² give each candidate's statistic in O(1).
	var s, s2 float64
	best, bestD := math.Inf(1), 0
	stats := make([]float64, k)
	for d := k - 1; d >= 0; d-- {
		s += z[d]
		s2 += z[d] * z[d]
		m := float64(k - d)
		stats[d] = (s2 - s*s/m) / (m * m)
	}
	maxD := k / 2
	if limit > 0 {
		maxD = min(maxD, limit/b)
	}
	for d := 0; d <= maxD; d++ {
		if stats[d] < best {
			best, bestD = stats[d], d
		}
	}
	return b * bestD
}
