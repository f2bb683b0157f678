package sched

import (
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/sim"
)

// Conservative is conservative backfilling (the rule as Talby, User Modeling
// of Parallel Workloads, PhD thesis, Hebrew University, 2006, chapter 2,
// states it; Mu'alem & Feitelson 2001): every waiting job holds a reservation,
// made on arrival at the earliest time it fits for its whole planned duration
// in the profile of free processors; a job may start early only where it
// delays no reservation.
//
// Compression follows the textbook: after every scheduling pass at which
// at least one job ended (early or at its planned end; jobs ending at the
// same instant share one pass), the waiting jobs are taken in arrival order
// and each moves to the earliest slot where it now fits, the others left in
// place. A job never moves later, so no reservation is broken while no job
// outlives its planned duration. One pass is not a fixed point (a job
// moved later in the pass can free room before an earlier-arrived one);
// the next job end runs another. Jobs arriving at the same instant are
// placed after the compression. This is what the pyss simulator's
// conservative scheduler does on every termination, with simultaneous
// terminations merged; sched's TestConservativeMatchesTextbook checks it
// against an independent textbook implementation.
//
// A running job that outlives its planned duration (a deadline miss, only
// possible when jobs are not killed at their requested time or the
// predictions are shorter than the requested times) holds processors the
// plan had given to reservations: the whole plan is then rebuilt, running
// jobs at their new predicted ends and the waiting jobs re-reserved one by
// one in order of their previous reservation (ties by arrival). Only then can
// a reservation move later. Any other change of a prediction (a learning
// predictor revising a job) rebuilds the plan the same way.
//
// Planned durations are predictions times the estimate factor, at least
// one second.
type Conservative struct {
	factor   float64
	prof     profile
	init     bool
	queue    []sim.Ref  // waiting jobs in arrival order; started jobs are dropped lazily
	byRes    resHeap    // waiting jobs by (reservation, ref); stale entries dropped lazily
	res      []sim.Time // reservation start of waiting jobs
	dur      []sim.Time // planned duration (waiting) or planned end (running)
	state    []uint8
	arrivals []sim.Ref
	compress bool
	rebuild  bool
	held     []keyed   // scratch: jobs due to start whose processors are still held
	running  []sim.Ref // running jobs, unordered
	runPos   []int32   // index of a running job in running

	// Compression examines a job only if capacity was freed before its
	// reservation since it was last placed or examined. freed[i] is the
	// freeing numbered evBase+i+1, and sums[b] sums up block b of them
	// (freed[b*32:b*32+32]); seen[r] is the number of the last freeing
	// job r has taken into account; lastPass the number current at the
	// start of the previous compression.
	freed    []freeing
	sums     []freeing
	evBase   int64
	lastPass int64
	seen     []int64

	// noSlot[p] is what the last job of p processors examined proved;
	// see learn.
	noSlot []noSlot
}

// noSlot records that, when freeings numbered up to at had happened, no
// d consecutive seconds of [now, end) had p processors free (p is the
// index in Conservative.noSlot; d == 0: nothing known).
type noSlot struct {
	d, end sim.Time
	at     int64
}

// freeing is a change of the plan that gave processors back on [from, to)
// (an early end, or a reservation moved earlier); most is the largest
// number of processors free at any time of [from, to) just after it.
// A summary of several freeings has the earliest from, the latest to and
// the largest most.
type freeing struct {
	from, to sim.Time
	most     int32
}

const (
	csNone uint8 = iota
	csWaiting
	csRunning
	csDone
)

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
	s.seen = grow(s.seen, r, 0)
	s.state = grow(s.state, r, csNone)
	switch n.Kind {
	case sim.Arrived:
		s.arrivals = append(s.arrivals, r)
	case sim.Ended:
		last := s.running[len(s.running)-1]
		s.running[s.runPos[r]] = last
		s.runPos[last] = s.runPos[r]
		s.running = s.running[:len(s.running)-1]
		s.state[r] = csDone
		if end := s.dur[r]; v.Now() < end {
			s.prof.advance(v.Now())
			m := s.prof.add(v.Now(), end, int32(v.Size(r)))
			s.addFreeing(freeing{v.Now(), end, m})
		}
		s.compress = true
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
		s.queue = append(s.queue, r)
		s.state[r] = csWaiting
		s.reserve(r, t, v)
	}
	s.arrivals = s.arrivals[:0]
	// With a pass after every single event (sim.Config.PassEveryEvent),
	// a job planned to end now may not have ended yet: a job whose
	// reservation has come but whose processors are still held waits for
	// the pass after that end, at the same instant.
	free := v.Free()
	held := s.held[:0]
	for len(s.byRes) > 0 && s.byRes[0].key <= now {
		x := s.byRes.pop()
		r := x.ref
		if s.state[r] != csWaiting || s.res[r] != x.key {
			continue // stale
		}
		if v.Size(r) > free {
			held = append(held, x)
			continue
		}
		free -= v.Size(r)
		s.state[r] = csRunning
		s.dur[r] = now + s.dur[r] // now the planned end
		s.runPos = grow(s.runPos, r, 0)
		s.runPos[r] = int32(len(s.running))
		s.running = append(s.running, r)
		dst = append(dst, r)
	}
	for _, x := range held {
		s.byRes.push(x)
	}
	s.held = held
	return dst
}

func (s *Conservative) reserve(r sim.Ref, t sim.Time, v *sim.View) {
	s.res[r] = t
	s.seen[r] = s.evBase + int64(len(s.freed))
	if t != math.MaxInt64 {
		s.prof.add(t, t+s.dur[r], -int32(v.Size(r)))
		s.byRes.push(keyed{t, r})
	}
}

// compressAll moves every waiting job, in arrival order, to the earliest
// slot where it now fits, if that is before its reservation.
//
// Job r of p processors and planned duration d, reserved at old, can start
// at t < old if and only if p processors are free on [t, min(t+d, old)):
// from old on its own reservation frees them. When r was placed or last
// examined no such t existed, so the window of the new slot must hold a
// time x < old where processors were freed since (an early end or a
// reservation moved away) and where p are free now; t then lies in (x-d,
// x]. The freeings since r was last seen that start before old and left p
// free somewhere bound the search; without any, r is skipped.
func (s *Conservative) compressAll(v *sim.View) {
	now := v.Now()
	if drop := s.lastPass - s.evBase; drop > 0 {
		// every waiting job has seen the freeings before the previous pass
		n := copy(s.freed, s.freed[drop:])
		s.freed = s.freed[:n]
		s.evBase = s.lastPass
		s.sums = s.sums[:0]
		for i, f := range s.freed {
			s.addSum(i, f)
		}
	}
	s.lastPass = s.evBase + int64(len(s.freed))
	w := 0
	for _, r := range s.queue {
		if s.state[r] != csWaiting {
			continue
		}
		s.queue[w] = r
		w++
		old := s.res[r]
		from := s.seen[r] - s.evBase
		s.seen[r] = s.evBase + int64(len(s.freed))
		if old == math.MaxInt64 || old <= now {
			continue
		}
		p, d := int32(v.Size(r)), s.dur[r]
		if from >= int64(len(s.freed)) {
			s.learn(p, d, old)
			continue
		}
		f := s.since(max(int(from), 0))
		if f.from >= old || f.most < p {
			s.learn(p, d, old)
			continue
		}
		start := max(now, f.from-d+1, s.noSlotBefore(p, d, old))
		t := old
		if until := min(f.to, old); start < until {
			t = s.prof.findBefore(start, p, d, until, old)
		}
		if t < old {
			s.prof.add(t, t+d, -p)
			m := s.prof.add(old, old+d, p)
			s.addFreeing(freeing{old, old + d, m})
			s.seen[r] = s.evBase + int64(len(s.freed))
			s.res[r] = t
			s.byRes.push(keyed{t, r})
		}
		s.learn(p, d, t)
	}
	clear(s.queue[w:])
	s.queue = s.queue[:w]
}

// learn records what examining a job of p processors and planned
// duration d, now reserved at res, proved: no slot before res, so no d
// consecutive seconds of [now, res) have p processors free (a job's own
// reservation starts at res and so does not touch [now, res)).
func (s *Conservative) learn(p int32, d, res sim.Time) {
	if int(p) >= len(s.noSlot) {
		s.noSlot = append(s.noSlot, make([]noSlot, int(p)+1-len(s.noSlot))...)
	}
	s.noSlot[p] = noSlot{d: d, end: res, at: s.evBase + int64(len(s.freed))}
}

// noSlotBefore returns a time before which a job of p processors and
// planned duration d reserved at old cannot start, from what the last job
// of its size examined proved (see learn): none of its d-long stretches of
// [now, end) has p processors free, unless freed since, so the processors
// have stayed short in some second of every such stretch of [now, end'),
// where end' is end or the earliest freeing since if that is before. If
// the job's own window [t, min(t+d, old)) holds such a stretch it cannot
// start at t: for old <= end' that is every t <= old-d', for old > end'
// every t <= end'-d (d' <= d the recorded duration). Without a record it
// returns math.MinInt64.
func (s *Conservative) noSlotBefore(p int32, d, old sim.Time) sim.Time {
	if int(p) >= len(s.noSlot) {
		return math.MinInt64
	}
	k := s.noSlot[p]
	i := k.at - s.evBase
	if k.d == 0 || k.d > d || i < 0 {
		return math.MinInt64
	}
	end := k.end
	if i < int64(len(s.freed)) {
		end = min(end, s.since(int(i)).from)
	}
	if old <= end {
		return old - k.d + 1
	}
	return end - d + 1
}

const sumShift = 5 // blocks of 32 freeings

// addFreeing records a freeing.
func (s *Conservative) addFreeing(f freeing) {
	s.freed = append(s.freed, f)
	s.addSum(len(s.freed)-1, f)
}

func (s *Conservative) addSum(i int, f freeing) {
	if b := i >> sumShift; b == len(s.sums) {
		s.sums = append(s.sums, f)
	} else {
		s.sums[b] = merged(s.sums[b], f)
	}
}

// since sums up the freeings from index i on.
func (s *Conservative) since(i int) freeing {
	f := s.freed[i]
	b := i >> sumShift
	for _, g := range s.freed[i+1 : min((b+1)<<sumShift, len(s.freed))] {
		f = merged(f, g)
	}
	for _, g := range s.sums[b+1:] {
		f = merged(f, g)
	}
	return f
}

func merged(a, b freeing) freeing {
	return freeing{min(a.from, b.from), max(a.to, b.to), max(a.most, b.most)}
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
	var order []keyed
	w := 0
	for _, r := range s.queue {
		if s.state[r] != csWaiting {
			continue
		}
		s.queue[w] = r
		w++
		order = append(order, keyed{s.res[r], r})
	}
	s.queue = s.queue[:w]
	slices.SortFunc(order, cmpKeyed)
	s.byRes = s.byRes[:0]
	s.evBase += int64(len(s.freed)) // the plan starts afresh
	s.freed = s.freed[:0]
	s.sums = s.sums[:0]
	s.lastPass = s.evBase
	clear(s.noSlot) // the plan changed in any way
	for _, x := range order {
		r := x.ref
		s.dur[r] = s.plan(v, r)
		s.reserve(r, s.prof.find(now, int32(v.Size(r)), s.dur[r], math.MaxInt64), v)
	}
}

// Reservation implements [sim.Reserver].
func (s *Conservative) Reservation(r sim.Ref) (sim.Time, bool) {
	if int(r) >= len(s.res) || s.state[r] != csWaiting || s.res[r] == math.MaxInt64 {
		return 0, false
	}
	return s.res[r], true
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
// take the earliest reservations that fit at the next pass.
func (s *Conservative) Restore(v *sim.View) {
	now := v.Now()
	s.prof = newProfile(v.Procs())
	s.prof.t[0] = now
	s.init = true
	s.queue, s.byRes, s.running, s.arrivals = s.queue[:0], s.byRes[:0], s.running[:0], s.arrivals[:0]
	s.freed, s.sums, s.evBase, s.lastPass = s.freed[:0], s.sums[:0], 0, 0
	s.compress, s.rebuild = false, false
	clear(s.noSlot)
	if n := v.NumJobs(); n > 0 {
		last := sim.Ref(n - 1)
		s.res = grow(s.res, last, 0)
		s.dur = grow(s.dur, last, 0)
		s.seen = grow(s.seen, last, 0)
		s.state = grow(s.state, last, csNone)
		s.runPos = grow(s.runPos, last, 0)
	}
	for r := v.FirstLive(); int(r) < v.NumJobs(); r++ {
		s.state[r], s.seen[r] = csDone, 0
		switch {
		case v.Running(r):
			s.state[r] = csRunning
			s.dur[r] = max(v.Start(r)+s.plan(v, r), now+1)
			s.prof.add(now, s.dur[r], -int32(v.Size(r)))
			s.runPos[r] = int32(len(s.running))
			s.running = append(s.running, r)
		case v.Waiting(r):
			s.arrivals = append(s.arrivals, r)
		}
	}
}

// resHeap is a binary min-heap of waiting jobs by (reservation, ref).
type resHeap []keyed

func (h *resHeap) push(x keyed) {
	a := append(*h, x)
	i := len(a) - 1
	for i > 0 {
		up := (i - 1) / 2
		if cmpKeyed(a[up], a[i]) <= 0 {
			break
		}
		a[up], a[i] = a[i], a[up]
		i = up
	}
	*h = a
}

func (h *resHeap) pop() keyed {
	a := *h
	x := a[0]
	n := len(a) - 1
	a[0] = a[n]
	a = a[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && cmpKeyed(a[r], a[l]) < 0 {
			c = r
		}
		if cmpKeyed(a[i], a[c]) <= 0 {
			break
		}
		a[i], a[c] = a[c], a[i]
		i = c
	}
	*h = a
	return x
}
