package sched

import "github.com/hpcwl/hpcwl/sim"

// FCFS is first come first served (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, chapter 2): waiting jobs
// start in arrival order while the oldest one fits; nothing starts ahead of
// a job that does not fit.
type FCFS struct {
	queue []sim.Ref
}

var _ sim.Scheduler = (*FCFS)(nil)

// NewFCFS returns an FCFS scheduler.
func NewFCFS() *FCFS { return &FCFS{} }

// Name returns "fcfs".
func (s *FCFS) Name() string { return "fcfs" }

// Notify implements [sim.Scheduler].
func (s *FCFS) Notify(v *sim.View, n sim.Notice) {
	if n.Kind == sim.Arrived {
		s.queue = append(s.queue, n.Job)
	}
}

// Schedule implements [sim.Scheduler].
func (s *FCFS) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	free := v.Free()
	i := 0
	for i < len(s.queue) && v.Size(s.queue[i]) <= free {
		free -= v.Size(s.queue[i])
		dst = append(dst, s.queue[i])
		i++
	}
	s.queue = s.queue[i:]
	return dst
}
