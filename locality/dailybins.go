package locality

import (
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/hpcwl/hpcwl/trace"
)

// DailyBinsOptions control [DailyBins].
type DailyBinsOptions struct {
	// Bins is the number of equal-weight bins; 0 means 16.
	Bins int
	// MinJobs is the least number of jobs of a day analysed; 0 means 5
	// (section 8.3).
	MinJobs int
}

// Bins is the result of the daily-bins analysis.
type Bins struct {
	// Cuts are the quantile cut points of the whole workload.
	Cuts []float64 `json:"cuts"`
	// Weights are the fractions of all jobs in each bin: 1/Bins each when
	// the values have no ties across cut points.
	Weights []float64 `json:"weights"`
	// MaxFraction holds, for every analysed day, the largest fraction of
	// its jobs in one bin, sorted.
	MaxFraction []float64 `json:"max_fraction"`
	// Median and Mean summarize MaxFraction.
	Median float64 `json:"median"`
	Mean   float64 `json:"mean"`
}

// DailyBins measures locality by daily concentration (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 3, section 5):
// the attribute's Bins-1 quantile cut points over the whole workload make
// Bins bins; for each local calendar day with at least MinJobs jobs, the
// largest fraction of the day's jobs in one bin is recorded. With no
// locality every fraction is near 1/Bins. A value equal to a cut point goes
// to the lower bin, so heavily tied attributes (processor counts) give
// unequal bins, reported in Weights.
func DailyBins(t *trace.Trace, a Attr, opt DailyBinsOptions) Bins {
	nb := opt.Bins
	if nb <= 0 {
		nb = 16
	}
	minJobs := opt.MinJobs
	if minJobs <= 0 {
		minJobs = 5
	}
	var vals []float64
	for i := range t.Jobs {
		if v := a.Value(&t.Jobs[i]); v >= 0 {
			vals = append(vals, v)
		}
	}
	b := Bins{Weights: make([]float64, nb)}
	if len(vals) == 0 {
		return b
	}
	sorted := slices.Clone(vals)
	slices.Sort(sorted)
	for k := 1; k < nb; k++ {
		b.Cuts = append(b.Cuts, stat.Quantile(float64(k)/float64(nb), stat.Empirical, sorted, nil))
	}
	bin := func(v float64) int {
		k, _ := slices.BinarySearch(b.Cuts, v)
		return k
	}
	clk := t.Clock()
	counts := make([]int, nb)
	day, n := "", 0
	flush := func() {
		if n >= minJobs {
			mx := slices.Max(counts)
			b.MaxFraction = append(b.MaxFraction, float64(mx)/float64(n))
		}
		clear(counts)
		n = 0
	}
	for i := range t.Jobs {
		v := a.Value(&t.Jobs[i])
		if v < 0 {
			continue
		}
		d := clk.Time(t.Jobs[i].Submit).Format("2006-01-02")
		if d != day {
			flush()
			day = d
		}
		k := bin(v)
		counts[k]++
		b.Weights[k]++
		n++
	}
	flush()
	for k := range b.Weights {
		b.Weights[k] /= float64(len(vals))
	}
	if len(b.MaxFraction) > 0 {
		slices.Sort(b.MaxFraction)
		b.Median = stat.Quantile(0.5, stat.Empirical, b.MaxFraction, nil)
		b.Mean = stat.Mean(b.MaxFraction, nil)
	}
	return b
}
