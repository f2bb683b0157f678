package sched

import (
	"github.com/hpcwl/hpcwl/internal/heap"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// Replay is a test-oracle scheduler of our own, not a published one: it checks
// that a feedback simulation whose arrivals are unchanged reproduces the
// recorded schedule (the identity property of Zakay's feedback-based
// simulation, N. Zakay, Improved Realism and Representativeness of Workloads
// to Improve Reliability of Performance Evaluations, PhD thesis, Hebrew
// University, chapter 4). It starts every job its recorded wait after its
// simulated arrival, whatever the queue. When processors are busy at that time
// (a simulated arrival moved, or a machine smaller than the recorded one) the
// job starts as soon as it fits, in due order, and is counted in Late. With
// the recorded arrivals on the recorded machine it reproduces the log's own
// schedule.
type Replay struct {
	waits []sim.Time
	due   heap.Heap[sim.Ref] // by (due time, job ID)
	late  []dueItem          // due but not yet started, in due order
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
	s.due.Push(heap.Key{T: int64(j.Submit + w), A: j.ID}, n.Job)
}

// Schedule implements [sim.Scheduler].
func (s *Replay) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	now := v.Now()
	for s.due.Len() > 0 && sim.Time(s.due.Top().T) <= now {
		it := s.due.Pop()
		s.late = append(s.late, dueItem{t: sim.Time(it.T), id: it.A, ref: it.Val})
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
	if s.due.Len() == 0 {
		return -1
	}
	return sim.Time(s.due.Top().T)
}

type dueItem struct {
	t   sim.Time
	id  int64
	ref sim.Ref
}
