package sched

import (
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// Replay is the test-oracle scheduler of spec zakay section 9.6: it starts
// every job its recorded wait after its simulated arrival, whatever the
// queue. When processors are busy at that time (a simulated arrival moved,
// or a machine smaller than the recorded one) the job starts as soon as it
// fits, in due order, and is counted in Late. With the recorded arrivals
// on the recorded machine it reproduces the log's own schedule.
type Replay struct {
	waits []sim.Time
	due   dueHeap
	late  []dueItem // due but not yet started, in due order
	// Late counts jobs that started after their due time.
	Late int
}

var (
	_ sim.Scheduler = (*Replay)(nil)
	_ sim.Waker     = (*Replay)(nil)
)

// NewReplay returns a replay scheduler; waits[i] is the recorded wait of
// the job whose [sim.Job.Index] is i (a negative or missing wait means 0).
func NewReplay(waits []sim.Time) *Replay { return &Replay{waits: waits} }

// RecordedWaits returns the recorded waits of t's jobs (field 3), indexed
// like t.Jobs, for [NewReplay]; unknown waits are -1.
func RecordedWaits(t *trace.Trace) []sim.Time {
	w := make([]sim.Time, len(t.Jobs))
	for i := range t.Jobs {
		w[i] = sim.Time(t.Jobs[i].Wait)
	}
	return w
}

// Name returns "replay".
func (s *Replay) Name() string { return "replay" }

// Notify implements [sim.Scheduler].
func (s *Replay) Notify(v *sim.View, n sim.Notice) {
	if n.Kind != sim.Arrived {
		return
	}
	j := v.Job(n.Job)
	var w sim.Time
	if ix := int(j.Index); ix >= 0 && ix < len(s.waits) {
		w = max(s.waits[ix], 0)
	}
	s.due.push(dueItem{t: j.Submit + w, id: j.ID, ref: n.Job})
}

// Schedule implements [sim.Scheduler].
func (s *Replay) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	now := v.Now()
	for s.due.len() > 0 && s.due.h[0].t <= now {
		s.late = append(s.late, s.due.pop())
	}
	free := v.Free()
	k := 0
	for _, it := range s.late {
		if sz := v.Size(it.ref); sz <= free {
			free -= sz
			dst = append(dst, it.ref)
			if it.t < now {
				s.Late++
			}
			continue
		}
		s.late[k] = it
		k++
	}
	s.late = s.late[:k]
	return dst
}

// NextWake implements [sim.Waker]: the next due time.
func (s *Replay) NextWake(v *sim.View) sim.Time {
	if s.due.len() == 0 {
		return -1
	}
	return s.due.h[0].t
}

type dueItem struct {
	t   sim.Time
	id  int64
	ref sim.Ref
}

func (a dueItem) before(b dueItem) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	return a.id < b.id
}

// dueHeap is a binary min-heap of due items by (time, job ID).
type dueHeap struct{ h []dueItem }

func (q *dueHeap) len() int { return len(q.h) }

func (q *dueHeap) push(e dueItem) {
	q.h = append(q.h, e)
	i := len(q.h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !q.h[i].before(q.h[p]) {
			break
		}
		q.h[i], q.h[p] = q.h[p], q.h[i]
		i = p
	}
}

func (q *dueHeap) pop() dueItem {
	h := q.h
	e := h[0]
	n := len(h) - 1
	h[0] = h[n]
	q.h = h[:n]
	h = q.h
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h[r].before(h[l]) {
			m = r
		}
		if !h[m].before(h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return e
}
