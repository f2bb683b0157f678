package resample

import (
	"fmt"
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/trace"
)

// Class is the pool a user belongs to.
type Class uint8

// The classes of users (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 3, sections 4 and 6).
const (
	// LongTerm users were active for more than the long-term span (12
	// weeks by default); they are present all the time and regenerated.
	LongTerm Class = iota + 1
	// Temporary users were active for a shorter time; new copies arrive
	// every week.
	Temporary
	// Discarded temporary users were active only near either end of the
	// log, where their activity was probably truncated.
	Discarded
	// Rare is a rare behaviour (flurry): a pseudo-user holding one user's
	// jobs in one period, started like a temporary user.
	Rare
)

// String returns "long-term", "temporary", "discarded" or "rare".
func (c Class) String() string {
	switch c {
	case LongTerm:
		return "long-term"
	case Temporary:
		return "temporary"
	case Discarded:
		return "discarded"
	case Rare:
		return "rare"
	}
	return "unknown"
}

// ParseClass parses the names String returns.
func ParseClass(s string) (Class, error) {
	for c := LongTerm; c <= Rare; c++ {
		if s == c.String() {
			return c, nil
		}
	}
	return 0, fmt.Errorf("unknown user class %q; valid: long-term, temporary, discarded, rare", s)
}

// Period says which times bound a log.
type Period uint8

const (
	// PeriodAuto is PeriodHeader, except at an end where the header's
	// period reaches more than trace.GapThreshold beyond the jobs (the
	// header's start long before the first job, or its EndTime long after
	// the last): that end is the submit's instead, so that the gap does not
	// dilute the arrival rates and the default duration. The default.
	PeriodAuto Period = iota
	// PeriodHeader runs from relative time 0 (the header's UnixStartTime)
	// to the header's EndTime, or the last submit when that is later or
	// EndTime is missing (our choice where the thesis leaves it open).
	PeriodHeader
	// PeriodSubmits runs from the first submit to the last.
	PeriodSubmits
)

// String names the period choice as the command line does.
func (p Period) String() string {
	switch p {
	case PeriodHeader:
		return "header"
	case PeriodSubmits:
		return "submits"
	}
	return "auto"
}

// ClassifyOptions control [Classify]. The zero value means the defaults of
// our choice where the thesis leaves it open.
type ClassifyOptions struct {
	// LongTermSpan is the activity span (last submit - first submit) above
	// which a user is long-term, in seconds; 0 means 12 weeks. It must be
	// shorter than the log.
	LongTermSpan int64
	// Boundary is the width of the windows at both ends of the log in which
	// temporary users are discarded, in seconds; 0 means 4 weeks.
	Boundary int64
	// NoDiscard keeps every temporary user.
	NoDiscard bool
	// Touch discards temporary users whose activity merely touches a
	// boundary window; by default only those whose whole activity lies
	// inside one (the literal rule, section 18.4 #19).
	Touch bool
	// WeeksBySpan counts a user's weeks active as ceil(span / week) instead
	// of the number of distinct weeks with a job (section 18.4 #18).
	WeeksBySpan bool
	// Period chooses the log's bounds; default PeriodAuto.
	Period Period
	// Rare lists rare behaviours to move into the rare pool.
	Rare []RarePeriod
	// Detect, when not nil, adds the rare behaviours it finds.
	Detect *RareDetector
}

func (o ClassifyOptions) withDefaults() ClassifyOptions {
	if o.LongTermSpan == 0 {
		o.LongTermSpan = 12 * Week
	}
	if o.Boundary == 0 {
		o.Boundary = 4 * Week
	}
	return o
}

// User is one user's sub-trace, or one rare behaviour.
type User struct {
	// ID is the original user ID (field 12).
	ID int32
	// Class is the user's pool.
	Class Class
	// Jobs are indices into the trace's jobs, in submit order.
	Jobs []int32
	// First and Last are the first and last submit times.
	First, Last int64
	// FirstWeek and LastWeek are the local weeks of First and Last.
	FirstWeek, LastWeek int
	// WeeksActive is the number of distinct weeks holding a job (or
	// ceil(span / week) with WeeksBySpan).
	WeeksActive int
	// Period is the rare behaviour of a Rare pseudo-user.
	Period *RarePeriod
	weeks  []int32 // distinct active weeks, ascending
}

// Span returns Last - First in seconds.
func (u *User) Span() int64 { return u.Last - u.First }

// Pools is a log's users sorted into the pools of resampling.
type Pools struct {
	// Trace is the classified log.
	Trace *trace.Trace
	// Options are the options used, with defaults filled in.
	Options ClassifyOptions
	// Start and End bound the log period (relative seconds).
	Start, End int64
	// Gaps are the stretches without usable jobs longer than
	// trace.GapThreshold at the ends of the header's period; with
	// PeriodAuto, Start and End leave them out.
	Gaps trace.Gaps
	// LongTerm, Temporary, Discarded and Rare hold the users of each pool,
	// by user ID (rare behaviours by user, then begin).
	LongTerm, Temporary, Discarded, Rare []*User
	// Filtered counts jobs left out of every sub-trace: jobs without a
	// user, processor count, runtime or submit time, and partial records
	// (status 2, 3, 4; our choice where the thesis leaves it open).
	Filtered int
	cal      *calendar
	local    []int64 // local time of every trace job
	week     []int32 // local week of every trace job
}

// Weeks returns the log's length in weeks, ceil((End - Start) / week): L_w
// of spec section 0.2.
func (p *Pools) Weeks() int { return int((p.End - p.Start + Week - 1) / Week) }

// cycleWeeks returns the number of local weeks the log period touches, the
// period (in weeks) at which long-term users repeat.
func (p *Pools) cycleWeeks() int { return p.cal.week(p.End) - p.cal.week(p.Start) + 1 }

// ClassCount is the number of users and jobs of one class.
type ClassCount struct {
	Users int `json:"users"`
	Jobs  int `json:"jobs"`
}

// Counts returns the users and jobs of each pool (spec Table V).
func (p *Pools) Counts() map[Class]ClassCount {
	m := map[Class]ClassCount{}
	for c, us := range map[Class][]*User{LongTerm: p.LongTerm, Temporary: p.Temporary, Discarded: p.Discarded, Rare: p.Rare} {
		cc := ClassCount{Users: len(us)}
		for _, u := range us {
			cc.Jobs += len(u.Jobs)
		}
		m[c] = cc
	}
	return m
}

// PeriodText says which times bound the log: "header" (start and EndTime),
// "submits" (first and last submit), or a mix for PeriodAuto
// ("first submit to header end", "header start to last submit").
func (p *Pools) PeriodText() string {
	o := p.Options.Period
	if o != PeriodAuto {
		return o.String()
	}
	switch {
	case p.Gaps.Lead > 0 && p.Gaps.Tail > 0:
		return "submits"
	case p.Gaps.Lead > 0:
		return "first submit to header end"
	case p.Gaps.Tail > 0:
		return "header start to last submit"
	}
	return "header"
}

// Warnings returns notes on a classification that makes weak resampled
// workloads, for the user to read: a log shorter than the long-term span
// plus both boundary windows (few users can be long-term, and the windows
// cover most of the log), and discarded users holding over 5% of the
// usable jobs (resampled workloads hold that many fewer jobs than the log).
func (p *Pools) Warnings() []string {
	var w []string
	o := p.Options
	c := p.Counts()
	if p.Gaps.Any() {
		switch o.Period {
		case PeriodHeader:
			w = append(w, p.Gaps.String()+": the log's length and arrival rates include the gap (--period header)")
		case PeriodAuto:
			w = append(w, fmt.Sprintf("%s: the log's period is %s, %.1f weeks, leaving the gap out (--period header keeps it)",
				p.Gaps.String(), p.PeriodText(), float64(p.End-p.Start)/Week))
		}
	}
	total := 0
	for _, n := range c {
		total += n.Jobs
	}
	if need := o.LongTermSpan + 2*o.Boundary; !o.NoDiscard && p.End-p.Start < need {
		w = append(w, fmt.Sprintf("the log spans %.1f weeks, less than the long-term span plus both boundary windows (%.4g weeks): "+
			"few users can be long-term (here %d, with %.0f%% of the jobs) and the windows cover most of the log; "+
			"resampled workloads will differ from it more than usual",
			float64(p.End-p.Start)/Week, float64(need)/Week, c[LongTerm].Users, 100*float64(c[LongTerm].Jobs)/float64(max(total, 1))))
	}
	if d := c[Discarded]; total > 0 && float64(d.Jobs) > 0.05*float64(total) {
		w = append(w, fmt.Sprintf("the %d discarded users (active only near an end of the log) hold %d jobs, %.1f%% of the usable jobs; "+
			"resampled workloads will hold about that many fewer jobs (--discard touch|none changes the rule)",
			d.Users, d.Jobs, 100*float64(d.Jobs)/float64(total)))
	}
	return w
}

// usable reports whether job j goes into a sub-trace.
func usable(j *trace.Job) bool {
	return j.User >= 0 && j.Submit >= 0 && j.Runtime >= 0 && j.Processors() > 0 &&
		j.Status != 2 && j.Status != 3 && j.Status != 4
}

// Classify sorts the users of t into the pools (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 3, section 4). It fails
// with [ErrNoUsers] when no job has a user, and with a [*ShortLogError]
// when the log is not longer than the long-term span.
func Classify(t *trace.Trace, opt ClassifyOptions) (*Pools, error) {
	opt = opt.withDefaults()
	if opt.LongTermSpan < 0 || opt.Boundary < 0 {
		return nil, fmt.Errorf("resample: long-term span %d s and boundary %d s must be positive", opt.LongTermSpan, opt.Boundary)
	}
	p := &Pools{Trace: t, Options: opt}
	first, last, n := int64(math.MaxInt64), int64(math.MinInt64), 0
	for i := range t.Jobs {
		j := &t.Jobs[i]
		if !usable(j) {
			p.Filtered++
			continue
		}
		n++
		first, last = min(first, j.Submit), max(last, j.Submit)
	}
	if n == 0 {
		if t.NumUsers() == 0 {
			return nil, ErrNoUsers
		}
		return nil, fmt.Errorf("resample: no job of the log has a user, a processor count, a runtime and a submit time")
	}
	clk := t.Clock()
	p.Start, p.End = first, last
	hEnd, hasEnd := t.HeaderEnd()
	p.Gaps = trace.DetectGaps(first, last, hEnd, hasEnd)
	if !hasEnd {
		hEnd = -1
	}
	switch opt.Period {
	case PeriodHeader:
		p.Start, p.End = 0, max(last, hEnd)
	case PeriodAuto:
		if p.Gaps.Lead == 0 {
			p.Start = 0
		}
		if p.Gaps.Tail == 0 {
			p.End = max(last, hEnd)
		}
	}
	if span := p.End - p.Start; span <= opt.LongTermSpan {
		return nil, &ShortLogError{Weeks: float64(span) / Week, Need: float64(opt.LongTermSpan) / Week}
	}
	p.cal = newCalendar(clk, min(p.Start, first)-2*Week, max(p.End, MaxDuration)+2*Week)
	p.local = make([]int64, len(t.Jobs))
	p.week = make([]int32, len(t.Jobs))
	for i := range t.Jobs {
		l := p.cal.local(t.Jobs[i].Submit)
		p.local[i] = l
		p.week[i] = int32(weekOfLocal(l - p.cal.origin))
	}
	rare, err := p.rarePeriods(opt)
	if err != nil {
		return nil, err
	}
	for _, tu := range t.Users() {
		if tu.ID < 0 {
			continue
		}
		p.addUser(tu, rare)
	}
	if len(p.LongTerm)+len(p.Temporary) == 0 {
		return nil, ErrEmptyPools
	}
	return p, nil
}

// addUser splits one user's usable jobs into rare behaviours and the
// regular sub-trace, and classifies the latter.
func (p *Pools) addUser(tu trace.User, rare []RarePeriod) {
	var mine []RarePeriod
	for _, r := range rare {
		if r.User == tu.ID {
			mine = append(mine, r)
		}
	}
	regular := make([]int32, 0, len(tu.Jobs))
	rareJobs := make([][]int32, len(mine))
	for _, i := range tu.Jobs {
		j := &p.Trace.Jobs[i]
		if !usable(j) {
			continue
		}
		k := slices.IndexFunc(mine, func(r RarePeriod) bool { return j.Submit >= r.Begin && j.Submit <= r.End })
		if k >= 0 {
			rareJobs[k] = append(rareJobs[k], int32(i))
			continue
		}
		regular = append(regular, int32(i))
	}
	for k := range mine {
		if len(rareJobs[k]) > 0 {
			u := p.newUser(tu.ID, rareJobs[k])
			u.Class, u.Period = Rare, &mine[k]
			p.Rare = append(p.Rare, u)
		}
	}
	if len(regular) == 0 {
		return
	}
	u := p.newUser(tu.ID, regular)
	o := p.Options
	switch {
	case u.Span() > o.LongTermSpan:
		u.Class = LongTerm
		p.LongTerm = append(p.LongTerm, u)
	case !o.NoDiscard && p.nearEnd(u):
		u.Class = Discarded
		p.Discarded = append(p.Discarded, u)
	default:
		u.Class = Temporary
		p.Temporary = append(p.Temporary, u)
	}
}

// nearEnd applies the boundary rule to a temporary user.
func (p *Pools) nearEnd(u *User) bool {
	lo, hi := p.Start+p.Options.Boundary, p.End-p.Options.Boundary
	if p.Options.Touch {
		return u.First < lo || u.Last > hi
	}
	return u.Last <= lo || u.First >= hi
}

func (p *Pools) newUser(id int32, jobs []int32) *User {
	t := p.Trace
	u := &User{ID: id, Jobs: jobs, First: t.Jobs[jobs[0]].Submit, Last: t.Jobs[jobs[len(jobs)-1]].Submit}
	u.FirstWeek, u.LastWeek = int(p.week[jobs[0]]), int(p.week[jobs[len(jobs)-1]])
	for _, i := range jobs {
		if w := p.week[i]; len(u.weeks) == 0 || u.weeks[len(u.weeks)-1] != w {
			u.weeks = append(u.weeks, w)
		}
	}
	u.WeeksActive = len(u.weeks)
	if p.Options.WeeksBySpan {
		u.WeeksActive = int(max(1, (u.Span()+Week-1)/Week))
	}
	return u
}
