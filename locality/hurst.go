package locality

import (
	"math"

	"gonum.org/v1/gonum/stat"

	"github.com/hpcwl/hpcwl/stats"
	"github.com/hpcwl/hpcwl/trace"
)

// HurstOptions control [Hurst]; zero values mean our defaults, chosen where
// the thesis (N. Zakay, Improved Realism and Representativeness of Workloads
// to Improve Reliability of Performance Evaluations, PhD thesis, Hebrew
// University, chapter 3, section 5) does not give the constants of the
// procedure.
type HurstOptions struct {
	// Unit is the base time unit of the series, in seconds; 0 means 1 hour.
	Unit int64
	// Factor is the ratio of successive block sizes; 0 means 1.2.
	Factor float64
	// MinBlocks is the number of blocks per size: exactly that many,
	// evenly spaced (overlapping when the series holds fewer), or with
	// AllBlocks at least that many; 0 means 10, and 1 takes the first
	// block of each size.
	MinBlocks int
	// AllBlocks uses every non-overlapping block of each size, topped up
	// with overlapping ones to MinBlocks. Small sizes then have thousands
	// of points and dominate the fit; by default every size has the same
	// number of blocks, so each size weighs the same, which reproduces the
	// thesis's Table VII far better (docs/validation.md).
	AllBlocks bool
}

// HurstResult is the pox plot and its fitted line.
type HurstResult struct {
	// H is the slope of the least-squares line through every point of the
	// pox plot (log10 R/S against log10 n); NaN for too short a series.
	// With the default MinBlocks points per size, every block size weighs
	// the same.
	H         float64 `json:"h"`
	Intercept float64 `json:"intercept"`
	// Points are the pox plot's points, one per block.
	Points []stats.PoxPoint `json:"points"`
	// MinN is the smallest block size used: the smallest at which at least
	// half of the blocks hold a job.
	MinN int `json:"min_n"`
	// Series is the length of the series of job counts.
	Series int `json:"series"`
}

// Arrivals returns the number of jobs submitted in each unit of time from
// the first submit to the last.
func Arrivals(t *trace.Trace, unit int64) []float64 {
	if len(t.Jobs) == 0 {
		return nil
	}
	first, last := t.Span()
	x := make([]float64, (last-first)/unit+1)
	for i := range t.Jobs {
		x[(t.Jobs[i].Submit-first)/unit]++
	}
	return x
}

// Hurst estimates the Hurst parameter of t's arrivals by rescaled range
// with the pox-plot procedure of Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 3, section 5: block sizes grow by
// Factor from the smallest at which at least half of the non-overlapping
// blocks hold a job up to N/2; for each size the R/S of MinBlocks evenly
// spaced blocks (non-overlapping while the series is long enough, "for
// large n these subsets may overlap") are points, or with AllBlocks every
// non-overlapping block topped up to MinBlocks; blocks of zero variance are
// skipped; H is the slope of the least-squares line through all points in
// log10 space. (stats.RescaledRange instead averages R/S per size over a
// fixed grid.)
func Hurst(t *trace.Trace, opt HurstOptions) HurstResult {
	if opt.Unit <= 0 {
		opt.Unit = 3600
	}
	return HurstSeries(Arrivals(t, opt.Unit), opt)
}

// HurstSeries is [Hurst] on a series of counts per unit of time, such as
// [Arrivals] returns (opt.Unit is not used). x is not modified.
func HurstSeries(x []float64, opt HurstOptions) HurstResult {
	if opt.Factor <= 1 {
		opt.Factor = 1.2
	}
	if opt.MinBlocks <= 0 {
		opt.MinBlocks = 10
	}
	r := HurstResult{H: math.NaN(), Series: len(x)}
	if len(x) < 20 {
		return r
	}
	n := 2
	for ; n <= len(x)/2 && nonEmpty(x, n) < 0.5; n++ {
	}
	r.MinN = n
	var lx, ly []float64
	for fn := float64(n); int(fn) <= len(x)/2; fn *= opt.Factor {
		size := int(fn)
		if size == n && len(lx) > 0 {
			continue
		}
		n = size
		for _, s := range starts(len(x), size, opt.MinBlocks, opt.AllBlocks) {
			rs, ok := rescaledRange(x[s : s+size])
			if !ok {
				continue
			}
			r.Points = append(r.Points, stats.PoxPoint{N: size, RS: rs})
			lx = append(lx, math.Log10(float64(size)))
			ly = append(ly, math.Log10(rs))
		}
	}
	if len(lx) >= 2 {
		r.Intercept, r.H = stat.LinearRegression(lx, ly, nil, false)
	}
	return r
}

// nonEmpty returns the fraction of non-overlapping blocks of size n with a
// non-zero sum.
func nonEmpty(x []float64, n int) float64 {
	blocks, full := 0, 0
	for s := 0; s+n <= len(x); s += n {
		blocks++
		for _, v := range x[s : s+n] {
			if v != 0 {
				full++
				break
			}
		}
	}
	return float64(full) / float64(blocks)
}

// starts returns the block starts: k evenly spaced ones (overlapping only
// when N < k n), or with all every non-overlapping block, topped up to k
// evenly spaced overlapping ones when there are fewer than k.
func starts(N, n, k int, all bool) []int {
	var out []int
	if all && N/n >= k {
		for s := 0; s+n <= N; s += n {
			out = append(out, s)
		}
		return out
	}
	if k == 1 {
		return []int{0} // one block: the first
	}
	for i := range k {
		out = append(out, i*(N-n)/(k-1))
	}
	return out
}

// rescaledRange returns R/S of one block (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 3, section 5), false when
// its standard deviation is 0.
func rescaledRange(b []float64) (float64, bool) {
	m, sd := stat.PopMeanStdDev(b, nil)
	if !(sd > 0) {
		return 0, false
	}
	y, lo, hi := 0.0, math.Inf(1), math.Inf(-1)
	for _, v := range b {
		y += v - m
		lo, hi = math.Min(lo, y), math.Max(hi, y)
	}
	return (hi - lo) / sd, true
}
