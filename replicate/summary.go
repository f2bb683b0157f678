package replicate

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/hpcwl/hpcwl/stats"
)

// Dist summarizes one metric over the variants, next to the original.
type Dist struct {
	Name string `json:"metric"`
	// Original is the original log's value (NaN without it).
	Original float64 `json:"original"`
	// N is the number of variants summarized (the unsaturated ones).
	N      int     `json:"n"`
	Mean   float64 `json:"mean"`
	SD     float64 `json:"sd"`
	Min    float64 `json:"min"`
	P2_5   float64 `json:"p2_5"`
	P25    float64 `json:"p25"`
	Median float64 `json:"median"`
	P75    float64 `json:"p75"`
	P97_5  float64 `json:"p97_5"`
	Max    float64 `json:"max"`
	// CILow and CIHigh are the 95% confidence interval of the mean (normal
	// approximation, mean +- 1.96 sd / sqrt(n)); NaN with fewer than two
	// variants, whose spread says nothing. P2_5 to P97_5 is the percentile
	// interval of one run (Zakay and Feitelson's resampling methodology).
	CILow  float64 `json:"ci_low"`
	CIHigh float64 `json:"ci_high"`
	// OriginalRank is the fraction of variants below the original value,
	// plus half of those equal to it (its percentile rank).
	OriginalRank float64 `json:"original_rank"`
	// OutsideRange reports an original value below Min or above Max (with
	// two variants or more): the
	// variants, which recombine the log's users, never produced the
	// conditions of the original schedule (see [Result.Warnings]).
	OutsideRange bool `json:"original_outside_range"`
	// MaxMin is Max / Min (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 5, Table I), NaN when Min is 0.
	MaxMin float64 `json:"max_min_ratio"`
	// MedianDiff is (Median - Original) / Original.
	MedianDiff float64 `json:"median_vs_original"`
}

// summarize returns the distribution of x (which it sorts).
func summarize(name string, x []float64, orig float64) Dist {
	d := Dist{Name: name, Original: orig, N: len(x)}
	if len(x) == 0 {
		nan := math.NaN()
		d.Mean, d.SD, d.Min, d.P2_5, d.P25, d.Median, d.P75, d.P97_5, d.Max = nan, nan, nan, nan, nan, nan, nan, nan, nan
		d.CILow, d.CIHigh, d.OriginalRank, d.MaxMin, d.MedianDiff = nan, nan, nan, nan, nan
		return d
	}
	slices.Sort(x)
	// Quantiles are empirical (the lower median for an even count), the
	// convention of every hpcwl table.
	q := func(p float64) float64 { return stats.EmpiricalQuantileSorted(x, p) }
	d.Mean, d.SD = stat.MeanStdDev(x, nil)
	if len(x) == 1 {
		d.SD = 0
	}
	d.Min, d.Max = x[0], x[len(x)-1]
	d.P2_5, d.P25, d.Median, d.P75, d.P97_5 = q(0.025), q(0.25), q(0.5), q(0.75), q(0.975)
	d.CILow, d.CIHigh = math.NaN(), math.NaN()
	if len(x) >= 2 {
		h := 1.96 * d.SD / math.Sqrt(float64(len(x)))
		d.CILow, d.CIHigh = d.Mean-h, d.Mean+h
	}
	// One variant has no range: the original is compared with two or more.
	d.OutsideRange = len(x) >= 2 && (orig < d.Min || orig > d.Max) // false for a NaN original
	below, equal := 0, 0
	for _, v := range x {
		if v < orig {
			below++
		} else if v == orig {
			equal++
		}
	}
	d.OriginalRank = (float64(below) + float64(equal)/2) / float64(len(x))
	d.MaxMin = math.NaN()
	if d.Min > 0 {
		d.MaxMin = d.Max / d.Min
	}
	d.MedianDiff = math.NaN()
	if orig != 0 && !math.IsNaN(orig) {
		d.MedianDiff = (d.Median - orig) / orig
	}
	return d
}
