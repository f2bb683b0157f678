package sched

import (
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/sim"
)

// Maui is the Maui scheduler in the configuration the thesis simulates
// (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, chapter 2; Jackson, Snell & Clement 2001): jobs are
// ordered by Maui's priority function, the highest-priority waiting job
// that cannot start holds the only reservation (reservation depth 1), and
// every other waiting job is tried for backfilling, first fit in priority
// order, on every scheduling pass (not only the newly arrived one).
//
// The priority of a waiting job is
//
//	QueueTimeWeight * (minutes waited) + XFactorWeight * (wait + planned) / planned
//
// recomputed at every pass (planned: the prediction times the estimate
// factor, at least 1 s); ties go to the older job. Maui's default
// weights, 1 and 0, give first come first served order, and then Maui
// schedules exactly as EASY does ("essentially EASY", thesis section 2):
// the reservation and backfilling rules are EASY's (section 11.2),
// including the extra processors of every job ending at the shadow time.
// A positive expansion-factor weight moves short jobs that have waited long
// relative to their length up the queue.
type Maui struct {
	qw, xw  float64
	factor  float64
	waiting []sim.Ref // arrival order
	prio    []float64 // scratch, by position in order
	order   []sim.Ref
	runs    runList
	end     []sim.Time // planned end of running jobs, by ref
	head    sim.Ref
	shadow  sim.Time
	// name and rank are set by NewEASYPriority: another priority function
	// replaces the weights (rank's tier first, then its score).
	name string
	rank func(w, r, n, s float64) (int, float64)
	tier []int // scratch, by ref
}

var _ sim.Reserver = (*Maui)(nil)
var _ sim.Restorer = (*Maui)(nil)

// NewMaui returns a Maui scheduler with the given priority weights (per
// minute of queue time, per unit of expansion factor; both >= 0) and
// estimate factor (0 or 1: none).
func NewMaui(queueTimeWeight, xfactorWeight, factor float64) *Maui {
	return &Maui{qw: queueTimeWeight, xw: xfactorWeight, factor: factor, head: -1}
}

// Name returns "maui", or "easy-NAME" for EASY with the queue priority
// NAME (NewEASYPriority).
func (s *Maui) Name() string {
	if s.name != "" {
		return s.name
	}
	return "maui"
}

func (s *Maui) plan(v *sim.View, r sim.Ref) sim.Time {
	return planned(v.Prediction(r), s.factor)
}

// Priority returns the priority of waiting job r at the current time.
func (s *Maui) Priority(v *sim.View, r sim.Ref) float64 {
	w := float64(v.Now() - v.Submit(r))
	p := float64(max(1, s.plan(v, r)))
	return s.qw*w/60 + s.xw*(w+p)/p
}

// Notify implements [sim.Scheduler].
func (s *Maui) Notify(v *sim.View, n sim.Notice) {
	r := n.Job
	s.end = grow(s.end, r, 0)
	switch n.Kind {
	case sim.Arrived:
		s.waiting = append(s.waiting, r)
	case sim.Ended:
		s.runs.remove(s.end[r], r)
	case sim.PredictionChanged:
		if v.Running(r) {
			s.runs.remove(s.end[r], r)
			s.end[r] = v.Start(r) + s.plan(v, r)
			s.runs.insert(running{end: s.end[r], ref: r, procs: int32(v.Size(r))})
		}
	}
}

// Restore implements [sim.Restorer].
func (s *Maui) Restore(v *sim.View) {
	s.waiting, s.runs.a, s.head = s.waiting[:0], s.runs.a[:0], -1
	for r := v.FirstLive(); int(r) < v.NumJobs(); r++ {
		switch {
		case v.Waiting(r):
			s.waiting = append(s.waiting, r)
		case v.Running(r):
			s.end = grow(s.end, r, 0)
			s.end[r] = v.Start(r) + s.plan(v, r)
			s.runs.insert(running{end: s.end[r], ref: r, procs: int32(v.Size(r))})
		}
	}
}

// ordered returns the waiting jobs by descending priority, ties by
// arrival.
func (s *Maui) ordered(v *sim.View) []sim.Ref {
	s.order = append(s.order[:0], s.waiting...)
	if s.rank == nil && s.xw == 0 && s.qw >= 0 {
		return s.order // queue time alone: arrival order
	}
	s.prio = grow(s.prio, sim.Ref(v.NumJobs()-1), 0)
	s.tier = grow(s.tier, sim.Ref(v.NumJobs()-1), 0)
	for _, r := range s.order {
		if s.rank != nil {
			s.tier[r], s.prio[r] = s.rank(float64(v.Now()-v.Submit(r)), float64(max(1, s.plan(v, r))),
				float64(v.Size(r)), float64(max(1, v.Submit(r))))
		} else {
			s.prio[r] = s.Priority(v, r)
		}
	}
	slices.SortStableFunc(s.order, func(a, b sim.Ref) int {
		if ta, tb := s.tier[a], s.tier[b]; ta != tb {
			return ta - tb
		}
		switch pa, pb := s.prio[a], s.prio[b]; {
		case pa > pb:
			return -1
		case pa < pb:
			return 1
		}
		return int(a - b)
	})
	return s.order
}

func (s *Maui) start(v *sim.View, r sim.Ref, dst []sim.Ref) []sim.Ref {
	s.end = grow(s.end, r, 0)
	s.end[r] = v.Now() + s.plan(v, r)
	s.runs.insert(running{end: s.end[r], ref: r, procs: int32(v.Size(r))})
	return append(dst, r)
}

// Schedule implements [sim.Scheduler].
func (s *Maui) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	now, free := v.Now(), v.Free()
	order := s.ordered(v)
	first := len(dst)
	// Start jobs in priority order while the highest-priority one fits.
	i := 0
	for ; i < len(order) && v.Size(order[i]) <= free; i++ {
		free -= v.Size(order[i])
		dst = s.start(v, order[i], dst)
	}
	s.head = -1
	if i < len(order) {
		// Reservation for the highest-priority job that does not fit.
		s.head = order[i]
		need, freed := v.Size(s.head), free
		s.shadow = math.MaxInt64
		for k, x := range s.runs.a {
			freed += int(x.procs)
			if freed >= need {
				s.shadow = x.end
				freed += endingAt(s.runs.a[k+1:], x.end)
				break
			}
		}
		extra := freed - need
		if s.shadow == math.MaxInt64 {
			extra = 0
		}
		horizon := max(now, s.shadow) - now
		// Backfill first fit in priority order.
		for _, r := range order[i+1:] {
			if free == 0 {
				break
			}
			p := v.Size(r)
			if p > free {
				continue
			}
			if s.shadow == math.MaxInt64 || s.plan(v, r) <= horizon {
				free -= p
			} else if p <= extra {
				free -= p
				extra -= p
			} else {
				continue
			}
			dst = s.start(v, r, dst)
		}
	}
	if len(dst) > first {
		started := dst[first:]
		s.waiting = slices.DeleteFunc(s.waiting, func(r sim.Ref) bool { return slices.Contains(started, r) })
	}
	return dst
}

// Reservation implements [sim.Reserver]: the highest-priority waiting job
// that could not start is guaranteed to start by its shadow time (if the
// predictions are upper bounds of the runtimes and its priority stays the
// highest).
func (s *Maui) Reservation(r sim.Ref) (sim.Time, bool) {
	if r != s.head || s.head < 0 || s.shadow == math.MaxInt64 {
		return 0, false
	}
	return s.shadow, true
}
