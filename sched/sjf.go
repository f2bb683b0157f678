package sched

import "github.com/hpcwl/hpcwl/sim"

// SJF is shortest job first (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, chapter 2): waiting jobs start
// in order of ascending runtime prediction (ties by arrival) while the
// first one fits; there is no backfilling. It starves long jobs.
type SJF struct {
	// Waiting jobs by (prediction, ref) in a heap: a pass looks only at
	// the jobs it starts and the first that does not fit. An entry whose
	// key is no longer its job's (a changed prediction, or started: key
	// -1) is dropped when it comes to the top.
	queue resHeap
	key   []sim.Time
}

var _ sim.Scheduler = (*SJF)(nil)

// NewSJF returns an SJF scheduler.
func NewSJF() *SJF { return &SJF{} }

// Name returns "sjf".
func (s *SJF) Name() string { return "sjf" }

// Notify implements [sim.Scheduler].
func (s *SJF) Notify(v *sim.View, n sim.Notice) {
	switch n.Kind {
	case sim.Arrived:
		s.key = grow(s.key, n.Job, 0)
		s.key[n.Job] = v.Prediction(n.Job)
		s.queue.push(keyed{s.key[n.Job], n.Job})
	case sim.PredictionChanged:
		if v.Waiting(n.Job) && s.key[n.Job] != v.Prediction(n.Job) {
			s.key[n.Job] = v.Prediction(n.Job)
			s.queue.push(keyed{s.key[n.Job], n.Job})
		}
	}
}

// Schedule implements [sim.Scheduler].
func (s *SJF) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	free := v.Free()
	for len(s.queue) > 0 {
		x := s.queue[0]
		if s.key[x.ref] != x.key {
			s.queue.pop() // stale
			continue
		}
		if v.Size(x.ref) > free {
			break
		}
		s.queue.pop()
		free -= v.Size(x.ref)
		s.key[x.ref] = -1
		dst = append(dst, x.ref)
	}
	return dst
}
