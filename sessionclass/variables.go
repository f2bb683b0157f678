// Package sessionclass treats sessions as observations, as Talby does in
// chapter 9 of his thesis (D. Talby, User Modeling of Parallel Workloads,
// PhD thesis, Hebrew University, 2006): a user's jobs form a session while
// the think time from the end of the user's previous job stays under 20
// minutes (section 9.2.1); each session is described by the 16 variables of
// Table 19 and section 9.2.2 ([Compute]); principal components of their
// correlation matrix show which features explain sessions (Table 20); and
// k-means on seven of them finds five classes, named by the thesis' rules
// (section 9.3, Table 21; [Classify]). [Online] assigns a new session its
// class from its first job alone (section 9.6).
package sessionclass

import (
	"fmt"
	"slices"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/trace"
)

// The session variables, in the row order of Talby's Table 20.
const (
	J      = iota // number of jobs
	D             // duration: last end - first submit, s
	Rm            // runtime median, s
	Ri            // runtime 90% interval (P95 - P5), s
	Tm            // think-time median, s
	Ti            // think-time interval, s
	Im            // inter-arrival median, s
	Ii            // inter-arrival interval, s
	IsDay         // ?D: 1 if the session starts in daytime
	Day           // %D: fraction of the session's span in daytime
	UP            // unique processor counts (5% tolerance)
	UR            // unique runtimes (5% tolerance)
	IsWork        // ?W: 1 if the session starts on a workday
	Work          // %W: fraction of the session's span on workdays
	Pm            // processors median, normalized to 128 processors
	Pi            // processors interval, normalized
	NumVariables
)

// Names are the variables' symbols in Talby's tables.
var Names = [NumVariables]string{"J", "D", "Rm", "Ri", "Tm", "Ti", "Im", "Ii", "?D", "%D", "UP", "UR", "?W", "%W", "Pm", "Pi"}

// ClusterVariables are the seven variables k-means uses (Talby (2006),
// section 9.3.1): D, Ti, %D, %W, UP, Pm and Rm.
var ClusterVariables = []int{D, Ti, Day, Work, UP, Pm, Rm}

// Threshold is the think time, in seconds, that starts a new session
// (Talby (2006), section 9.2.1: a session ends at 20 minutes or more).
const Threshold = 1200

// Daytime runs from 07:30 to 17:30 local time and workdays are Monday to
// Friday (Talby (2006), section 9.2.2, read off Figs. 21 and 22).
const (
	DayStart = 7*3600 + 30*60
	DayEnd   = 17*3600 + 30*60
)

// Session is one session as an observation.
type Session struct {
	// Log is the index of the session's trace among those given.
	Log int
	// User is the user ID (field 12; -1 for jobs without one).
	User int32
	// First is the first submit time (relative to the trace's start).
	First int64
	// Jobs are the indices of its jobs in the trace, in submit order.
	Jobs []int32
	// X holds the variables, indexed by J ... Pi.
	X [NumVariables]float64
	// Class is the session's class once classified, else -1.
	Class Class
}

// Options control [Compute].
type Options struct {
	// Threshold is the think time that starts a new session, s; 0 means
	// 1200 (20 minutes).
	Threshold int64
	// Procs is the machine size that processor counts are normalized by
	// (p·128/Procs); 0 means the trace's machine size.
	Procs int
}

// Compute identifies t's sessions by Talby's rule and computes their
// variables. log is stored in each session's Log.
//
// Choices where the thesis is silent: medians are gonum's empirical
// (lower) quantile and intervals P95 - P5; think and inter-arrival times of
// a single-job session are 0, and the first job's think time (the gap that
// started the session) is not one of the session's; a job's end is submit
// + wait + runtime; %D and %W are time-weighted over [first submit, last
// end] (a zero-length session takes ?D and ?W); UP and UR count values
// that differ by more than 5% from the smallest value of their group.
func Compute(t *trace.Trace, log int, opt Options) ([]Session, *session.Partition, error) {
	if opt.Threshold == 0 {
		opt.Threshold = Threshold
	}
	if opt.Threshold < 0 {
		return nil, nil, fmt.Errorf("sessionclass: negative threshold %d s", opt.Threshold)
	}
	procs := opt.Procs
	if procs <= 0 {
		var err error
		if procs, err = t.MachineSize(); err != nil {
			return nil, nil, err
		}
	}
	// Talby's new session at a think time >= threshold is the session
	// package's Last method at a think time > threshold - 1 (whole seconds).
	p, err := session.IdentifySessions(t, session.Options{Method: session.Last, Threshold: opt.Threshold - 1})
	if err != nil {
		return nil, nil, err
	}
	clock := t.Clock()
	norm := 128 / float64(procs)
	out := make([]Session, len(p.Sessions))
	var rt, pr, ia, tt []float64
	for s := range p.Sessions {
		ps := &p.Sessions[s]
		jobs := p.Jobs(s)
		o := &out[s]
		o.Log, o.User, o.First, o.Jobs, o.Class = log, p.Users[ps.User].ID, ps.First, jobs, -1
		rt, pr, ia, tt = rt[:0], pr[:0], ia[:0], tt[:0]
		for k, ix := range jobs {
			j := &t.Jobs[ix]
			if j.Runtime >= 0 {
				rt = append(rt, float64(j.Runtime))
			}
			if n := j.Processors(); n > 0 {
				pr = append(pr, float64(n))
			}
			if k > 0 {
				pos := int(ps.Lo) + k
				ia = append(ia, float64(p.Submit[pos]-p.Submit[pos-1]))
				tt = append(tt, float64(p.Submit[pos]-p.End[jobs[k-1]]))
			}
		}
		x := &o.X
		x[J] = float64(len(jobs))
		x[D] = float64(ps.MaxEnd - ps.First)
		x[Rm], x[Ri] = medianInterval(rt)
		x[Tm], x[Ti] = medianInterval(tt)
		x[Im], x[Ii] = medianInterval(ia)
		x[UR] = float64(unique(rt))
		x[UP] = float64(unique(pr))
		x[Pm], x[Pi] = medianInterval(pr)
		x[Pm] *= norm
		x[Pi] *= norm
		x[IsDay], x[IsWork] = b2f(isDaytime(clock, ps.First)), b2f(isWorkday(clock, ps.First))
		x[Day], x[Work] = x[IsDay], x[IsWork]
		if ps.MaxEnd > ps.First {
			x[Day], x[Work] = parts(clock, ps.First, ps.MaxEnd)
		}
	}
	return out, p, nil
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// medianInterval returns the median and P95 - P5 of v (sorted in place),
// 0 and 0 for no values.
func medianInterval(v []float64) (float64, float64) {
	if len(v) == 0 {
		return 0, 0
	}
	slices.Sort(v)
	q := func(p float64) float64 { return stat.Quantile(p, stat.Empirical, v, nil) }
	return q(0.5), q(0.95) - q(0.05)
}

// unique counts the groups of v (sorted) whose values lie within 5% of the
// group's smallest value; 0 is a group of its own.
func unique(sorted []float64) int {
	n := 0
	anchor := 0.0
	for i, v := range sorted {
		if i == 0 || v > anchor*1.05 {
			n++
			anchor = v
		}
	}
	return n
}

// isDaytime reports whether relative time s is within 07:30-17:30 local.
func isDaytime(c *trace.Clock, s int64) bool {
	lt := c.Time(s)
	sec := lt.Hour()*3600 + lt.Minute()*60 + lt.Second()
	return sec >= DayStart && sec <= DayEnd
}

// isWorkday reports whether relative time s falls on Monday to Friday.
func isWorkday(c *trace.Clock, s int64) bool {
	return c.DayOfWeek(s) < 5
}

// parts returns the fractions of [a, b) (relative times, a < b) in
// daytime and on workdays, walking the local calendar days it spans.
func parts(c *trace.Clock, a, b int64) (day, work float64) {
	la := c.Time(a)
	d := time.Date(la.Year(), la.Month(), la.Day(), 0, 0, 0, 0, c.Loc)
	var inDay, inWork int64
	for {
		ds := d.Unix() - c.Start
		if ds >= b {
			break
		}
		next := d.AddDate(0, 0, 1)
		de := next.Unix() - c.Start
		dayLo := time.Date(d.Year(), d.Month(), d.Day(), 7, 30, 0, 0, c.Loc).Unix() - c.Start
		dayHi := time.Date(d.Year(), d.Month(), d.Day(), 17, 30, 0, 0, c.Loc).Unix() - c.Start
		inDay += overlap(a, b, dayLo, dayHi)
		if wd := d.Weekday(); wd != time.Saturday && wd != time.Sunday {
			inWork += overlap(a, b, ds, de)
		}
		d = next
	}
	n := float64(b - a)
	return float64(inDay) / n, float64(inWork) / n
}

func overlap(a, b, lo, hi int64) int64 {
	return max(0, min(b, hi)-max(a, lo))
}
