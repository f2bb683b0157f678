package predict

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hpcwl/hpcwl/sim"
)

// Criterion is a similarity criterion of SBH: the set of job attributes a
// past job must share with the predicted one (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, section 8.5, Listing 4).
// The zero Criterion ("*") matches every job.
type Criterion uint8

// The attributes a criterion can compare.
const (
	// Procs compares the number of processors (P).
	Procs Criterion = 1 << iota
	// Estimate compares the requested time (E).
	Estimate
	// Executable compares the executable number (X).
	Executable
)

// String returns the criterion's letters in the order P, E, X, or "*".
func (c Criterion) String() string {
	if c == 0 {
		return "*"
	}
	var b strings.Builder
	for i, l := range "PEX" {
		if c&(1<<i) != 0 {
			b.WriteRune(l)
		}
	}
	return b.String()
}

// ParseCriteria parses a criteria list such as "PE/P/E/*": criteria
// separated by '/', each a set of the letters P, E and X, or "*" (also
// "any") for any job.
func ParseCriteria(s string) ([]Criterion, error) {
	if s == "" {
		return nil, fmt.Errorf("empty criteria list; give criteria separated by '/', e.g. PE/P/E/*")
	}
	var cs []Criterion
	for _, f := range strings.Split(s, "/") {
		var c Criterion
		switch strings.ToLower(f) {
		case "*", "any":
		default:
			if f == "" {
				return nil, fmt.Errorf("criteria %q: empty criterion", s)
			}
			for _, l := range strings.ToUpper(f) {
				var b Criterion
				switch l {
				case 'P':
					b = Procs
				case 'E':
					b = Estimate
				case 'X':
					b = Executable
				default:
					return nil, fmt.Errorf("criteria %q: unknown attribute %q; valid: P (processors), E (estimate), X (executable), or * alone", s, l)
				}
				if c&b != 0 {
					return nil, fmt.Errorf("criteria %q: %q repeats %c", s, f, l)
				}
				c |= b
			}
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// FormatCriteria returns cs in the form [ParseCriteria] reads.
func FormatCriteria(cs []Criterion) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = c.String()
	}
	return strings.Join(s, "/")
}

// SBH is the session-based-history predictor (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, section 8.5, Listing 4,
// Listing 4). Each user's jobs are cut into sessions online: a job joins
// the session of the user's previously submitted job if that job has not
// terminated yet or terminated less than Gap before the new job's arrival,
// else it opens a new session. A prediction searches the user's last Depth
// sessions (all with Depth 0), newest first, for terminated jobs that
// match the job under a criterion of Criteria: depth-first (the default),
// the first criterion that any searched session matches wins and the
// newest session matching it gives the prediction; breadth-first (BFS),
// the newest session that matches any criterion wins, with its first
// matching criterion. The prediction is the median runtime of the
// session's terminated jobs that match (the mean of the two middle ones
// for an even count), capped at the job's estimate with Cap. Without any
// match it is the estimate, or Default when Default > 0 (the no-estimate
// variant, Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, section 8.6, predicts 1 s).
//
// Propagate revises the user's other waiting and running jobs on every
// termination, as [RUH] does. Create it with [NewSBH].
type SBH struct {
	// Criteria is the ordered similarity criteria list.
	Criteria []Criterion
	// BFS searches sessions in the outer loop and criteria in the inner one.
	BFS bool
	// Depth is the number of sessions searched back, the current one
	// included; 0 means all.
	Depth int
	// Gap is the think time (arrival minus the previous job's end) from
	// which a new session starts, in seconds; spec default 1200.
	Gap sim.Time
	// Cap limits predictions to the job's estimate.
	Cap bool
	// Propagate revises the user's other jobs on every termination.
	Propagate bool
	// Default is the prediction when nothing matches; 0 means the job's
	// estimate.
	Default sim.Time
	// Miss is the deadline-miss policy; nil means [sim.EstimateThenGradual].
	Miss sim.MissPolicy
	// Exec returns a job's executable number (-1 when unknown); nil means
	// always -1.
	Exec func(j *sim.Job) int32
	// SessionOf, when set, gives each job's session instead of the online
	// rule: a number that orders the sessions of a user by time, such as
	// the index of a session of package session's partition of the log
	// (the recorded schedule's sessions). Gap is then unused.
	SessionOf func(j *sim.Job) int32

	users map[int32]*sbhUser
	hist  map[matchKey]*matches
	sess  []int32 // session index (within its user) of each job, by Ref
	act   active
}

type sbhUser struct {
	cur      int32   // newest session
	last     sim.Ref // most recently submitted job
	lastEnd  sim.Time
	lastDone bool
}

// matchKey identifies the past jobs of a user that match a job under a
// criterion: the attributes the criterion leaves out are zero.
type matchKey struct {
	user  int32
	crit  Criterion
	procs int32
	exec  int32
	est   sim.Time
}

// matches holds, for one matchKey, the sessions that have terminated
// matching jobs (ascending) and each one's sorted runtimes.
type matches struct {
	sessions []int32
	runs     [][]sim.Time
}

// NewSBH returns an SBH predictor with an empty history.
func NewSBH(criteria []Criterion, bfs bool, depth int, gap sim.Time) *SBH {
	return &SBH{Criteria: criteria, BFS: bfs, Depth: depth, Gap: gap,
		users: map[int32]*sbhUser{}, hist: map[matchKey]*matches{}, act: newActive()}
}

func (p *SBH) key(j *sim.Job, c Criterion, exec int32) matchKey {
	k := matchKey{user: j.User, crit: c}
	if c&Procs != 0 {
		k.procs = j.Procs
	}
	if c&Estimate != 0 {
		k.est = j.Estimate
	}
	if c&Executable != 0 {
		k.exec = exec
	}
	return k
}

func (p *SBH) exec(j *sim.Job) int32 {
	if p.Exec == nil {
		return -1
	}
	return p.Exec(j)
}

// sessionOf returns the session job j of u (nil for a new user) joins on
// arrival.
func (p *SBH) sessionOf(u *sbhUser, j *sim.Job) int32 {
	switch {
	case p.SessionOf != nil:
		return p.SessionOf(j)
	case u == nil:
		return 0
	case !u.lastDone || j.Submit-u.lastEnd < p.Gap:
		return u.cur
	}
	return u.cur + 1
}

// Predict implements [sim.Predictor]: it predicts job j, arriving now or
// already in the system, from the user's current history.
func (p *SBH) Predict(j *sim.Job) sim.Time {
	u := p.users[j.User]
	if j.User < 0 || u == nil {
		return p.fallback(j)
	}
	// The newest session is the one j joins on arrival (a new one has no
	// terminated jobs yet but counts for Depth).
	cur := max(u.cur, p.sessionOf(u, j))
	oldest := int32(0)
	if p.Depth > 0 {
		oldest = cur - int32(p.Depth) + 1
	}
	exec := p.exec(j)
	var best *matches
	bestAt := -1
	for _, c := range p.Criteria {
		m := p.hist[p.key(j, c, exec)]
		if m == nil {
			continue
		}
		i := len(m.sessions) - 1
		if m.sessions[i] < oldest {
			continue
		}
		if !p.BFS {
			return p.capped(j, median(m.runs[i]))
		}
		if best == nil || m.sessions[i] > best.sessions[bestAt] {
			best, bestAt = m, i
		}
	}
	if best == nil {
		return p.fallback(j)
	}
	return p.capped(j, median(best.runs[bestAt]))
}

func (p *SBH) capped(j *sim.Job, v sim.Time) sim.Time {
	if p.Cap && v > j.Estimate {
		return j.Estimate
	}
	return v
}

func (p *SBH) fallback(j *sim.Job) sim.Time {
	if p.Default > 0 {
		return p.Default
	}
	return j.Estimate
}

// Missed implements [sim.Predictor].
func (p *SBH) Missed(j *sim.Job, m sim.MissInfo) sim.Time {
	p.act.missed[j.ID] = true
	return missPolicy(p.Miss, sim.EstimateThenGradual{}).Next(j, m)
}

// Arrived implements [sim.LearningPredictor]: the job joins a session.
func (p *SBH) Arrived(v *sim.View, r sim.Ref, dst []sim.Update) []sim.Update {
	for len(p.sess) <= int(r) {
		p.sess = append(p.sess, -1)
	}
	uid := v.User(r)
	if uid < 0 {
		return dst
	}
	u := p.users[uid]
	j := v.Job(r)
	s := p.sessionOf(u, &j)
	if u == nil {
		u = &sbhUser{cur: s}
		p.users[uid] = u
	}
	u.cur = max(u.cur, s)
	p.sess[r] = s
	u.last, u.lastDone = r, false
	p.act.add(uid, r)
	return dst
}

// Started implements [sim.LearningPredictor].
func (p *SBH) Started(_ *sim.View, _ sim.Ref, dst []sim.Update) []sim.Update { return dst }

// Ended implements [sim.LearningPredictor]: the job's runtime joins its
// session's history under every criterion.
func (p *SBH) Ended(v *sim.View, r sim.Ref, dst []sim.Update) []sim.Update {
	uid := v.User(r)
	if uid < 0 {
		return dst
	}
	u := p.users[uid]
	if u.last == r {
		u.lastDone, u.lastEnd = true, v.End(r)
	}
	p.act.remove(uid, r, v.ID(r))
	j := v.Job(r)
	exec, s, run := p.exec(&j), p.sess[r], ran(v, r)
	for ci, c := range p.Criteria {
		if slices.Contains(p.Criteria[:ci], c) {
			continue
		}
		k := p.key(&j, c, exec)
		m := p.hist[k]
		if m == nil {
			m = &matches{}
			p.hist[k] = m
		}
		i, found := slices.BinarySearch(m.sessions, s)
		if !found {
			m.sessions = slices.Insert(m.sessions, i, s)
			m.runs = slices.Insert(m.runs, i, nil)
		}
		m.runs[i] = insertSorted(m.runs[i], run)
	}
	if p.Propagate {
		dst = p.act.revise(v, uid, dst, p.Predict)
	}
	return dst
}
