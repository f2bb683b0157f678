package sched

import (
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/sim"
)

// Conservative is conservative backfilling (spec talby section 11.3;
// Mu'alem & Feitelson 2001): every waiting job holds a reservation, made on
// arrival at the earliest time it fits for its whole planned duration in the
// profile of free processors; a job may start early only where it delays no
// reservation. When a job ends before its planned end the schedule is
// compressed: each waiting job, in order of its reservation (ties by
// arrival), gives up its reservation and takes the earliest one that now
// fits, which is never later. A running job that outlives its prediction
// (a deadline miss) takes processors the plan had given away, so the whole
// schedule is rebuilt in reservation order; only then can a job be delayed.
//
// Planned durations are predictions times the estimate factor, at least
// one second.
type Conservative struct {
	factor   float64
	prof     profile
	init     bool
	waiting  keyList    // by (reservation, ref)
	res      []sim.Time // reservation start of waiting jobs
	dur      []sim.Time // planned duration (waiting) or planned end (running)
	arrivals []sim.Ref
	compress bool
	rebuild  bool
	buf      []keyed
	running  []sim.Ref // running jobs, unordered
	runPos   []int32   // index of a running job in running
}

var _ sim.Reserver = (*Conservative)(nil)

// NewConservative returns a conservative backfilling scheduler; factor
// multiplies predictions for planning (0 or 1: none).
func NewConservative(factor float64) *Conservative { return &Conservative{factor: factor} }

// Name returns "conservative".
func (s *Conservative) Name() string { return "conservative" }

func (s *Conservative) plan(v *sim.View, r sim.Ref) sim.Time {
	return max(1, planned(v.Prediction(r), s.factor))
}

// Notify implements [sim.Scheduler].
func (s *Conservative) Notify(v *sim.View, n sim.Notice) {
	if !s.init {
		s.prof = newProfile(v.Procs())
		s.init = true
	}
	r := n.Job
	s.res = grow(s.res, r, 0)
	s.dur = grow(s.dur, r, 0)
	switch n.Kind {
	case sim.Arrived:
		s.arrivals = append(s.arrivals, r)
	case sim.Ended:
		last := s.running[len(s.running)-1]
		s.running[s.runPos[r]] = last
		s.runPos[last] = s.runPos[r]
		s.running = s.running[:len(s.running)-1]
		if end := s.dur[r]; v.Now() < end {
			s.prof.advance(v.Now())
			s.prof.add(v.Now(), end, int32(v.Size(r)))
			s.compress = true
		}
	case sim.PredictionChanged:
		s.rebuild = true
	}
}

// Schedule implements [sim.Scheduler].
func (s *Conservative) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	now := v.Now()
	if !s.init {
		s.prof = newProfile(v.Procs())
		s.init = true
	}
	s.prof.advance(now)
	switch {
	case s.rebuild:
		s.rebuildAll(v)
	case s.compress:
		s.compressAll(v)
	}
	s.rebuild, s.compress = false, false
	for _, r := range s.arrivals {
		s.dur[r] = s.plan(v, r)
		t := s.prof.find(now, int32(v.Size(r)), s.dur[r], math.MaxInt64)
		s.reserve(r, t, v)
	}
	s.arrivals = s.arrivals[:0]
	i := 0
	for i < len(s.waiting.a) && s.waiting.a[i].key <= now {
		r := s.waiting.a[i].ref
		s.dur[r] = now + s.dur[r] // now the planned end
		s.runPos = grow(s.runPos, r, 0)
		s.runPos[r] = int32(len(s.running))
		s.running = append(s.running, r)
		dst = append(dst, r)
		i++
	}
	if i > 0 {
		s.waiting.a = append(s.waiting.a[:0], s.waiting.a[i:]...)
	}
	return dst
}

func (s *Conservative) reserve(r sim.Ref, t sim.Time, v *sim.View) {
	s.res[r] = t
	if t != math.MaxInt64 {
		s.prof.add(t, t+s.dur[r], -int32(v.Size(r)))
	}
	s.waiting.insert(t, r)
}

// compressAll moves every reservation as early as it now fits, in order of
// reservation.
func (s *Conservative) compressAll(v *sim.View) {
	now := v.Now()
	s.buf = append(s.buf[:0], s.waiting.a...)
	s.waiting.a = s.waiting.a[:0]
	scan, runMax := 0, int32(0) // max free over the steps before index scan
	for _, x := range s.buf {
		r := x.ref
		p := int32(v.Size(r))
		old := s.res[r]
		if old == math.MaxInt64 {
			s.waiting.a = append(s.waiting.a, x)
			continue
		}
		// A start before old needs p free processors at some time before
		// old (where its own reservation does not count): skip otherwise.
		for scan < len(s.prof.t) && s.prof.t[scan] < old {
			runMax = max(runMax, s.prof.free[scan])
			scan++
		}
		if runMax < p {
			s.waiting.a = append(s.waiting.a, x)
			continue
		}
		// The old slot stays free (jobs before this one only moved earlier),
		// so the new start is never later.
		t := s.prof.findWithout(now, p, s.dur[r], old, old, old+s.dur[r])
		if t < old {
			s.prof.add(old, old+s.dur[r], p)
			s.prof.add(t, t+s.dur[r], -p)
			s.res[r] = t
			scan, runMax = 0, 0 // the profile changed: rescan
		}
		s.waiting.a = append(s.waiting.a, keyed{s.res[r], r})
	}
	slices.SortFunc(s.waiting.a, cmpKeyed)
}

// rebuildAll recomputes the profile from the running jobs' planned ends and
// re-reserves every waiting job in order of its previous reservation.
func (s *Conservative) rebuildAll(v *sim.View) {
	now := v.Now()
	s.prof = newProfile(v.Procs())
	s.prof.t[0] = now
	for _, r := range s.running {
		s.dur[r] = max(v.Start(r)+s.plan(v, r), now+1)
		s.prof.add(now, s.dur[r], -int32(v.Size(r)))
	}
	s.buf = append(s.buf[:0], s.waiting.a...)
	s.waiting.a = s.waiting.a[:0]
	for _, x := range s.buf {
		r := x.ref
		s.dur[r] = s.plan(v, r)
		t := s.prof.find(now, int32(v.Size(r)), s.dur[r], math.MaxInt64)
		s.res[r] = t
		if t != math.MaxInt64 {
			s.prof.add(t, t+s.dur[r], -int32(v.Size(r)))
		}
		s.waiting.a = append(s.waiting.a, keyed{t, r})
	}
	slices.SortFunc(s.waiting.a, cmpKeyed)
}

// Reservation implements [sim.Reserver].
func (s *Conservative) Reservation(r sim.Ref) (sim.Time, bool) {
	if int(r) >= len(s.res) || s.res[r] == math.MaxInt64 {
		return 0, false
	}
	i := s.waiting.search(s.res[r], r)
	if i < len(s.waiting.a) && s.waiting.a[i].ref == r {
		return s.res[r], true
	}
	return 0, false
}

func cmpKeyed(a, b keyed) int {
	switch {
	case a.key < b.key:
		return -1
	case a.key > b.key:
		return 1
	}
	return int(a.ref - b.ref)
}

var _ sim.Restorer = (*Conservative)(nil)

// Restore implements [sim.Restorer]: the running jobs of v occupy the
// profile until their planned ends, and the waiting jobs, in arrival order,
// take the earliest reservations that fit.
func (s *Conservative) Restore(v *sim.View) {
	now := v.Now()
	s.prof = newProfile(v.Procs())
	s.prof.t[0] = now
	s.init = true
	s.waiting.a, s.running, s.arrivals = s.waiting.a[:0], s.running[:0], s.arrivals[:0]
	s.compress, s.rebuild = false, false
	if n := v.NumJobs(); n > 0 {
		s.res = grow(s.res, sim.Ref(n-1), 0)
		s.dur = grow(s.dur, sim.Ref(n-1), 0)
		s.runPos = grow(s.runPos, sim.Ref(n-1), 0)
	}
	for r := v.FirstLive(); int(r) < v.NumJobs(); r++ {
		switch {
		case v.Running(r):
			s.dur[r] = max(v.Start(r)+s.plan(v, r), now+1)
			s.prof.add(now, s.dur[r], -int32(v.Size(r)))
			s.runPos[r] = int32(len(s.running))
			s.running = append(s.running, r)
		case v.Waiting(r):
			s.arrivals = append(s.arrivals, r)
		}
	}
}
