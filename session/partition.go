package session

import (
	"slices"

	"github.com/hpcwl/hpcwl/trace"
)

// Partition is a log cut into sessions and batches. Sessions and batches
// are numbered in user order (users by ID), then by arrival inside each
// user, so the sessions of one user are consecutive, and so are the batches
// of one session.
type Partition struct {
	// Options are the options used.
	Options Options
	// Trace is the partitioned log.
	Trace *trace.Trace
	// Users lists the users by ID; jobs without a user (-1) form user -1,
	// each of them a session of its own.
	Users []User
	// Sessions and Batches list the sessions and batches.
	Sessions []Session
	Batches  []Batch
	// Order holds the indices into Trace.Jobs of every job, grouped by
	// user, then session, then batch, by (submit, job number) inside each
	// user. Sessions and batches are ranges of it.
	Order []int32
	// Submit holds the submit time of each job of Order: Submit[k] is that
	// of Trace.Jobs[Order[k]].
	Submit []int64
	// End gives each job's end time as used: submit + wait + runtime, or
	// submit + runtime when the wait is unknown (counted in EstimatedEnds),
	// or submit when the runtime is unknown too.
	End []int64
	// EstimatedEnds counts jobs whose end had to be estimated.
	EstimatedEnds int

	noBatches bool // built by IdentifySessions
}

// User is one user's range of sessions.
type User struct {
	// ID is the user ID (field 12).
	ID int32
	// Sessions is the range [Lo, Hi) of the user's sessions.
	SessionLo, SessionHi int32
}

// Session is one session of one user.
type Session struct {
	// User is the index of the session's user in Partition.Users.
	User int32
	// Lo and Hi delimit the session's jobs in Partition.Order.
	Lo, Hi int32
	// BatchLo and BatchHi delimit its batches in Partition.Batches.
	BatchLo, BatchHi int32
	// First and Last are the first and last submit times.
	First, Last int64
	// MaxEnd is the latest end time of its jobs.
	MaxEnd int64
	// Length is the session length as the method defines it (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis,
	// chapter 2): Last - First for Arrival and Interarrival, MaxEnd -
	// First for Last and Max, the latest cut end - First for the cut
	// variants.
	Length int64
}

// Batch is one batch: jobs of a session that overlap one another.
type Batch struct {
	// Session is the index of the batch's session.
	Session int32
	// Lo and Hi delimit the batch's jobs in Partition.Order.
	Lo, Hi int32
	// First and Last are the first and last submit times.
	First, Last int64
	// MaxEnd is the latest end time of its jobs: the batch's termination.
	MaxEnd int64
}

// Jobs returns the indices into Trace.Jobs of session s's jobs, in arrival
// order. The slice aliases Order.
func (p *Partition) Jobs(s int) []int32 {
	return p.Order[p.Sessions[s].Lo:p.Sessions[s].Hi]
}

// BatchJobs returns the indices into Trace.Jobs of batch b's jobs, in
// arrival order. The slice aliases Order.
func (p *Partition) BatchJobs(b int) []int32 {
	return p.Order[p.Batches[b].Lo:p.Batches[b].Hi]
}

// SessionOf returns each job's session, indexed like Trace.Jobs. It is
// computed on each call.
func (p *Partition) SessionOf() []int32 {
	out := make([]int32, len(p.Order))
	for s := range p.Sessions {
		for _, ix := range p.Jobs(s) {
			out[ix] = int32(s)
		}
	}
	return out
}

// BatchOf returns each job's batch, indexed like Trace.Jobs, or nil for a
// partition without batches ([IdentifySessions]). It is computed on each
// call.
func (p *Partition) BatchOf() []int32 {
	if p.noBatches {
		return nil
	}
	out := make([]int32, len(p.Order))
	for b := range p.Batches {
		for _, ix := range p.BatchJobs(b) {
			out[ix] = int32(b)
		}
	}
	return out
}

// NumJobs returns the number of jobs of session s.
func (s *Session) NumJobs() int { return int(s.Hi - s.Lo) }

// NumBatches returns the number of batches of session s.
func (s *Session) NumBatches() int { return int(s.BatchHi - s.BatchLo) }

// NumJobs returns the number of jobs of batch b.
func (b *Batch) NumJobs() int { return int(b.Hi - b.Lo) }

// Identify cuts the jobs of t into sessions and batches by opt. Every job
// belongs to exactly one session and one batch.
func Identify(t *trace.Trace, opt Options) (*Partition, error) {
	return identify(t, opt, true)
}

// IdentifySessions is [Identify] without the batches: Batches is nil and
// the sessions' BatchLo and BatchHi are 0. Users of sessions alone
// (Madon's replay) save the work and memory of the batches.
func IdentifySessions(t *trace.Trace, opt Options) (*Partition, error) {
	return identify(t, opt, false)
}

func identify(t *trace.Trace, opt Options, batches bool) (*Partition, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	n := len(t.Jobs)
	p := &Partition{
		Options: opt, Trace: t,
		Order:     make([]int32, n),
		Submit:    make([]int64, n),
		End:       make([]int64, n),
		noBatches: !batches,
	}
	// One pass over the log's jobs for the ends and the user IDs, kept in
	// scratch for groupUsers, which turns them into user indices; scratch
	// then holds the marks of the jobs, by position in Order.
	scratch := make([]int32, n)
	maxID := int32(-1)
	for i := range t.Jobs {
		j := &t.Jobs[i]
		e := j.End()
		if e < 0 {
			p.EstimatedEnds++
			e = j.Submit + max(j.Runtime, 0)
		}
		p.End[i] = e
		scratch[i] = j.User
		maxID = max(maxID, j.User)
	}
	users := p.groupUsers(maxID, scratch)
	// Two passes over compact arrays: mark where sessions and batches
	// begin, then build them in lists of the exact size.
	marks := scratch
	var ns, nb int
	for _, u := range users {
		s, b := p.mark(u, marks)
		ns += s
		nb += b
	}
	p.Users = make([]User, 0, len(users))
	p.Sessions = make([]Session, 0, ns)
	if batches {
		p.Batches = make([]Batch, 0, nb)
	}
	for _, u := range users {
		lo := int32(len(p.Sessions))
		p.cutUser(u, marks)
		p.Users = append(p.Users, User{ID: u.id, SessionLo: lo, SessionHi: int32(len(p.Sessions))})
	}
	return p, nil
}

// userSpan is one user's range [lo, hi) of Partition.Order.
type userSpan struct {
	id     int32
	lo, hi int32
}

// The marks of a job that begins a session or a batch.
const (
	markSession int32 = 1 << iota
	markBatch
)

// mark sets the marks of user u's jobs and returns how many sessions and
// batches they begin.
func (p *Partition) mark(u userSpan, marks []int32) (sessions, batches int) {
	o := p.Options
	if p.noBatches && (o.Method == Arrival || o.Method == Interarrival) {
		return p.markArrivals(u, marks), 0
	}
	cut := o.Method == LastCut || o.Method == MaxCut
	var prevArr, prevEnd, userMax, sessMax int64
	for k := u.lo; k < u.hi; k++ {
		arr := p.Submit[k]
		end := p.End[p.Order[k]]
		eff := end
		if cut {
			eff = min(end, arr+o.Cut)
		}
		newSession, newBatch := k == u.lo || u.id < 0, true
		if !newSession {
			switch o.Method {
			case Arrival:
				newSession = arr-prevArr > o.Threshold
				newBatch = arr >= sessMax
			case Interarrival:
				newSession = arr-prevArr >= o.Threshold
				newBatch = arr >= sessMax
			default:
				ref := prevEnd
				if o.Method == Max || o.Method == MaxCut {
					ref = userMax
				}
				tt := arr - ref
				newSession = tt > o.Threshold
				newBatch = tt >= 0
			}
		}
		var m int32
		if newSession {
			m |= markSession
			sessions++
			sessMax = 0
		}
		if newSession || newBatch {
			m |= markBatch
			batches++
		}
		marks[k] = m
		sessMax = max(sessMax, end)
		prevArr, prevEnd = arr, eff
		if k == u.lo {
			userMax = eff
		} else {
			userMax = max(userMax, eff)
		}
	}
	return sessions, batches
}

// markArrivals is mark for sessions alone by arrival times (Arrival and
// Interarrival without batches), which needs no job ends: it reads only
// Submit. Batch marks are not set.
func (p *Partition) markArrivals(u userSpan, marks []int32) (sessions int) {
	o := p.Options
	var prevArr int64
	for k := u.lo; k < u.hi; k++ {
		arr := p.Submit[k]
		newSession := k == u.lo || u.id < 0
		if !newSession {
			if o.Method == Arrival {
				newSession = arr-prevArr > o.Threshold
			} else {
				newSession = arr-prevArr >= o.Threshold
			}
		}
		var m int32
		if newSession {
			m = markSession
			sessions++
		}
		marks[k] = m
		prevArr = arr
	}
	return sessions
}

// cutUser appends the sessions and batches of user u as marked.
func (p *Partition) cutUser(u userSpan, marks []int32) {
	o := p.Options
	ui := int32(len(p.Users))
	for k := u.lo; k < u.hi; k++ {
		ix := p.Order[k]
		arr := p.Submit[k]
		end := p.End[ix]
		m := marks[k]
		if m&markSession != 0 {
			p.Sessions = append(p.Sessions, Session{
				User: ui, Lo: k, BatchLo: int32(len(p.Batches)), First: arr, MaxEnd: end,
			})
		}
		si := int32(len(p.Sessions) - 1)
		s := &p.Sessions[si]
		s.Hi, s.Last, s.MaxEnd = k+1, arr, max(s.MaxEnd, end)
		switch o.Method {
		case Arrival, Interarrival:
			s.Length = s.Last - s.First
		case Last, Max:
			s.Length = s.MaxEnd - s.First
		default:
			eff := end
			if o.Method == LastCut || o.Method == MaxCut {
				eff = min(end, arr+o.Cut)
			}
			s.Length = max(s.Length, eff-s.First)
		}
		if p.noBatches {
			continue
		}
		if m&markBatch != 0 {
			p.Batches = append(p.Batches, Batch{Session: si, Lo: k, First: arr, MaxEnd: end})
		}
		bi := int32(len(p.Batches) - 1)
		b := &p.Batches[bi]
		b.Hi, b.Last, b.MaxEnd = k+1, arr, max(b.MaxEnd, end)
		s.BatchHi = bi + 1
	}
}

// groupUsers fills Order and Submit: the jobs grouped by user (users by
// ID), in file order inside a user unless that is not (submit, job number)
// order, when the user's jobs are sorted. It runs in linear time for logs
// sorted by submit time and reads the log's jobs only for the submit
// times. uix must hold each job's user ID on entry, and maxID the largest
// of them; on return it holds each job's user index. It returns each
// user's range of Order.
func (p *Partition) groupUsers(maxID int32, uix []int32) []userSpan {
	jobs := p.Trace.Jobs
	var ids []int32
	var count []int32
	// User IDs are small in archive logs: look them up in a table, else
	// in a map.
	var table []int32
	var idx map[int32]int32
	if int(maxID) < 4*len(jobs)+1024 {
		table = make([]int32, int(maxID)+2)
	}
	for i, u := range uix {
		var k int32
		ok := false
		if table != nil && u >= -1 {
			k = table[u+1] - 1
			ok = k >= 0
		} else {
			k, ok = idx[u]
		}
		if !ok {
			k = int32(len(ids))
			if table != nil && u >= -1 {
				table[u+1] = k + 1
			} else {
				if idx == nil {
					idx = make(map[int32]int32)
				}
				idx[u] = k
			}
			ids = append(ids, u)
			count = append(count, 0)
		}
		uix[i] = k
		count[k]++
	}
	byID := make([]int32, len(ids))
	for i := range byID {
		byID[i] = int32(i)
	}
	slices.SortFunc(byID, func(a, b int32) int { return int(ids[a]) - int(ids[b]) })
	spans := make([]userSpan, len(ids))
	next := make([]int32, len(ids)) // next free position of each user
	pos := int32(0)
	for r, k := range byID {
		spans[r] = userSpan{id: ids[k], lo: pos, hi: pos + count[k]}
		next[k] = pos
		pos += count[k]
	}
	// The submit times are read here, in file order, rather than gathered
	// in the order of Order afterwards.
	for i, k := range uix {
		pos := next[k]
		p.Order[pos], p.Submit[pos] = int32(i), jobs[i].Submit
		next[k]++
	}
	for _, u := range spans {
		if !p.sorted(u) {
			o := p.Order[u.lo:u.hi]
			slices.SortStableFunc(o, func(a, b int32) int {
				ja, jb := &jobs[a], &jobs[b]
				if ja.Submit != jb.Submit {
					return compare(ja.Submit, jb.Submit)
				}
				return compare(ja.ID, jb.ID)
			})
			for k := u.lo; k < u.hi; k++ {
				p.Submit[k] = jobs[p.Order[k]].Submit
			}
		}
	}
	return spans
}

// sorted reports whether user u's jobs are in (submit, job number) order.
func (p *Partition) sorted(u userSpan) bool {
	for k := u.lo + 1; k < u.hi; k++ {
		a, b := p.Submit[k-1], p.Submit[k]
		if a > b || a == b && p.Trace.Jobs[p.Order[k-1]].ID > p.Trace.Jobs[p.Order[k]].ID {
			return false
		}
	}
	return true
}

func compare(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
