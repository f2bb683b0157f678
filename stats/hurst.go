package stats

import (
	"math"
	"math/cmplx"

	"gonum.org/v1/gonum/dsp/fourier"
	"gonum.org/v1/gonum/stat"
)

// HurstEstimate is the result of one Hurst-parameter estimator: the fitted
// log-log line and the points it was fitted to, for plotting.
type HurstEstimate struct {
	// H is the estimated Hurst parameter (0.5: no long-range dependence;
	// 0.5 < H < 1: self-similar). It is not clamped.
	H float64 `json:"h"`
	// LogX and LogY are the base-10 logarithms of the points the line was
	// fitted to (block size and R/S or variance; frequency and power).
	LogX []float64 `json:"log_x"`
	LogY []float64 `json:"log_y"`
	// Intercept and Slope are the least-squares line log10 y = a + b log10 x.
	Intercept float64 `json:"intercept"`
	Slope     float64 `json:"slope"`
}

// PoxPoint is one block of the rescaled-range analysis.
type PoxPoint struct {
	N  int     `json:"n"`  // block size
	RS float64 `json:"rs"` // R/S of the block
}

// blockSizes returns about perDecade log-spaced integers in [lo, hi].
func blockSizes(lo, hi int, perDecade float64) []int {
	var out []int
	for e := math.Log10(float64(lo)); ; e += 1 / perDecade {
		n := int(math.Round(math.Pow(10, e)))
		if n > hi {
			break
		}
		if len(out) == 0 || n > out[len(out)-1] {
			out = append(out, n)
		}
	}
	return out
}

func fitLine(lx, ly []float64) (a, b float64) {
	return stat.LinearRegression(lx, ly, nil, false)
}

// RescaledRange estimates H by R/S analysis (Talby, User Modeling of Parallel
// Workloads, PhD thesis, Hebrew University, 2006, section 5.4, Eq. 7 and 9):
// for block sizes n from 10 to N/2 (about 10 per decade), the series is cut
// into ⌊N/n⌋ non-overlapping blocks; for each block W_k = Σ_{j<=k} X_j −
// k·X̄(n), R/S = (max(0, W) − min(0, W)) / S(n) with S the sample standard
// deviation (blocks with S = 0 are skipped); log10 of the mean R/S per n is
// regressed on log10 n and H is the slope. The second result holds every
// block's R/S (the pox plot). The series needs at least 20 values; otherwise H
// is NaN.
func RescaledRange(x []float64) (HurstEstimate, []PoxPoint) {
	var pox []PoxPoint
	var lx, ly []float64
	if len(x) < 20 {
		return HurstEstimate{H: math.NaN()}, nil
	}
	for _, n := range blockSizes(10, len(x)/2, 10) {
		sum, cnt := 0.0, 0
		for b := 0; b+n <= len(x); b += n {
			blk := x[b : b+n]
			m, sd := stat.MeanStdDev(blk, nil)
			if !(sd > 0) {
				continue
			}
			w, lo, hi := 0.0, 0.0, 0.0
			for _, v := range blk {
				w += v - m
				lo, hi = math.Min(lo, w), math.Max(hi, w)
			}
			rs := (hi - lo) / sd
			pox = append(pox, PoxPoint{N: n, RS: rs})
			sum += rs
			cnt++
		}
		if cnt > 0 {
			lx = append(lx, math.Log10(float64(n)))
			ly = append(ly, math.Log10(sum/float64(cnt)))
		}
	}
	if len(lx) < 2 {
		return HurstEstimate{H: math.NaN()}, pox
	}
	a, b := fitLine(lx, ly)
	return HurstEstimate{H: b, LogX: lx, LogY: ly, Intercept: a, Slope: b}, pox
}

// VarianceTime estimates H from the variance-time plot (Talby (2006), section
// 5.4, Eq. 8): for aggregation levels m = 1, 2, 4, … with at least 10 blocks,
// v_m is the sample variance of the non-overlapping block means; log10 v_m is
// regressed on log10 m, the slope is −β and H = 1 − β/2 = 1 + slope/2.
func VarianceTime(x []float64) HurstEstimate {
	var lx, ly []float64
	for m := 1; len(x)/m >= 10; m *= 2 {
		nb := len(x) / m
		means := make([]float64, nb)
		for b := range means {
			means[b] = stat.Mean(x[b*m:(b+1)*m], nil)
		}
		v := stat.Variance(means, nil)
		if !(v > 0) {
			continue
		}
		lx = append(lx, math.Log10(float64(m)))
		ly = append(ly, math.Log10(v))
	}
	if len(lx) < 2 {
		return HurstEstimate{H: math.NaN()}
	}
	a, b := fitLine(lx, ly)
	return HurstEstimate{H: 1 + b/2, LogX: lx, LogY: ly, Intercept: a, Slope: b}
}

// Periodogram estimates H from the periodogram (Talby (2006), section 5.4, Eq.
// 4, 5 and 10): f(ω_i) = (2/N)|Σ_k (X_k − X̄) e^{−iω_i k}|² at ω_i = 2πi/N, i
// = 1..⌊N/2⌋ (computed with gonum's FFT); log10 f is regressed on log10 ω over
// the lowest 10 % of those frequencies (at least 2), the slope is s = −(1 − β)
// and H = (1 − s)/2.
func Periodogram(x []float64) HurstEstimate {
	n := len(x)
	if n < 8 {
		return HurstEstimate{H: math.NaN()}
	}
	m := stat.Mean(x, nil)
	c := make([]float64, n)
	for i, v := range x {
		c[i] = v - m
	}
	coef := fourier.NewFFT(n).Coefficients(nil, c)
	half := n / 2
	k := max(2, half/10)
	lx := make([]float64, 0, k)
	ly := make([]float64, 0, k)
	for i := 1; i <= k; i++ {
		p := 2 / float64(n) * math.Pow(cmplx.Abs(coef[i]), 2)
		if p <= 0 {
			continue
		}
		lx = append(lx, math.Log10(2*math.Pi*float64(i)/float64(n)))
		ly = append(ly, math.Log10(p))
	}
	if len(lx) < 2 {
		return HurstEstimate{H: math.NaN()}
	}
	a, b := fitLine(lx, ly)
	return HurstEstimate{H: (1 - b) / 2, LogX: lx, LogY: ly, Intercept: a, Slope: b}
}

// Hurst holds the three estimates and their average, the per-log value of
// Talby's Table 40 (Talby (2006), section 5.4 and appendix C, the average of
// the three estimators).
type Hurst struct {
	RS           HurstEstimate `json:"rs"`
	VarianceTime HurstEstimate `json:"variance_time"`
	Periodogram  HurstEstimate `json:"periodogram"`
	// Mean averages the three H values (not clamped).
	Mean float64 `json:"mean"`
}

// EstimateHurst runs the three estimators on x.
func EstimateHurst(x []float64) Hurst {
	rs, _ := RescaledRange(x)
	h := Hurst{RS: rs, VarianceTime: VarianceTime(x), Periodogram: Periodogram(x)}
	h.Mean = (h.RS.H + h.VarianceTime.H + h.Periodogram.H) / 3
	return h
}
