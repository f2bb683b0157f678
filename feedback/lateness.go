package feedback

import (
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/stats"
	"github.com/hpcwl/hpcwl/trace"
)

// Lateness summarizes how far simulated submissions drift from the
// recorded ones (Madon, Da Costa and Pierson, Replay with Feedback, 2024).
type Lateness struct {
	// Jobs is the number of jobs n (every job of the log that was
	// submitted, rejected ones included).
	Jobs int `json:"jobs"`
	// Mean is the mean lateness in seconds (eq. 3): the mean of simulated
	// minus recorded submit time.
	Mean float64 `json:"mean_s"`
	// Relative is 1 + Mean / (a_{n-1} - a_0) with the recorded first and
	// last submits (eq. 4); 1 means no drift.
	Relative float64 `json:"relative"`
	// Additional is 2 Mean / (n - 1), the extra delay accumulated per
	// submission, in seconds (eq. 6).
	Additional float64 `json:"additional_s"`
	// Per-job lateness quantiles, in seconds.
	Min    float64 `json:"min_s"`
	Median float64 `json:"median_s"`
	Max    float64 `json:"max_s"`
	// UserAdditional is the distribution over users with at least two
	// jobs of their own additional lateness, in seconds (Madon Fig. 5).
	UserAdditional session.Dist `json:"user_additional_s"`
}

// LatenessOf computes the lateness of simulated submits sub (indexed like
// t.Jobs; negative entries are left out) against t's recorded submits.
func LatenessOf(t *trace.Trace, sub []sim.Time) Lateness {
	var l Lateness
	var sum float64
	first, last := int64(math.MaxInt64), int64(math.MinInt64)
	lat := make([]int64, 0, len(sub))
	for i, s := range sub {
		if s < 0 {
			continue
		}
		a := t.Jobs[i].Submit
		first, last = min(first, a), max(last, a)
		d := int64(s) - a
		lat = append(lat, d)
		sum += float64(d)
	}
	l.Jobs = len(lat)
	if l.Jobs == 0 {
		return l
	}
	l.Mean = sum / float64(l.Jobs)
	l.Relative = 1
	if last > first {
		l.Relative = 1 + l.Mean/float64(last-first)
	}
	if l.Jobs > 1 {
		l.Additional = 2 * l.Mean / float64(l.Jobs-1)
	}
	d := session.Summarize(lat)
	l.Min, l.Median, l.Max = d.Min, d.P50, d.Max
	var ua []int64
	for _, u := range t.Users() {
		if u.ID < 0 || len(u.Jobs) < 2 {
			continue
		}
		var s float64
		n := 0
		for _, ix := range u.Jobs {
			if sub[ix] >= 0 {
				s += float64(int64(sub[ix]) - t.Jobs[ix].Submit)
				n++
			}
		}
		if n > 1 {
			ua = append(ua, int64(math.Round(2*s/float64(n)/float64(n-1))))
		}
	}
	l.UserAdditional = session.Summarize(ua)
	return l
}

// Activity compares the users' activity periods (first submit to last end)
// and throughputs, simulated and recorded (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 5).
type Activity struct {
	// Users counts the users with an ID.
	Users int `json:"users"`
	// Length and RecordedLength are the distributions of the users'
	// activity lengths in seconds.
	Length         session.Dist `json:"length_s"`
	RecordedLength session.Dist `json:"recorded_length_s"`
	// Throughput and RecordedThroughput are the users' median job
	// throughputs: jobs divided by activity length, per week.
	Throughput         float64 `json:"median_user_throughput_per_week"`
	RecordedThroughput float64 `json:"recorded_median_user_throughput_per_week"`
	// Sessions is the number of sessions; SessionLength and
	// RecordedSessionLength are the mean session lengths (first submit to
	// last end of their jobs) in seconds.
	Sessions              int     `json:"sessions"`
	SessionLength         float64 `json:"mean_session_length_s"`
	RecordedSessionLength float64 `json:"recorded_mean_session_length_s"`
}

// ActivityOf compares simulated submits and ends (indexed like the trace's
// jobs) with the recorded ones, per user and per session of p.
func ActivityOf(p *session.Partition, sub, end []sim.Time) Activity {
	t := p.Trace
	var a Activity
	var ls, lr []int64
	var ts, tr []float64
	for _, u := range p.Users {
		if u.ID < 0 || u.SessionLo == u.SessionHi {
			continue
		}
		a.Users++
		var s0, e0, s1, e1 int64 = math.MaxInt64, math.MinInt64, math.MaxInt64, math.MinInt64
		n := 0
		for si := u.SessionLo; si < u.SessionHi; si++ {
			for _, ix := range p.Jobs(int(si)) {
				if sub[ix] < 0 {
					continue
				}
				n++
				s0, e0 = min(s0, int64(sub[ix])), max(e0, int64(end[ix]))
				s1, e1 = min(s1, t.Jobs[ix].Submit), max(e1, p.End[ix])
			}
		}
		if n == 0 {
			continue
		}
		ls, lr = append(ls, e0-s0), append(lr, e1-s1)
		ts = append(ts, float64(n)/math.Max(float64(e0-s0), 3600)*week)
		tr = append(tr, float64(n)/math.Max(float64(e1-s1), 3600)*week)
	}
	a.Length, a.RecordedLength = session.Summarize(ls), session.Summarize(lr)
	a.Throughput, a.RecordedThroughput = median(ts), median(tr)
	var sl, rl float64
	for si := range p.Sessions {
		var s0, e0, s1, e1 int64 = math.MaxInt64, math.MinInt64, math.MaxInt64, math.MinInt64
		for _, ix := range p.Jobs(si) {
			if sub[ix] < 0 {
				continue
			}
			s0, e0 = min(s0, int64(sub[ix])), max(e0, int64(end[ix]))
			s1, e1 = min(s1, t.Jobs[ix].Submit), max(e1, p.End[ix])
		}
		if e0 >= s0 {
			a.Sessions++
			sl += float64(e0 - s0)
			rl += float64(e1 - s1)
		}
	}
	if a.Sessions > 0 {
		a.SessionLength, a.RecordedSessionLength = sl/float64(a.Sessions), rl/float64(a.Sessions)
	}
	return a
}

// median returns the lower median of xs (sorting it), the convention of
// every hpcwl table, or 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return stats.EmpiricalQuantileSorted(xs, 0.5)
}

// Cycle is the weekly cycle of submissions (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 4, section VII): jobs
// submitted in each hour of the week (0 = Monday 00:00 local time), per
// week of the submission period.
type Cycle [168]float64

// WeeklyCycle returns the weekly cycle of the submits sub (negative
// entries left out) on the log's clock.
func WeeklyCycle(c *trace.Clock, sub []sim.Time) Cycle {
	var cy Cycle
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, s := range sub {
		if s < 0 {
			continue
		}
		cy[c.HourOfWeek(int64(s))]++
		lo, hi = min(lo, int64(s)), max(hi, int64(s))
	}
	if hi < lo {
		return cy
	}
	weeks := math.Max(float64(hi-lo)/week, 1)
	for i := range cy {
		cy[i] /= weeks
	}
	return cy
}

// Distance returns the total variation distance between the shapes of two
// cycles (each normalized to sum 1): 0 for the same shape, 1 for disjoint
// hours.
func (c Cycle) Distance(o Cycle) float64 {
	var sa, sb float64
	for i := range c {
		sa += c[i]
		sb += o[i]
	}
	if sa == 0 || sb == 0 {
		return 0
	}
	var d float64
	for i := range c {
		d += math.Abs(c[i]/sa - o[i]/sb)
	}
	return d / 2
}

// DayShare returns the fraction of the cycle's submissions on weekdays
// between 08:00 and 18:00.
func (c Cycle) DayShare() float64 {
	var in, all float64
	for h, x := range c {
		all += x
		if h < 5*24 && h%24 >= 8 && h%24 < 18 {
			in += x
		}
	}
	if all == 0 {
		return 0
	}
	return in / all
}
