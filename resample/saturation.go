package resample

import (
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat"

	"github.com/hpcwl/hpcwl/sim"
)

// Outstanding returns, for each time in at, the number of jobs of res
// submitted before it and not yet terminated (waiting or running): the
// series the saturation detector reads at each week start (spec section
// 7.3). Jobs that never started count as outstanding.
func Outstanding(res *sim.Result, at []int64) []float64 {
	sub := make([]int64, 0, len(res.Jobs))
	end := make([]int64, 0, len(res.Jobs))
	for i := range res.Jobs {
		o := &res.Jobs[i]
		sub = append(sub, int64(o.Submit))
		if o.End >= 0 {
			end = append(end, int64(o.End))
		}
	}
	slices.Sort(sub)
	slices.Sort(end)
	out := make([]float64, len(at))
	for k, t := range at {
		arrived := sort.Search(len(sub), func(i int) bool { return sub[i] >= t })
		ended := sort.Search(len(end), func(i int) bool { return end[i] > t })
		out[k] = float64(arrived - ended)
	}
	return out
}

// SaturationSlope is the slope, in jobs per week, at or above which
// [Saturated] declares a run saturated (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 3, section 6).
const SaturationSlope = 1.0

// Saturated applies the saturation detector of Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 3, section 6 to the
// numbers of outstanding jobs at the start of each week: each count is
// replaced by the minimum from its week to the end, the last 20% of the
// weeks are dropped, and a least-squares line is fitted against the week
// index. The run is saturated when the slope is at least 1 job per week.
// It returns the verdict and the slope (0 for fewer than 2 weeks kept).
// c is not modified.
func Saturated(c []float64) (bool, float64) {
	m := slices.Clone(c)
	for k := len(m) - 2; k >= 0; k-- {
		m[k] = math.Min(m[k], m[k+1])
	}
	m = m[:int(math.Floor(0.8*float64(len(m))))]
	if len(m) < 2 {
		return false, 0
	}
	x := make([]float64, len(m))
	for k := range x {
		x[k] = float64(k)
	}
	_, slope := stat.LinearRegression(x, m, nil, false)
	return slope >= SaturationSlope, slope
}

// WeekStarts returns the start times of the workload's weeks 1 to
// Weeks-1, the times at which the
// saturation detector samples the outstanding jobs.
func (w *Workload) WeekStarts() []int64 {
	out := make([]int64, 0, w.Params.Weeks)
	for k := 1; k < w.Params.Weeks; k++ {
		out = append(out, w.WeekStart(k))
	}
	return out
}

// WeekStarts returns the start times of local weeks 1 to weeks-1 of the
// log's calendar (for a log or any workload generated from it).
func (p *Pools) WeekStarts(weeks int) []int64 {
	out := make([]int64, 0, weeks)
	for k := 1; k < weeks; k++ {
		out = append(out, p.cal.weekStart(k))
	}
	return out
}
