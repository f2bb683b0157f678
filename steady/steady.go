package steady

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/stats"
)

// Week is the length of a week in seconds.
const Week = 7 * 86400

// EdgeFraction is the largest share of a run's jobs that [Analyze]
// considers leaving out at either edge: a longer transient is not a
// warm-up but a run without a steady state.
const EdgeFraction = 0.1

// EdgeShift is the relative change of the mean wait above which [Analyze]
// warns of a warm-up or drain: leaving out the jobs MSER-5 marks moves the
// mean by more than 5%.
const EdgeShift = 0.05

// MinEdgeShift is the smallest change of the mean wait, in seconds, that an
// edge warning reports: on a log whose jobs hardly wait, a shift from 0.4 s
// to 0.2 s is 50% but says nothing about the run.
const MinEdgeShift = 60.0

// WeekCount is the state of the machine at the start of one week of a run.
type WeekCount struct {
	// Week numbers the weeks from 1 (the first full week after the first
	// submission); Start is its start time, in seconds of the run.
	Week  int   `json:"week" parquet:"week"`
	Start int64 `json:"start" parquet:"start"`
	// Outstanding counts the jobs submitted and not yet terminated;
	// Waiting those not yet started (the queue).
	Outstanding int64 `json:"outstanding" parquet:"outstanding"`
	Waiting     int64 `json:"waiting" parquet:"waiting"`
}

// Trim is a suggested warm-up or cool-down: Jobs jobs by submit time,
// submitted within Seconds of the run's first (or last) submission, and
// the mean wait without them.
type Trim struct {
	Jobs     int     `json:"jobs"`
	Seconds  int64   `json:"seconds"`
	MeanWait float64 `json:"mean_wait_without"`
}

// Report is the steady-state verdict of one run.
type Report struct {
	// OfferedLoad is the work of the run's jobs (processors x time run)
	// over the machine times the span of their submissions.
	OfferedLoad float64 `json:"offered_load"`
	// Weeks is the saturation detector's input; Saturated its verdict
	// and Slope the growth of the outstanding jobs' running minimum, in
	// jobs per week.
	Weeks     []WeekCount `json:"weeks"`
	Saturated bool        `json:"saturated"`
	Slope     float64     `json:"saturation_slope"`
	// MeanWait is the mean wait of every started job; WarmUp and
	// CoolDown the MSER-5 suggestions from either end.
	MeanWait float64 `json:"mean_wait"`
	WarmUp   Trim    `json:"warmup"`
	CoolDown Trim    `json:"cooldown"`
	// Warnings say what the run's reader must know, and what to pass.
	Warnings []string `json:"warnings,omitempty"`
}

// Analyze returns the steady-state report of res. Jobs that never
// started count as outstanding and waiting and enter no mean.
func Analyze(res *sim.Result) *Report {
	r := &Report{}
	// 4 bytes per job for the order, and the weekly counts taken before
	// the waits are: a run of millions of jobs holds little beside its
	// outcomes at any time.
	idx := make([]int32, 0, len(res.Jobs))
	for i := range res.Jobs {
		if res.Jobs[i].Start >= 0 {
			idx = append(idx, int32(i))
		}
	}
	if len(idx) == 0 {
		return r
	}
	if !slices.IsSortedFunc(idx, func(a, b int32) int { return cmp.Compare(res.Jobs[a].Submit, res.Jobs[b].Submit) }) {
		slices.SortStableFunc(idx, func(a, b int32) int { return cmp.Compare(res.Jobs[a].Submit, res.Jobs[b].Submit) })
	}
	first, last := res.Jobs[idx[0]].Submit, res.Jobs[idx[len(idx)-1]].Submit
	r.weeks(res, int64(first), int64(last))
	waits := make([]float64, len(idx))
	var work float64
	for k, i := range idx {
		o := &res.Jobs[i]
		waits[k] = float64(o.Wait())
		work += float64(o.Ran()) * float64(o.Procs)
	}
	if last > first {
		r.OfferedLoad = work / (float64(res.Procs) * float64(last-first))
	}
	r.MeanWait = mean(waits)
	r.WarmUp = trim(waits, func(d int) int64 { return int64(res.Jobs[idx[d]].Submit - first) }, false)
	// The last use of waits: reversed in place.
	r.CoolDown = trim(waits, func(d int) int64 { return int64(last - res.Jobs[idx[len(idx)-1-d]].Submit) }, true)
	r.Warnings = r.warnings()
	return r
}

// weeks samples the outstanding and waiting jobs at each week start
// within the submission period and applies the saturation detector.
func (r *Report) weeks(res *sim.Result, first, last int64) {
	var at []int64
	for t := first + Week; t <= last; t += Week {
		at = append(at, t)
	}
	out, wait := resample.Outstanding(res, at), resample.Waiting(res, at)
	r.Weeks = make([]WeekCount, len(at))
	for k, t := range at {
		r.Weeks[k] = WeekCount{Week: k + 1, Start: t, Outstanding: int64(out[k]), Waiting: int64(wait[k])}
	}
	r.Saturated, r.Slope = resample.SaturatedRun(res, at)
}

// trim applies MSER-5 to waits from the front (or, reversed in place, from
// the back), within EdgeFraction of the jobs; at(d) is the time from the
// run's edge to the d-th job from it. A truncation at the bound is no
// warm-up (the series keeps changing) and is reported as none.
func trim(waits []float64, at func(d int) int64, back bool) Trim {
	x := waits
	if back {
		slices.Reverse(x)
	}
	limit := int(EdgeFraction * float64(len(x)))
	d := stats.MSERTruncation(x, limit)
	if d >= limit-4 { // at the bound: no edge effect to trim, see MSERTruncation
		d = 0
	}
	t := Trim{Jobs: d, MeanWait: mean(x[d:])}
	if d > 0 {
		t.Seconds = at(d - 1)
	}
	return t
}

func mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

func (r *Report) warnings() []string {
	var w []string
	if r.OfferedLoad >= 1 {
		w = append(w, fmt.Sprintf("offered load %.3f is at or above 1: the machine cannot do the work in the time it is submitted, "+
			"so queues grow for the whole run and the means measure the run's length", r.OfferedLoad))
	}
	if r.Saturated {
		w = append(w, fmt.Sprintf("saturated: the outstanding jobs grow by %.3g a week over the run (Zakay's detector; simulate's "+
			"--outstanding writes the weekly series); waits and slowdowns measure the backlog, not the scheduler", r.Slope))
	}
	edge := func(name, flag, end string, t Trim) {
		if t.Jobs == 0 || r.MeanWait == 0 || math.Abs(t.MeanWait-r.MeanWait) <= max(EdgeShift*math.Abs(r.MeanWait), MinEdgeShift) {
			return
		}
		w = append(w, fmt.Sprintf("%s: the mean wait moves from %.0f s to %.0f s without the %d jobs submitted within %s of the %s "+
			"(MSER-5); consider simulate's --%s %s or --%s-jobs %d",
			name, r.MeanWait, t.MeanWait, t.Jobs, days(t.Seconds), end, flag, Duration(roundUp(t.Seconds)), flag, t.Jobs))
	}
	edge("warm-up", "warmup", "start", r.WarmUp)
	edge("drain", "cooldown", "end", r.CoolDown)
	return w
}

// days formats seconds as days with one decimal, or hours below a day.
func days(s int64) string {
	if s < 86400 {
		return fmt.Sprintf("%.1f h", float64(s)/3600)
	}
	return fmt.Sprintf("%.1f days", float64(s)/86400)
}

// roundUp rounds seconds up to a whole hour below two days, else to a
// whole day.
func roundUp(s int64) int64 {
	if s < 2*86400 {
		return (s + 3599) / 3600 * 3600
	}
	return (s + 86399) / 86400 * 86400
}

// Duration formats seconds as the duration flags read them: "90s",
// "5h", "3d", or plain seconds when no unit divides them.
func Duration(s int64) string {
	switch {
	case s == 0:
		return "0"
	case s%86400 == 0:
		return fmt.Sprintf("%dd", s/86400)
	case s%3600 == 0:
		return fmt.Sprintf("%dh", s/3600)
	case s%60 == 0:
		return fmt.Sprintf("%dm", s/60)
	}
	return fmt.Sprintf("%ds", s)
}
