package metrics

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/stats"
	"github.com/hpcwl/hpcwl/trace"
)

// Options control [Compute]. The zero value means the defaults.
type Options struct {
	// Tau is the bounded-slowdown threshold in seconds; 0 means 10 s, the
	// community convention (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, chapter 2).
	Tau sim.Time
	// WarmUp and CoolDown exclude the jobs submitted within that many
	// seconds of the first or last submit time; >= 0, default 0.
	WarmUp, CoolDown sim.Time
	// Clock converts times to the log's calendar for the monthly
	// breakdown; nil means UTC with time 0 at the Unix epoch.
	Clock *trace.Clock
	// WarmUpJobs and CoolDownJobs exclude the first and the last that
	// many jobs by submit time (ties by arrival order), on top of WarmUp
	// and CoolDown; >= 0, default 0.
	WarmUpJobs, CoolDownJobs int
	// NoGroups skips the per-user and per-month breakdowns.
	NoGroups bool
	// CILevel, when above 0, adds confidence intervals of the mean wait,
	// slowdown and bounded slowdown of this level (e.g. 0.95) by batch
	// means over the measured jobs in arrival order ([stats.BatchMeans]).
	CILevel float64
	// DeferIntervals keeps what the intervals need (each measured job's
	// wait and runtime, 16 bytes) in the summary instead of computing them:
	// [Summary.FinishIntervals] computes them later, once the run's
	// outcomes are no longer held. The intervals themselves need a copy
	// of one quantity (8 bytes per job) and memory for the
	// autocorrelation's window ([stats.AutocorrTime]), so deferring them
	// saves memory only where 8 bytes per job more at once matter more
	// than the 16 kept.
	DeferIntervals bool
}

// Interval is a confidence interval of one run's mean, or the reason
// there is none (Note; the run is too short for its autocorrelation).
type Interval struct {
	stats.MeanCI
	Note string `json:"note,omitempty"`
	// LowRaised says that the batch-means interval reached below the least
	// value the quantity takes (a wait of 0 s, a slowdown of 1) and that
	// Low was raised to it: no mean can be lower, so the interval keeps
	// every mean it held.
	LowRaised bool `json:"low_raised,omitempty"`
}

// quantityInterval is interval for quantity q of the jobs, its lower end
// raised to the least value q takes.
func quantityInterval(x []float64, level float64, q int) Interval {
	ci := interval(x, level)
	least := 1.0
	if q == waitQ {
		least = 0
	}
	if ci.Low < least {
		ci.Low, ci.LowRaised = least, true
	}
	return ci
}

// Intervals are the confidence intervals of a run's means.
type Intervals struct {
	Wait            Interval `json:"wait"`
	Slowdown        Interval `json:"slowdown"`
	BoundedSlowdown Interval `json:"bounded_slowdown"`
}

// interval returns the batch-means interval of x's mean.
func interval(x []float64, level float64) Interval {
	ci, err := stats.BatchMeans(x, level)
	if err != nil {
		return Interval{MeanCI: stats.MeanCI{Mean: ci.Mean, Level: level, Method: ci.Method, Tau: ci.Tau,
			BatchSize: ci.BatchSize, Batches: ci.Batches, Low: math.NaN(), High: math.NaN()}, Note: err.Error()}
	}
	return Interval{MeanCI: ci}
}

// Stat summarizes one per-job quantity.
type Stat struct {
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	P95    float64 `json:"p95"`
	Max    float64 `json:"max"`
}

// Group holds the figures of the jobs of one user or one month.
type Group struct {
	// Key is the user ID or the month as "2006-01" (local time of the log,
	// by submit time).
	Key             string `json:"key"`
	Jobs            int    `json:"jobs"`
	Wait            Stat   `json:"wait"`
	Response        Stat   `json:"response"`
	Slowdown        Stat   `json:"slowdown"`
	BoundedSlowdown Stat   `json:"bounded_slowdown"`
}

// Summary is the figures of one run.
type Summary struct {
	// Jobs counts the measured jobs; Excluded those left out by the
	// warm-up and cool-down.
	Jobs     int `json:"jobs"`
	Excluded int `json:"excluded"`
	// Wait is start - submit; Response end - submit; Slowdown
	// max(1, response / max(runtime, 1 s)); BoundedSlowdown
	// max(1, response / max(runtime, Tau)). Runtime is the time the job
	// actually ran. Wait and Response are in seconds.
	//
	// Zero-runtime jobs follow one rule everywhere (here, in replicate's
	// metrics and in simulate's jobs.csv stretch): every slowdown is a
	// bounded slowdown, the plain one (and the stretch) with a threshold
	// of 1 s, the resolution of SWF times. For a runtime of 1 s or more the
	// plain slowdown is response / runtime as usual; a zero-runtime job
	// enters every figure, with a slowdown of max(1, wait in seconds),
	// never infinite and never left out. ZeroRuntime counts such jobs.
	Wait            Stat `json:"wait"`
	Response        Stat `json:"response"`
	Slowdown        Stat `json:"slowdown"`
	BoundedSlowdown Stat `json:"bounded_slowdown"`
	// Tau is the bounded-slowdown threshold used, in seconds.
	Tau sim.Time `json:"tau"`
	// ZeroRuntime counts the measured jobs that ran 0 s.
	ZeroRuntime int `json:"zero_runtime_jobs"`
	// WindowStart and WindowEnd bound the measured window: from the first
	// submit plus the warm-up to the last end (or, with a cool-down, the
	// last submit minus the cool-down).
	WindowStart sim.Time `json:"window_start"`
	WindowEnd   sim.Time `json:"window_end"`
	// Utilization is the processor-time of all jobs within the window
	// divided by the machine's (P x window length).
	Utilization float64 `json:"utilization"`
	// Makespan is the last end minus the first submit over all jobs (Madon
	// eq. 1), in seconds.
	Makespan sim.Time `json:"makespan"`
	// Throughput is the number of measured jobs that completed within the
	// window, per week of window.
	Throughput float64 `json:"throughput_per_week"`
	// QueueMean is the time-weighted mean number of waiting jobs within the
	// window; QueueMax the largest.
	QueueMean float64 `json:"queue_mean"`
	QueueMax  int     `json:"queue_max"`
	// Backfilled is the fraction of measured jobs that started while an
	// earlier job was waiting; Killed counts jobs stopped at their
	// requested time; Misses counts deadline misses.
	Backfilled float64 `json:"backfilled"`
	Killed     int     `json:"killed"`
	Misses     int64   `json:"deadline_misses"`
	// Accuracy judges the runtime predictions of the measured jobs.
	Accuracy Accuracy `json:"prediction_accuracy"`
	// CI holds the confidence intervals of the means (with
	// Options.CILevel).
	CI *Intervals `json:"confidence_intervals,omitempty"`
	// PerUser and PerMonth break the job figures down by user (ordered by
	// user ID) and by calendar month of submission (in order).
	PerUser  []Group `json:"per_user,omitempty"`
	PerMonth []Group `json:"per_month,omitempty"`

	pending *sample // Options.DeferIntervals: the intervals still to compute
}

// sample is what the intervals of a run need: each measured job's wait
// and runtime, in arrival order, and the intervals' level.
type sample struct {
	waits, runs []sim.Time
	tau         sim.Time
	level       float64
}

// FinishIntervals computes the confidence intervals deferred by
// Options.DeferIntervals (the same as Compute gives without it) and drops
// the jobs' figures they needed. It does nothing otherwise.
func (s *Summary) FinishIntervals() {
	p := s.pending
	if p == nil {
		return
	}
	s.pending = nil
	var x []float64
	var ci [quantities]Interval
	var o sim.Outcome
	for _, q := range []int{waitQ, sdQ, bsdQ} {
		x = x[:0]
		for k, w := range p.waits {
			o.Start, o.End = w, w+p.runs[k]
			x = append(x, quantity(&o, q, p.tau))
		}
		ci[q] = quantityInterval(x, p.level, q)
	}
	s.CI = &Intervals{ci[waitQ], ci[sdQ], ci[bsdQ]}
}

// Compute returns the figures of res. Jobs that never started (none in a
// completed run) are left out.
func Compute(res *sim.Result, opt Options) (*Summary, error) {
	if opt.Tau < 0 || opt.WarmUp < 0 || opt.CoolDown < 0 || opt.WarmUpJobs < 0 || opt.CoolDownJobs < 0 {
		return nil, fmt.Errorf("metrics: tau %d, warm-up %d, cool-down %d, warm-up jobs %d and cool-down jobs %d must be >= 0",
			opt.Tau, opt.WarmUp, opt.CoolDown, opt.WarmUpJobs, opt.CoolDownJobs)
	}
	if !(opt.CILevel >= 0 && opt.CILevel < 1) {
		return nil, fmt.Errorf("metrics: confidence level %v is not between 0 and 1", opt.CILevel)
	}
	tau := opt.Tau
	if tau == 0 {
		tau = 10
	}
	s := &Summary{Tau: tau}
	jobs := res.Jobs
	if len(jobs) == 0 {
		return s, nil
	}
	w, err := measureWindow(jobs, opt)
	if err != nil {
		return nil, err
	}
	s.Makespan = w.makespan
	s.WindowStart, s.WindowEnd = w.start, w.end
	n := len(jobs)
	measured := make([]int32, 0, n)
	var busy float64
	completed, backfilled := 0, 0
	for i := range jobs {
		o := &jobs[i]
		if o.Start >= 0 {
			a, b := max(o.Start, s.WindowStart), min(o.End, s.WindowEnd)
			if b > a {
				busy += float64(b-a) * float64(o.Procs)
			}
		}
		if !w.measured(jobs, i) {
			continue
		}
		measured = append(measured, int32(i))
		if o.End == o.Start {
			s.ZeroRuntime++
		}
		if o.End <= s.WindowEnd {
			completed++
		}
		if o.Backfilled {
			backfilled++
		}
		if o.Killed {
			s.Killed++
		}
		s.Misses += int64(o.Misses)
	}
	s.Jobs = len(measured)
	s.Excluded = n - s.Jobs
	span := float64(s.WindowEnd - s.WindowStart)
	s.Utilization = busy / (float64(res.Procs) * span)
	s.Throughput = float64(completed) / (span / (7 * 86400))
	if s.Jobs > 0 {
		s.Backfilled = float64(backfilled) / float64(s.Jobs)
	}
	// One quantity at a time through one buffer: 8 bytes per measured job
	// instead of four vectors of them. The intervals see each quantity in
	// arrival order, before summarize reorders it.
	var x []float64
	var ci [quantities]Interval
	now := opt.CILevel > 0 && !opt.DeferIntervals
	for q := range quantities {
		x = fill(x, jobs, measured, q, tau)
		if now && q != respQ {
			ci[q] = quantityInterval(x, opt.CILevel, q)
		}
		*s.stat(q) = summarize(x)
	}
	if now {
		s.CI = &Intervals{ci[waitQ], ci[sdQ], ci[bsdQ]}
	}
	if opt.CILevel > 0 && opt.DeferIntervals {
		p := &sample{waits: make([]sim.Time, len(measured)), runs: make([]sim.Time, len(measured)), tau: tau, level: opt.CILevel}
		for k, i := range measured {
			o := &jobs[i]
			p.waits[k], p.runs[k] = o.Start-o.Submit, o.End-o.Start
		}
		s.pending = p
	}
	x = nil
	s.QueueMean, s.QueueMax = queueStats(res, s.WindowStart, s.WindowEnd)
	s.Accuracy = ComputeAccuracy(res, measured)
	if !opt.NoGroups {
		s.PerUser = groups(jobs, measured, tau, func(o *sim.Outcome) string { return strconv.Itoa(int(o.User)) }, true)
		m := newMonths(opt.Clock)
		s.PerMonth = groups(jobs, measured, tau, func(o *sim.Outcome) string { return m.key(o.Submit) }, false)
	}
	return s, nil
}

// window is the measured window of a run.
type window struct {
	start, end sim.Time
	makespan   sim.Time
	trimmed    []bool // jobs left out by the job-count trims, or nil
}

// measureWindow returns the window of jobs (a non-empty run) under the
// warm-up and cool-down of opt: from the first submit plus the warm-up to
// the last end (or, with a cool-down, the last submit minus the
// cool-down), narrowed to the jobs the job-count trims keep.
func measureWindow(jobs []sim.Outcome, opt Options) (window, error) {
	first, lastSub, lastEnd := jobs[0].Submit, jobs[0].Submit, jobs[0].End
	for i := range jobs {
		o := &jobs[i]
		first = min(first, o.Submit)
		lastSub = max(lastSub, o.Submit)
		lastEnd = max(lastEnd, o.End)
	}
	w := window{start: first + opt.WarmUp, end: lastEnd, makespan: lastEnd - first}
	if opt.CoolDown > 0 {
		w.end = lastSub - opt.CoolDown
	}
	if w.end <= w.start {
		return w, fmt.Errorf("metrics: warm-up %d s and cool-down %d s leave no window of the %d s submission period",
			opt.WarmUp, opt.CoolDown, lastSub-first)
	}
	n := len(jobs)
	if opt.WarmUpJobs+opt.CoolDownJobs >= n {
		return w, fmt.Errorf("metrics: a warm-up of %d jobs and a cool-down of %d jobs leave none of the run's %d jobs",
			opt.WarmUpJobs, opt.CoolDownJobs, n)
	}
	trimmed, firstKept, lastKept := trimByCount(jobs, opt.WarmUpJobs, opt.CoolDownJobs)
	w.trimmed = trimmed
	if opt.WarmUpJobs > 0 {
		w.start = max(w.start, firstKept)
	}
	if opt.CoolDownJobs > 0 {
		w.end = min(w.end, lastKept)
	}
	if w.end <= w.start {
		return w, fmt.Errorf("metrics: warm-up and cool-down leave no window of the %d s submission period", lastSub-first)
	}
	return w, nil
}

// measured reports whether job i of jobs enters the figures: it started,
// was submitted within the window and was not trimmed.
func (w *window) measured(jobs []sim.Outcome, i int) bool {
	o := &jobs[i]
	return o.Start >= 0 && o.Submit >= w.start && o.Submit <= w.end && (w.trimmed == nil || !w.trimmed[i])
}

// trimByCount marks the first warm and the last cool jobs by submit time
// (ties in arrival order), or returns nil when both are 0, with the
// submit times of the first and last jobs kept.
func trimByCount(jobs []sim.Outcome, warm, cool int) (marks []bool, first, last sim.Time) {
	if warm == 0 && cool == 0 {
		return nil, 0, 0
	}
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(jobs[a].Submit, jobs[b].Submit) })
	out := make([]bool, len(jobs))
	for _, i := range order[:warm] {
		out[i] = true
	}
	for _, i := range order[len(order)-cool:] {
		out[i] = true
	}
	return out, jobs[order[warm]].Submit, jobs[order[len(order)-1-cool]].Submit
}

// months names the calendar month of a time, caching the current month's
// bounds so that jobs in submit order cost one comparison each.
type months struct {
	c        *trace.Clock
	from, to sim.Time
	name     string
}

func newMonths(c *trace.Clock) *months {
	if c == nil {
		c = (&trace.Trace{}).Clock()
	}
	return &months{c: c, from: 1, to: 0}
}

func (m *months) key(t sim.Time) string {
	if t >= m.from && t < m.to {
		return m.name
	}
	lt := m.c.Time(int64(t))
	first := time.Date(lt.Year(), lt.Month(), 1, 0, 0, 0, 0, m.c.Loc)
	m.from = sim.Time(first.Unix() - m.c.Start)
	m.to = sim.Time(first.AddDate(0, 1, 0).Unix() - m.c.Start)
	m.name = lt.Format("2006-01")
	return m.name
}

// The per-job quantities: wait, response, slowdown and bounded slowdown.
const (
	waitQ = iota
	respQ
	sdQ
	bsdQ
	quantities
)

// stat returns the field of quantity q.
func (s *Summary) stat(q int) *Stat {
	return [...]*Stat{&s.Wait, &s.Response, &s.Slowdown, &s.BoundedSlowdown}[q]
}

// quantity returns quantity q of job o, as vectors.add computes it.
func quantity(o *sim.Outcome, q int, tau sim.Time) float64 {
	w := float64(o.Start - o.Submit)
	if q == waitQ {
		return w
	}
	run := o.End - o.Start
	r := w + float64(run)
	switch q {
	case respQ:
		return r
	case sdQ:
		return max(1, r/float64(max(run, 1)))
	}
	return max(1, r/float64(max(run, tau)))
}

// fill sets x to quantity q of the listed jobs, in their order.
func fill(x []float64, jobs []sim.Outcome, idx []int32, q int, tau sim.Time) []float64 {
	x = slices.Grow(x[:0], len(idx))
	for _, i := range idx {
		x = append(x, quantity(&jobs[i], q, tau))
	}
	return x
}

// vectors hold the per-job quantities of the measured jobs.
type vectors struct {
	wait, resp, sd, bsd []float64
}

func newVectors(n int) *vectors {
	return &vectors{make([]float64, 0, n), make([]float64, 0, n), make([]float64, 0, n), make([]float64, 0, n)}
}

func (v *vectors) add(o *sim.Outcome, tau sim.Time) {
	w := float64(o.Start - o.Submit)
	run := o.End - o.Start
	r := w + float64(run)
	v.wait = append(v.wait, w)
	v.resp = append(v.resp, r)
	v.sd = append(v.sd, max(1, r/float64(max(run, 1))))
	v.bsd = append(v.bsd, max(1, r/float64(max(run, tau))))
}

// summarize returns the statistics of x, reordering it. Quantiles are
// empirical: the smallest value whose cumulative fraction reaches p, the
// definition of gonum's stat.Quantile with stat.Empirical, found by
// selection in linear time instead of a sort.
func summarize(x []float64) Stat {
	if len(x) == 0 {
		return Stat{}
	}
	var sum float64
	mx := x[0]
	for _, a := range x {
		sum += a
		mx = max(mx, a)
	}
	n := len(x)
	i95 := quantileIndex(0.95, n)
	p95 := selectKth(x, i95)
	// x[:i95] now holds the smaller values; the median lies among them.
	i50 := quantileIndex(0.5, n)
	med := p95
	if i50 < i95 {
		med = selectKth(x[:i95], i50)
	}
	return Stat{Mean: sum / float64(n), Median: med, P95: p95, Max: mx}
}

// quantileIndex is the index of the empirical p-quantile in sorted order.
func quantileIndex(p float64, n int) int {
	return max(0, int(math.Ceil(p*float64(n)))-1)
}

// selectKth reorders x so that x[k] is the value a sort would put there,
// with no larger value before it and no smaller one after, and returns it
// (Hoare's quickselect with a median-of-three pivot).
func selectKth(x []float64, k int) float64 {
	lo, hi := 0, len(x)-1
	for hi > lo {
		mid := lo + (hi-lo)/2
		if x[mid] < x[lo] {
			x[mid], x[lo] = x[lo], x[mid]
		}
		if x[hi] < x[lo] {
			x[hi], x[lo] = x[lo], x[hi]
		}
		if x[hi] < x[mid] {
			x[hi], x[mid] = x[mid], x[hi]
		}
		pivot := x[mid]
		i, j := lo, hi
		for i <= j {
			for x[i] < pivot {
				i++
			}
			for x[j] > pivot {
				j--
			}
			if i <= j {
				x[i], x[j] = x[j], x[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return x[k]
		}
	}
	return x[k]
}

func groups(jobs []sim.Outcome, measured []int32, tau sim.Time, key func(*sim.Outcome) string, numeric bool) []Group {
	// The jobs are grouped by a counting sort: a group number per job, then
	// the jobs in group order (8 bytes per job, without the growth of a
	// list per group).
	ids := map[string]int32{}
	var keys []string
	var count []int32
	gid := make([]int32, len(measured))
	for k, i := range measured {
		s := key(&jobs[i])
		g, ok := ids[s]
		if !ok {
			g = int32(len(keys))
			ids[s] = g
			keys = append(keys, s)
			count = append(count, 0)
		}
		gid[k] = g
		count[g]++
	}
	order := make([]int32, len(keys)) // the groups in key order
	for g := range order {
		order[g] = int32(g)
	}
	if numeric {
		slices.SortFunc(order, func(a, b int32) int {
			x, _ := strconv.Atoi(keys[a])
			y, _ := strconv.Atoi(keys[b])
			return x - y
		})
	} else {
		slices.SortFunc(order, func(a, b int32) int { return strings.Compare(keys[a], keys[b]) })
	}
	off := make([]int32, len(keys)+1) // group g's jobs: members[off[g]:off[g+1]]
	for g, c := range count {
		off[g+1] = off[g] + c
	}
	next := slices.Clone(off[:len(keys)])
	members := make([]int32, len(measured))
	for k, i := range measured {
		members[next[gid[k]]] = i
		next[gid[k]]++
	}
	out := make([]Group, 0, len(keys))
	var x []float64
	for _, g := range order {
		idx := members[off[g]:off[g+1]]
		gr := Group{Key: keys[g], Jobs: len(idx)}
		for q := range quantities {
			x = fill(x, jobs, idx, q, tau)
			*gr.stat(q) = summarize(x)
		}
		out = append(out, gr)
	}
	return out
}

// stat returns the field of quantity q.
func (g *Group) stat(q int) *Stat {
	return [...]*Stat{&g.Wait, &g.Response, &g.Slowdown, &g.BoundedSlowdown}[q]
}
