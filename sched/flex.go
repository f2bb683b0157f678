package sched

import (
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/sim"
)

// Flex is slack-based backfilling (Talby &
// Feitelson 1999). Like conservative backfilling it keeps a reservation
// for every waiting job in a profile of free processors, but a job may be
// delayed: on arrival each job gets a slack, SlackFactor times the mean
// wait of the jobs started so far, and its latest start L = G + slack,
// where G is the start it is planned for on arrival. No job is ever
// planned to start after its L.
//
// When a job arrives, Flex compares the schedules that put it at each
// position of the queue (ordered by reservation): the jobs ahead of the
// position keep their reservations, the new job and then every job from the
// position on, in order, take the earliest start that fits. A schedule is
// legal if every job starts by its L; Flex keeps the legal one with the
// least total planned wait (the sum over waiting jobs of planned start
// minus now, every job weighing 1), ties going to the new job's latest
// position. Putting the new job last is conservative backfilling's choice
// and is always legal; positions where the new job would start no earlier
// than last are skipped (they would only re-plan the jobs behind it). With
// a slack factor of 0 no job is ever planned
// after the start it was given on arrival, conservative backfilling's
// guarantee (a job that compression moved ahead of that start may still be
// moved back towards it). A job that ends before its planned end lets the
// schedule be compressed as in conservative backfilling (no reservation
// moves later); a running job that outlives its prediction makes Flex
// rebuild the plan in reservation order, and only then can a job be
// planned after its L.
//
// Planned durations are predictions times the estimate factor, at least
// one second.
type Flex struct {
	sf       float64
	factor   float64
	prof     profile
	init     bool
	waiting  keyList    // by (reservation, ref)
	res      []sim.Time // reservation start of waiting jobs
	late     []sim.Time // latest start L of waiting jobs
	dur      []sim.Time // planned duration (waiting) or planned end (running)
	arrivals []sim.Ref
	compress bool
	rebuild  bool
	running  []sim.Ref
	runPos   []int32
	waitSum  float64 // total wait of the started jobs
	nStarted int
	// scratch for the arrival search
	base, trial, best profile
	bestRes           []sim.Time
	trialRes          []sim.Time
	buf               []keyed
}

var _ sim.Reserver = (*Flex)(nil)
var _ sim.Restorer = (*Flex)(nil)

// NewFlex returns a Flex scheduler with slack factor sf (>= 0) and
// estimate factor (0 or 1: none).
func NewFlex(sf, factor float64) *Flex { return &Flex{sf: sf, factor: factor} }

// Name returns "flex".
func (s *Flex) Name() string { return "flex" }

func (s *Flex) plan(v *sim.View, r sim.Ref) sim.Time {
	return max(1, planned(v.Prediction(r), s.factor))
}

func (s *Flex) grow(r sim.Ref) {
	s.res = grow(s.res, r, 0)
	s.late = grow(s.late, r, 0)
	s.dur = grow(s.dur, r, 0)
	s.runPos = grow(s.runPos, r, 0)
}

// slack returns the slack of a job arriving now.
func (s *Flex) slack() sim.Time {
	if s.nStarted == 0 || s.sf == 0 {
		return 0
	}
	return sim.Time(math.Round(s.sf * s.waitSum / float64(s.nStarted)))
}

// Notify implements [sim.Scheduler].
func (s *Flex) Notify(v *sim.View, n sim.Notice) {
	if !s.init {
		s.prof = newProfile(v.Procs())
		s.init = true
	}
	r := n.Job
	s.grow(r)
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

// Restore implements [sim.Restorer]: the running jobs of v occupy the
// profile until their planned ends, and the waiting jobs, in arrival order,
// take the earliest reservations that fit; each gets the slack of a job
// arriving now (the mean wait is that of the jobs v has started).
func (s *Flex) Restore(v *sim.View) {
	now := v.Now()
	s.prof = newProfile(v.Procs())
	s.prof.t[0] = now
	s.init = true
	s.waiting.a, s.running, s.arrivals = s.waiting.a[:0], s.running[:0], s.arrivals[:0]
	s.compress, s.rebuild = false, false
	n, sum := v.StartedWaits()
	s.waitSum, s.nStarted = float64(sum), n
	if n := v.NumJobs(); n > 0 {
		s.grow(sim.Ref(n - 1))
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

// Schedule implements [sim.Scheduler].
func (s *Flex) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
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
		s.place(v, r)
	}
	s.arrivals = s.arrivals[:0]
	// With a pass after every single event (sim.Config.PassEveryEvent),
	// a job planned to end now may not have ended yet: a job whose
	// reservation has come but whose processors are still held stays at
	// the front of the queue for the pass after that end, at the same
	// instant.
	free := v.Free()
	i, kept := 0, 0
	for ; i < len(s.waiting.a) && s.waiting.a[i].key <= now; i++ {
		r := s.waiting.a[i].ref
		if v.Size(r) > free {
			s.waiting.a[kept] = s.waiting.a[i]
			kept++
			continue
		}
		free -= v.Size(r)
		s.dur[r] = now + s.dur[r] // now the planned end
		s.runPos[r] = int32(len(s.running))
		s.running = append(s.running, r)
		s.waitSum += float64(now - v.Submit(r))
		s.nStarted++
		dst = append(dst, r)
	}
	if i > kept {
		s.waiting.a = append(s.waiting.a[:kept], s.waiting.a[i:]...)
	}
	return dst
}

// place plans arriving job r: it tries r at every position of the queue and
// keeps the legal schedule of least total planned wait.
func (s *Flex) place(v *sim.View, r sim.Ref) {
	now := v.Now()
	p := int32(v.Size(r))
	s.dur[r] = s.plan(v, r)
	slack := s.slack()
	q := s.waiting.a
	n := len(q)
	// Last position: conservative backfilling's reservation.
	tLast := s.prof.find(now, p, s.dur[r], math.MaxInt64)
	bestK, bestCost := n, tLast-now
	if n > 0 && tLast > now {
		s.base = cloneProfile(s.base, &s.prof)
		s.trialRes = grow(s.trialRes, sim.Ref(n), 0)
		for k := n - 1; k >= 0; k-- {
			j := q[k].ref
			s.base.add(s.res[j], s.res[j]+s.dur[j], int32(v.Size(j)))
			s.trial = cloneProfile(s.trial, &s.base)
			t := s.trial.find(now, p, s.dur[r], math.MaxInt64)
			if t >= tLast {
				continue // r starts no earlier here: only others could lose
			}
			s.trial.add(t, t+s.dur[r], -p)
			cost, legal := t-now, true
			for i := k; i < n; i++ {
				x := q[i].ref
				tx := s.trial.find(now, int32(v.Size(x)), s.dur[x], math.MaxInt64)
				if tx > s.late[x] {
					legal = false
					break
				}
				s.trial.add(tx, tx+s.dur[x], -int32(v.Size(x)))
				s.trialRes[i] = tx
				cost += tx - s.res[x]
			}
			if legal && cost < bestCost {
				bestK, bestCost = k, cost
				s.best = cloneProfile(s.best, &s.trial)
				s.bestRes = append(s.bestRes[:0], s.trialRes[k:n]...)
				s.bestRes = append(s.bestRes, t)
			}
		}
	}
	if bestK == n {
		s.res[r] = tLast
		s.prof.add(tLast, tLast+s.dur[r], -p)
		s.waiting.insert(tLast, r)
	} else {
		s.prof, s.best = s.best, s.prof
		for i := bestK; i < n; i++ {
			x := q[i].ref
			s.res[x] = s.bestRes[i-bestK]
			q[i].key = s.res[x]
		}
		s.res[r] = s.bestRes[n-bestK]
		s.waiting.a = append(s.waiting.a, keyed{s.res[r], r})
		slices.SortFunc(s.waiting.a, cmpKeyed)
	}
	s.late[r] = s.res[r] + slack
}

func cloneProfile(dst profile, src *profile) profile {
	dst.t = append(dst.t[:0], src.t...)
	dst.free = append(dst.free[:0], src.free...)
	return dst
}

// compressAll moves every reservation as early as it now fits, in order of
// reservation, as conservative backfilling does.
func (s *Flex) compressAll(v *sim.View) {
	now := v.Now()
	s.buf = append(s.buf[:0], s.waiting.a...)
	s.waiting.a = s.waiting.a[:0]
	for _, x := range s.buf {
		r := x.ref
		p := int32(v.Size(r))
		old := s.res[r]
		t := s.prof.findWithout(now, p, s.dur[r], old, old, old+s.dur[r])
		if t < old {
			s.prof.add(old, old+s.dur[r], p)
			s.prof.add(t, t+s.dur[r], -p)
			s.res[r] = t
		}
		s.waiting.a = append(s.waiting.a, keyed{s.res[r], r})
	}
	slices.SortFunc(s.waiting.a, cmpKeyed)
}

// rebuildAll recomputes the profile from the running jobs' planned ends and
// re-reserves every waiting job in order of its previous reservation.
func (s *Flex) rebuildAll(v *sim.View) {
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
		s.prof.add(t, t+s.dur[r], -int32(v.Size(r)))
		s.waiting.a = append(s.waiting.a, keyed{t, r})
	}
	slices.SortFunc(s.waiting.a, cmpKeyed)
}

// Reservation implements [sim.Reserver]: a waiting job's guarantee is its
// latest start L (its planned start may move later, up to L, when later
// jobs are put ahead of it).
func (s *Flex) Reservation(r sim.Ref) (sim.Time, bool) {
	if int(r) >= len(s.res) {
		return 0, false
	}
	i := s.waiting.search(s.res[r], r)
	if i < len(s.waiting.a) && s.waiting.a[i].ref == r {
		return s.late[r], true
	}
	return 0, false
}

// Planned returns the planned start of waiting job r, if it is queued.
func (s *Flex) Planned(r sim.Ref) (sim.Time, bool) {
	if int(r) >= len(s.res) {
		return 0, false
	}
	i := s.waiting.search(s.res[r], r)
	if i < len(s.waiting.a) && s.waiting.a[i].ref == r {
		return s.res[r], true
	}
	return 0, false
}
