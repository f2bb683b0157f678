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

// Waiting returns, for each time in at, the number of jobs of res
// submitted before it and not yet started: the queue, the part of
// [Outstanding] that grows when a machine cannot keep up.
func Waiting(res *sim.Result, at []int64) []float64 {
	out := make([]float64, len(at))
	sub := make([]int64, 0, len(res.Jobs))
	start := make([]int64, 0, len(res.Jobs))
	for i := range res.Jobs {
		o := &res.Jobs[i]
		sub = append(sub, int64(o.Submit))
		if o.Start >= 0 {
			start = append(start, int64(o.Start))
		}
	}
	slices.Sort(sub)
	slices.Sort(start)
	for k, t := range at {
		arrived := sort.Search(len(sub), func(i int) bool { return sub[i] >= t })
		started := sort.Search(len(start), func(i int) bool { return start[i] >= t })
		out[k] = float64(max(0, arrived-started))
	}
	return out
}

// SaturatedRun applies the saturation detector to a simulated run sampled
// at the times in at (week starts): the run is saturated when [Saturated]
// flags its outstanding jobs and the queue grows too: the same detector's
// slope on the waiting jobs ([Waiting]) is positive. Outstanding jobs also
// grow when long jobs pile up running on a machine that has room for them;
// a run whose queue never grows (the running minimum of its waiting jobs
// stays flat, an idle machine) is not saturated. The slope returned is the
// outstanding jobs'.
func SaturatedRun(res *sim.Result, at []int64) (bool, float64) {
	sat, slope := Saturated(Outstanding(res, at))
	if !sat {
		return false, slope
	}
	_, queue := Saturated(Waiting(res, at))
	return queue > 0, slope
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
