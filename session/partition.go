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
	// SessionOf and BatchOf give each job's session and batch, indexed like
	// Trace.Jobs.
	SessionOf, BatchOf []int32
	// End gives each job's end time as used: submit + wait + runtime, or
	// submit + runtime when the wait is unknown (counted in EstimatedEnds),
	// or submit when the runtime is unknown too.
	End []int64
	// EstimatedEnds counts jobs whose end had to be estimated.
	EstimatedEnds int
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
	// Length is the session length as the method defines it (spec zakay
	// section 4.5): Last - First for Arrival and Interarrival, MaxEnd -
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

// NumJobs returns the number of jobs of session s.
func (s *Session) NumJobs() int { return int(s.Hi - s.Lo) }

// NumBatches returns the number of batches of session s.
func (s *Session) NumBatches() int { return int(s.BatchHi - s.BatchLo) }

// NumJobs returns the number of jobs of batch b.
func (b *Batch) NumJobs() int { return int(b.Hi - b.Lo) }

// Identify cuts the jobs of t into sessions and batches by opt. Every job
// belongs to exactly one session and one batch.
func Identify(t *trace.Trace, opt Options) (*Partition, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	n := len(t.Jobs)
	p := &Partition{
		Options: opt, Trace: t,
		Order:     make([]int32, 0, n),
		SessionOf: make([]int32, n),
		BatchOf:   make([]int32, n),
		End:       make([]int64, n),
	}
	for i := range t.Jobs {
		j := &t.Jobs[i]
		e := j.End()
		if e < 0 {
			p.EstimatedEnds++
			e = j.Submit + max(j.Runtime, 0)
		}
		p.End[i] = e
	}
	users := groupUsers(t)
	p.Users = make([]User, 0, len(users))
	p.Sessions = make([]Session, 0, n/4+16)
	p.Batches = make([]Batch, 0, n/3+16)
	for _, u := range users {
		lo := int32(len(p.Sessions))
		p.cutUser(u)
		p.Users = append(p.Users, User{ID: u.ID, SessionLo: lo, SessionHi: int32(len(p.Sessions))})
	}
	return p, nil
}

// cutUser appends the sessions and batches of one user.
func (p *Partition) cutUser(u trace.User) {
	o := p.Options
	jobs := p.Trace.Jobs
	cut := o.Method == LastCut || o.Method == MaxCut
	var prevArr, prevEnd, userMax, sessMax int64
	for k, ix := range u.Jobs {
		arr := jobs[ix].Submit
		end := p.End[ix]
		eff := end
		if cut {
			eff = min(end, arr+o.Cut)
		}
		newSession, newBatch := k == 0 || u.ID < 0, true
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
		if newSession {
			p.Sessions = append(p.Sessions, Session{
				User: int32(len(p.Users)), Lo: int32(len(p.Order)),
				BatchLo: int32(len(p.Batches)), First: arr, MaxEnd: end,
			})
			sessMax = 0
		}
		s := &p.Sessions[len(p.Sessions)-1]
		if newSession || newBatch {
			p.Batches = append(p.Batches, Batch{Session: int32(len(p.Sessions) - 1), Lo: int32(len(p.Order)), First: arr, MaxEnd: end})
		}
		b := &p.Batches[len(p.Batches)-1]
		p.SessionOf[ix] = int32(len(p.Sessions) - 1)
		p.BatchOf[ix] = int32(len(p.Batches) - 1)
		p.Order = append(p.Order, int32(ix))
		b.Hi, b.Last, b.MaxEnd = int32(len(p.Order)), arr, max(b.MaxEnd, end)
		s.Hi, s.Last, s.MaxEnd = int32(len(p.Order)), arr, max(s.MaxEnd, end)
		s.BatchHi = int32(len(p.Batches))
		sessMax = max(sessMax, end)
		switch o.Method {
		case Arrival, Interarrival:
			s.Length = s.Last - s.First
		case Last, Max:
			s.Length = s.MaxEnd - s.First
		default:
			s.Length = max(s.Length, eff-s.First)
		}
		prevArr, prevEnd = arr, eff
		if k == 0 {
			userMax = eff
		} else {
			userMax = max(userMax, eff)
		}
	}
}

// groupUsers is [trace.Trace.Users] in linear time for logs sorted by
// submit time: jobs are bucketed by user in file order and a user's jobs
// are sorted only when the file order is not (submit, job number).
func groupUsers(t *trace.Trace) []trace.User {
	var ids []int32
	count := make([]int32, 0, 512)
	uix := make([]int32, len(t.Jobs))
	maxID := int32(-1)
	for i := range t.Jobs {
		maxID = max(maxID, t.Jobs[i].User)
	}
	// User IDs are small in archive logs: look them up in a table, else
	// in a map.
	var table []int32
	var idx map[int32]int32
	if int(maxID) < 4*len(t.Jobs)+1024 {
		table = make([]int32, int(maxID)+2)
	} else {
		idx = make(map[int32]int32, 512)
	}
	for i := range t.Jobs {
		u := t.Jobs[i].User
		var k int32
		ok := false
		if table != nil && u >= -1 {
			k = table[u+1] - 1
			ok = k >= 0
		} else if table == nil {
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
	order := make([]int32, len(ids))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return int(ids[a]) - int(ids[b]) })
	all := make([]int, len(t.Jobs))
	off := make([]int, len(ids))
	us := make([]trace.User, len(ids))
	n := 0
	for _, k := range order {
		off[k] = n
		us[k] = trace.User{ID: ids[k], Jobs: all[n : n : n+int(count[k])]}
		n += int(count[k])
	}
	for i := range t.Jobs {
		k := uix[i]
		us[k].Jobs = append(us[k].Jobs, i)
	}
	cmp := func(a, b int) int {
		ja, jb := &t.Jobs[a], &t.Jobs[b]
		switch {
		case ja.Submit != jb.Submit:
			return compare(ja.Submit, jb.Submit)
		}
		return compare(ja.ID, jb.ID)
	}
	out := make([]trace.User, 0, len(ids))
	for _, k := range order {
		u := us[k]
		if !slices.IsSortedFunc(u.Jobs, cmp) {
			slices.SortStableFunc(u.Jobs, cmp)
		}
		out = append(out, u)
	}
	return out
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
