package sched

import "github.com/hpcwl/hpcwl/sim"

// SJF is shortest job first (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, chapter 2): waiting jobs start
// in order of ascending runtime prediction (ties by arrival) while the
// first one fits; there is no backfilling. It starves long jobs.
type SJF struct {
	queue keyList
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
		s.queue.insert(s.key[n.Job], n.Job)
	case sim.PredictionChanged:
		if v.Waiting(n.Job) {
			s.queue.remove(s.key[n.Job], n.Job)
			s.key[n.Job] = v.Prediction(n.Job)
			s.queue.insert(s.key[n.Job], n.Job)
		}
	}
}

// Schedule implements [sim.Scheduler].
func (s *SJF) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	free := v.Free()
	i := 0
	for i < len(s.queue.a) && v.Size(s.queue.a[i].ref) <= free {
		free -= v.Size(s.queue.a[i].ref)
		dst = append(dst, s.queue.a[i].ref)
		i++
	}
	if i > 0 {
		s.queue.a = append(s.queue.a[:0], s.queue.a[i:]...)
	}
	return dst
}
