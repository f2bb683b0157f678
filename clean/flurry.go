package clean

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// Flurry detector names, as used in [Flurry.Method].
const (
	// MethodWeekly flags a user-week whose job count is at least Factor
	// times the largest weekly count of any other user (Talby's heuristic).
	MethodWeekly = "weekly"
	// MethodMedian flags a user-week whose job count is more than
	// MedianFactor times the user's own median weekly count (Zakay's
	// detector for rare behaviors).
	MethodMedian = "median"
)

// FlurryOptions configure flurry detection. Zero values select the defaults
// given with each field.
//
// Weeks start on Monday 00:00 in the log's local time
// ([trace.Clock.Week]). Flagged consecutive weeks of a user are merged into
// one flurry, which is then extended backwards and forwards over the user's
// jobs as long as consecutive submits are less than Gap apart. Jobs of
// unknown users (-1) are never flagged.
type FlurryOptions struct {
	// Weekly enables the weekly detector ([MethodWeekly]).
	Weekly bool
	// Factor is the weekly detector's ratio to the other users' largest
	// weekly count (default 3).
	Factor float64
	// MinJobs is the least weekly count the weekly detector flags (default 500).
	MinJobs int
	// Cascade lets the weekly detector find several flurry users that hide
	// one another: users are ranked by their largest weekly count p1 >= p2
	// >= ...; the top K users are candidates for the largest K with
	// pK >= Factor*p(K+1) and pK >= MinJobs, and their weeks are compared
	// with p(K+1). Without it (the default, as specified), each user's
	// weeks are compared with the largest count of all other users.
	Cascade bool

	// Median enables the median detector ([MethodMedian]).
	Median bool
	// MedianFactor is the median detector's ratio to the user's median
	// weekly count over the weeks the user was active (default 10).
	MedianFactor float64
	// MedianMinJobs: the median detector flags weeks with more jobs than
	// this (default 500).
	MedianMinJobs int

	// Gap extends each flurry over the user's jobs submitted less than Gap
	// seconds apart (default 86400, one day); negative disables it.
	Gap int64
}

// Enabled reports whether any detector is on.
func (o FlurryOptions) Enabled() bool { return o.Weekly || o.Median }

func (o FlurryOptions) withDefaults() FlurryOptions {
	if o.Factor <= 0 {
		o.Factor = 3
	}
	if o.MinJobs <= 0 {
		o.MinJobs = 500
	}
	if o.MedianFactor <= 0 {
		o.MedianFactor = 10
	}
	if o.MedianMinJobs <= 0 {
		o.MedianMinJobs = 500
	}
	if o.Gap == 0 {
		o.Gap = 86400
	}
	return o
}

// String describes the enabled detectors and their thresholds.
func (o FlurryOptions) String() string {
	o = o.withDefaults()
	var parts []string
	if o.Weekly {
		s := fmt.Sprintf("weekly(factor=%g, min=%d", o.Factor, o.MinJobs)
		if o.Cascade {
			s += ", cascade"
		}
		parts = append(parts, s+")")
	}
	if o.Median {
		parts = append(parts, fmt.Sprintf("median(factor=%g, min=%d)", o.MedianFactor, o.MedianMinJobs))
	}
	if len(parts) == 0 {
		return "none"
	}
	gap := "none"
	if o.Gap > 0 {
		gap = fmt.Sprintf("%ds", o.Gap)
	}
	return strings.Join(parts, " + ") + ", gap=" + gap
}

// Flurry is a burst of jobs by one user that a detector flagged.
type Flurry struct {
	// Method names the detector(s): "weekly", "median" or "weekly+median".
	Method string `json:"method"`
	User   int32  `json:"user"`
	// FirstWeek and LastWeek are the first and last flagged weeks
	// ([trace.Clock.Week]); extending the flurry over jobs less than a gap
	// apart may reach jobs in the weeks around them.
	FirstWeek int `json:"first_week"`
	LastWeek  int `json:"last_week"`
	// WeekStart is the local date of the Monday starting FirstWeek.
	WeekStart string `json:"week_start"`
	// FirstJob and LastJob are the smallest and largest job numbers of the
	// flurry's jobs; FirstSubmit and LastSubmit their submit times.
	FirstJob    int64 `json:"first_job"`
	LastJob     int64 `json:"last_job"`
	FirstSubmit int64 `json:"first_submit"`
	LastSubmit  int64 `json:"last_submit"`
	// Jobs is the number of jobs that Filter matches.
	Jobs int `json:"jobs"`
	// PeakWeekJobs is the user's largest job count in a flagged week.
	PeakWeekJobs int `json:"peak_week_jobs"`
	// Baseline is what the peak was compared with: the other users'
	// largest weekly count (weekly), or the user's median (median).
	Baseline float64 `json:"baseline"`
	// Filter is the expression that removes the flurry,
	// "user=U and job>=A and job<=B".
	Filter string `json:"filter"`
}

// interval is a flurry under construction: positions in a user's job list.
type interval struct {
	user          int
	first, last   int // indices into the user's job list
	wFirst, wLast int
	peak          int
	baseline      float64
	method        string
}

// userWeeks holds one user's jobs and weekly counts.
type userWeeks struct {
	u      trace.User
	weeks  []int // week of each job, in job order
	counts []weekCount
	peak   int
}

type weekCount struct{ week, n, first, last int }

// DetectFlurries returns the flurries the enabled detectors find in t,
// ordered by first submit time. It returns nothing when no detector is
// enabled. [FlurryJobs] finds the same in a log read job by job.
func DetectFlurries(t *trace.Trace, opt FlurryOptions) []Flurry {
	f := NewFlurryJobs(&t.Header)
	f.jobs = make([]flurryJob, 0, len(t.Jobs))
	for i := range t.Jobs {
		f.Add(&t.Jobs[i])
	}
	return f.Detect(opt)
}

// FlurryJobs gathers, job by job, what the flurry detectors need of a log:
// each job's number, submit time and user (24 bytes a job), for a log that
// is not held whole.
type FlurryJobs struct {
	clock *trace.Clock
	jobs  []flurryJob
}

type flurryJob struct {
	id, submit int64
	user       int32
}

// NewFlurryJobs returns an empty FlurryJobs for a log whose header is h
// (its start time and time zone place the weeks).
func NewFlurryJobs(h *swf.Header) *FlurryJobs {
	t := trace.Trace{Header: *h}
	return &FlurryJobs{clock: t.Clock()}
}

// UseHeader places the weeks with the clock of h instead: the header of
// the log the jobs were written to, when it moved the log's start.
func (f *FlurryJobs) UseHeader(h *swf.Header) {
	t := trace.Trace{Header: *h}
	f.clock = t.Clock()
}

// Add adds the next job of the log.
func (f *FlurryJobs) Add(j *trace.Job) {
	f.jobs = append(f.jobs, flurryJob{id: j.ID, submit: j.Submit, user: j.User})
}

// users groups the jobs by user as [trace.Trace.Users] does: users by ID,
// each user's jobs by submit time, then job number.
func (f *FlurryJobs) users() []trace.User {
	idx := map[int32]int{}
	var us []trace.User
	for i := range f.jobs {
		u := f.jobs[i].user
		k, ok := idx[u]
		if !ok {
			k = len(us)
			idx[u] = k
			us = append(us, trace.User{ID: u})
		}
		us[k].Jobs = append(us[k].Jobs, i)
	}
	sort.Slice(us, func(a, b int) bool { return us[a].ID < us[b].ID })
	for _, u := range us {
		jobs := u.Jobs
		before := func(a, b int) bool {
			ja, jb := &f.jobs[jobs[a]], &f.jobs[jobs[b]]
			if ja.submit != jb.submit {
				return ja.submit < jb.submit
			}
			return ja.id < jb.id
		}
		if !sort.SliceIsSorted(jobs, before) {
			sort.SliceStable(jobs, before)
		}
	}
	return us
}

// Detect returns the flurries the enabled detectors find in the jobs
// added, as [DetectFlurries] does.
func (f *FlurryJobs) Detect(opt FlurryOptions) []Flurry {
	if !opt.Enabled() {
		return nil
	}
	opt = opt.withDefaults()
	clock := f.clock
	t0 := clock.Time(0)
	monday0 := time.Date(t0.Year(), t0.Month(), t0.Day()-clock.DayOfWeek(0), 0, 0, 0, 0, clock.Loc)
	var users []userWeeks
	for _, u := range f.users() {
		if u.ID < 0 {
			continue
		}
		uw := userWeeks{u: u, weeks: make([]int, len(u.Jobs))}
		for k, ji := range u.Jobs {
			w := clock.Week(f.jobs[ji].submit)
			uw.weeks[k] = w
			if n := len(uw.counts); n > 0 && uw.counts[n-1].week == w {
				uw.counts[n-1].n++
				uw.counts[n-1].last = k
			} else {
				uw.counts = append(uw.counts, weekCount{week: w, n: 1, first: k, last: k})
			}
		}
		for _, c := range uw.counts {
			uw.peak = max(uw.peak, c.n)
		}
		users = append(users, uw)
	}
	var ivs []interval
	if opt.Weekly {
		ivs = append(ivs, weekly(users, opt)...)
	}
	if opt.Median {
		ivs = append(ivs, median(users, opt)...)
	}
	ivs = extendAndMerge(f.jobs, users, ivs, opt.Gap)

	out := make([]Flurry, 0, len(ivs))
	for _, iv := range ivs {
		uw := &users[iv.user]
		fl := Flurry{Method: iv.method, User: uw.u.ID, FirstWeek: iv.wFirst, LastWeek: iv.wLast,
			PeakWeekJobs: iv.peak, Baseline: iv.baseline}
		fl.FirstJob = f.jobs[uw.u.Jobs[iv.first]].id
		fl.LastJob = fl.FirstJob
		for _, ji := range uw.u.Jobs[iv.first : iv.last+1] {
			fl.FirstJob = min(fl.FirstJob, f.jobs[ji].id)
			fl.LastJob = max(fl.LastJob, f.jobs[ji].id)
		}
		fl.FirstSubmit = f.jobs[uw.u.Jobs[iv.first]].submit
		fl.LastSubmit = f.jobs[uw.u.Jobs[iv.last]].submit
		fl.WeekStart = monday0.AddDate(0, 0, 7*fl.FirstWeek).Format("2006-01-02")
		fl.Filter = fmt.Sprintf("user=%d and job>=%d and job<=%d", fl.User, fl.FirstJob, fl.LastJob)
		for _, ji := range uw.u.Jobs {
			if id := f.jobs[ji].id; id >= fl.FirstJob && id <= fl.LastJob {
				fl.Jobs++
			}
		}
		out = append(out, fl)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].FirstSubmit < out[b].FirstSubmit })
	return out
}

// runs turns the flagged weeks of one user into intervals, merging weeks
// that follow one another.
func runs(user int, uw *userWeeks, flagged func(weekCount) bool, baseline float64, method string) []interval {
	var ivs []interval
	for _, c := range uw.counts {
		if !flagged(c) {
			continue
		}
		if n := len(ivs); n > 0 && ivs[n-1].wLast == c.week-1 {
			iv := &ivs[n-1]
			iv.wLast, iv.last, iv.peak = c.week, c.last, max(iv.peak, c.n)
			continue
		}
		ivs = append(ivs, interval{user: user, first: c.first, last: c.last, wFirst: c.week, wLast: c.week,
			peak: c.n, baseline: baseline, method: method})
	}
	return ivs
}

func weekly(users []userWeeks, opt FlurryOptions) []interval {
	order := make([]int, len(users))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return users[order[a]].peak > users[order[b]].peak })
	peak := func(rank int) int {
		if rank < len(order) {
			return users[order[rank]].peak
		}
		return 0
	}
	baseline := make([]float64, len(users))
	for r, ui := range order {
		if r == 0 {
			baseline[ui] = float64(peak(1))
		} else {
			baseline[ui] = float64(peak(0))
		}
	}
	if opt.Cascade {
		k := 0
		for r := 0; r < len(order) && peak(r) >= opt.MinJobs; r++ {
			if float64(peak(r)) >= opt.Factor*float64(peak(r+1)) {
				k = r + 1
			}
		}
		for r := 0; r < k; r++ {
			baseline[order[r]] = float64(peak(k))
		}
	}
	var ivs []interval
	for ui := range users {
		b := baseline[ui]
		ivs = append(ivs, runs(ui, &users[ui], func(c weekCount) bool {
			return float64(c.n) >= opt.Factor*b && c.n >= opt.MinJobs
		}, b, MethodWeekly)...)
	}
	return ivs
}

func median(users []userWeeks, opt FlurryOptions) []interval {
	var ivs []interval
	for ui := range users {
		uw := &users[ui]
		ns := make([]int, len(uw.counts))
		for k, c := range uw.counts {
			ns[k] = c.n
		}
		sort.Ints(ns)
		m := float64(ns[len(ns)/2])
		if len(ns)%2 == 0 {
			m = float64(ns[len(ns)/2-1]+ns[len(ns)/2]) / 2
		}
		ivs = append(ivs, runs(ui, uw, func(c weekCount) bool {
			return float64(c.n) > opt.MedianFactor*m && c.n > opt.MedianMinJobs
		}, m, MethodMedian)...)
	}
	return ivs
}

// extendAndMerge extends each interval over jobs less than gap apart, then
// merges the intervals of a user that overlap or touch.
func extendAndMerge(jobs0 []flurryJob, users []userWeeks, ivs []interval, gap int64) []interval {
	for k := range ivs {
		iv := &ivs[k]
		jobs := users[iv.user].u.Jobs
		if gap > 0 {
			for iv.first > 0 && jobs0[jobs[iv.first]].submit-jobs0[jobs[iv.first-1]].submit < gap {
				iv.first--
			}
			for iv.last+1 < len(jobs) && jobs0[jobs[iv.last+1]].submit-jobs0[jobs[iv.last]].submit < gap {
				iv.last++
			}
		}
	}
	sort.SliceStable(ivs, func(a, b int) bool {
		if ivs[a].user != ivs[b].user {
			return ivs[a].user < ivs[b].user
		}
		return ivs[a].first < ivs[b].first
	})
	var out []interval
	for _, iv := range ivs {
		if n := len(out); n > 0 && out[n-1].user == iv.user && iv.first <= out[n-1].last+1 {
			o := &out[n-1]
			o.last = max(o.last, iv.last)
			o.wFirst, o.wLast = min(o.wFirst, iv.wFirst), max(o.wLast, iv.wLast)
			o.peak = max(o.peak, iv.peak)
			if o.method != iv.method && !strings.Contains(o.method, iv.method) {
				o.method = MethodWeekly + "+" + MethodMedian
			}
			continue
		}
		out = append(out, iv)
	}
	return out
}
