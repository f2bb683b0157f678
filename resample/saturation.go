package resample

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/hpcwl/hpcwl/sim"
)

// Outstanding returns, for each time in at, the number of jobs of res
// submitted before it and not yet terminated (waiting or running): the series
// the saturation detector reads at each week start (N. Zakay, Improved Realism
// and Representativeness of Workloads to Improve Reliability of Performance
// Evaluations, PhD thesis, Hebrew University, chapter 3, section 6). Jobs that
// never started count as outstanding.
func Outstanding(res *sim.Result, at []int64) []float64 {
	c := newTimeCounts(at)
	arrived, ended := c.counts(), c.counts()
	for i := range res.Jobs {
		o := &res.Jobs[i]
		c.addBefore(arrived, int64(o.Submit))
		if o.End >= 0 {
			c.addAtOrBefore(ended, int64(o.End))
		}
	}
	sum(arrived)
	sum(ended)
	out := make([]float64, len(at))
	for k, t := range at {
		out[k] = float64(c.at(arrived, t) - c.at(ended, t))
	}
	return out
}

// Waiting returns, for each time in at, the number of jobs of res
// submitted before it and not yet started: the queue, the part of
// [Outstanding] that grows when a machine cannot keep up.
func Waiting(res *sim.Result, at []int64) []float64 {
	c := newTimeCounts(at)
	arrived, started := c.counts(), c.counts()
	for i := range res.Jobs {
		o := &res.Jobs[i]
		c.addBefore(arrived, int64(o.Submit))
		if o.Start >= 0 {
			c.addBefore(started, int64(o.Start))
		}
	}
	sum(arrived)
	sum(started)
	out := make([]float64, len(at))
	for k, t := range at {
		out[k] = float64(max(0, c.at(arrived, t)-c.at(started, t)))
	}
	return out
}

// timeCounts counts, for each of a few sample times, the event times
// before it, in memory for the sample times only (a run's jobs are not
// copied and sorted): each event is added at the first sample time it
// counts for, and the counts are summed over the sample times when read.
type timeCounts struct {
	sorted []int64 // the sample times, ascending
}

func newTimeCounts(at []int64) timeCounts {
	if slices.IsSorted(at) {
		return timeCounts{at}
	}
	return timeCounts{slices.Sorted(slices.Values(at))}
}

// counts returns an empty set of counts: one per sample time and one for
// the events after the last.
func (c timeCounts) counts() []int { return make([]int, len(c.sorted)+1) }

// addBefore counts the event at v for the sample times t > v.
func (c timeCounts) addBefore(n []int, v int64) {
	k, found := slices.BinarySearch(c.sorted, v)
	for found && k < len(c.sorted) && c.sorted[k] == v {
		k++
	}
	n[k]++
}

// addAtOrBefore counts the event at v for the sample times t >= v.
func (c timeCounts) addAtOrBefore(n []int, v int64) {
	k, _ := slices.BinarySearch(c.sorted, v)
	n[k]++
}

// sum turns n, once every event is added, into the counts at each sample
// time: the events added at it and at the sample times before.
func sum(n []int) {
	for k := 1; k < len(n); k++ {
		n[k] += n[k-1]
	}
}

// at returns the count of the sample time t (one of the sample times) in
// n, once summed.
func (c timeCounts) at(n []int, t int64) int {
	k, _ := slices.BinarySearch(c.sorted, t)
	return n[k]
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
