package sim

import (
	"cmp"
	"slices"
)

// JobSource submits the jobs of a run. The engine pulls arrivals from it:
// Next says when the source's next job arrives, and Pop hands over all jobs
// arriving at that time. The source is told of every start and termination,
// and may react by submitting new jobs at or after the current time (users
// who submit their next job some think time after an earlier one ends).
// A source whose Next reports nothing while no job is waiting or running
// ends the run.
type JobSource interface {
	// Next returns the submit time of the next job the source will
	// submit, and false if it has none pending (it may get some later,
	// after a start or termination).
	Next() (Time, bool)
	// Pop appends to dst the jobs submitted at time now (all of them, each
	// with Submit == now), and returns dst. It is called only when Next
	// returned now.
	Pop(now Time, dst []Job) []Job
	// Started tells the source that job r started at now.
	Started(v *View, r Ref)
	// Ended tells the source that job r terminated at now.
	Ended(v *View, r Ref)
}

// Replay is the rigid replay of a log: each job arrives at its recorded
// submit time whatever the schedule does. It implements [JobSource].
type Replay struct {
	jobs []Job
	next int
}

// NewReplay returns a source that submits jobs at their Submit times. The
// jobs are ordered by submit time, then ID (the slice is sorted in place
// when it is not already).
func NewReplay(jobs []Job) *Replay {
	if !slices.IsSortedFunc(jobs, cmpSubmit) {
		slices.SortStableFunc(jobs, cmpSubmit)
	}
	return &Replay{jobs: jobs}
}

// cmpSubmit orders jobs by submit time, then ID.
func cmpSubmit(a, b Job) int {
	return cmp.Or(cmp.Compare(a.Submit, b.Submit), cmp.Compare(a.ID, b.ID))
}

// Next implements [JobSource].
func (s *Replay) Next() (Time, bool) {
	if s.next >= len(s.jobs) {
		return 0, false
	}
	return s.jobs[s.next].Submit, true
}

// Pop implements [JobSource].
func (s *Replay) Pop(now Time, dst []Job) []Job {
	for s.next < len(s.jobs) && s.jobs[s.next].Submit == now {
		dst = append(dst, s.jobs[s.next])
		s.next++
	}
	return dst
}

// Started implements [JobSource]; a rigid replay ignores it.
func (s *Replay) Started(*View, Ref) {}

// Ended implements [JobSource]; a rigid replay ignores it.
func (s *Replay) Ended(*View, Ref) {}

// Len returns the number of jobs.
func (s *Replay) Len() int { return len(s.jobs) }
