package sim_test

import (
	"context"
	"fmt"
	"slices"

	"github.com/hpcwl/hpcwl/sim"
)

// smallestFirst is a scheduling policy written against the sim.Scheduler
// interface: it keeps its own queue from the notices and, at every pass,
// starts the waiting jobs with the fewest processors first, as many as
// fit. (Without reservations, wide jobs can starve: a real policy would
// age them.)
type smallestFirst struct {
	queue []sim.Ref
}

// Notify is called for every event before the pass of its instant.
func (s *smallestFirst) Notify(v *sim.View, n sim.Notice) {
	if n.Kind == sim.Arrived {
		s.queue = append(s.queue, n.Job)
	}
}

// Schedule returns the jobs to start now; they must fit in v.Free().
func (s *smallestFirst) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	slices.SortStableFunc(s.queue, func(a, b sim.Ref) int { return v.Size(a) - v.Size(b) })
	free := v.Free()
	kept := s.queue[:0]
	for _, r := range s.queue {
		if v.Size(r) <= free {
			free -= v.Size(r)
			dst = append(dst, r)
		} else {
			kept = append(kept, r)
		}
	}
	s.queue = kept
	return dst
}

// A policy of one's own: implement Notify and Schedule, and run it with
// sim.Run (or sim.Simulate on a trace). A policy in another language runs
// as an external scheduler (package sched/external).
func Example_policy() {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 4},
		{ID: 2, Submit: 10, Runtime: 50, Estimate: 50, Procs: 3},
		{ID: 3, Submit: 20, Runtime: 30, Estimate: 30, Procs: 1},
	}
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), &smallestFirst{}, sim.Config{Procs: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range res.Jobs {
		fmt.Printf("job %d (%d processors): start %d end %d\n", o.ID, o.Procs, o.Start, o.End)
	}
	// Output:
	// job 1 (4 processors): start 0 end 100
	// job 2 (3 processors): start 100 end 150
	// job 3 (1 processors): start 100 end 130
}
