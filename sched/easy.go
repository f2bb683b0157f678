package sched

import (
	"math"
	"strconv"

	"github.com/hpcwl/hpcwl/sim"
)

// EASY is aggressive backfilling in the corrected form of spec talby
// section 11.2 (Lifka 1995; Mu'alem & Feitelson 2001):
//
//  1. start waiting jobs in arrival order while the oldest one fits;
//  2. reserve for the oldest waiting job R: walking the running jobs by
//     planned end (start + prediction), the shadow time is the end at which
//     enough processors are free for R, and the extra processors are those
//     left at that time beyond R's need;
//  3. backfill every other waiting job, in arrival order, that fits in the
//     free processors and either ends by the shadow time (now + prediction
//     <= shadow) or fits in the extra processors (which it then uses up).
//
// Only the oldest job is protected. With a factor k > 1 predictions are
// multiplied by k for planning ("EASY with doubled estimates"); the kill
// time stays the requested time.
//
// A pass after nothing but arrivals examines only the new jobs: every older
// job was refused with more free and extra processors and an earlier now,
// so it would be refused again.
type EASY struct {
	factor  float64
	byPred  bool // SJBF: backfill in order of ascending prediction
	name    string
	queue   []sim.Ref // waiting jobs in arrival order
	sorted  keyList   // SJBF: waiting jobs by (planned duration, ref)
	key     []sim.Time
	runs    runList
	fresh   []sim.Ref // arrivals since the last pass
	dirty   bool      // a termination or prediction change since the last pass
	head    sim.Ref   // reserved job after the last pass, -1 if none
	shadow  sim.Time  // its shadow time (planned end of the pivot job), unclamped
	extra   int
	started []sim.Ref
}

var _ sim.Reserver = (*EASY)(nil)

// NewEASY returns an EASY scheduler; factor multiplies predictions for
// planning (0 or 1: none; 2: EASY with doubled estimates).
func NewEASY(factor float64) *EASY {
	n := "easy"
	if factor > 1 {
		n = "easy-x" + trimFloat(factor)
	}
	return &EASY{factor: factor, name: n, head: -1, dirty: true}
}

// NewSJBF returns SJBF, shortest job backfilled first (spec talby section
// 11.7; Tsafrir, Etsion & Feitelson 2006): EASY that plans with the
// predictions and backfills in order of ascending prediction (ties by
// arrival). The reservation is still for the oldest waiting job.
func NewSJBF(factor float64) *EASY {
	s := NewEASY(factor)
	s.byPred = true
	s.name = "sjbf"
	return s
}

// trimFloat formats f in the shortest form that reads back to it ("2", "1.5").
func trimFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// Name returns "easy", "easy-xK" or "sjbf".
func (s *EASY) Name() string { return s.name }

// Notify implements [sim.Scheduler].
func (s *EASY) Notify(v *sim.View, n sim.Notice) {
	r := n.Job
	switch n.Kind {
	case sim.Arrived:
		s.queue = append(s.queue, r)
		s.fresh = append(s.fresh, r)
		if s.byPred {
			s.key = grow(s.key, r, 0)
			s.key[r] = planned(v.Prediction(r), s.factor)
			s.sorted.insert(s.key[r], r)
		}
	case sim.Ended:
		s.key = grow(s.key, r, 0)
		s.runs.remove(s.key[r], r)
		s.dirty = true
	case sim.PredictionChanged:
		s.key = grow(s.key, r, 0)
		k := planned(v.Prediction(r), s.factor)
		if v.Running(r) {
			s.runs.remove(s.key[r], r)
			s.key[r] = v.Start(r) + k
			s.runs.insert(running{end: s.key[r], ref: r, procs: int32(v.Size(r))})
		} else if s.byPred {
			s.sorted.remove(s.key[r], r)
			s.key[r] = k
			s.sorted.insert(k, r)
		}
		s.dirty = true
	}
}

func (s *EASY) start(v *sim.View, r sim.Ref, dst []sim.Ref) []sim.Ref {
	s.key = grow(s.key, r, 0)
	if s.byPred {
		s.sorted.remove(s.key[r], r)
	}
	s.key[r] = v.Now() + planned(v.Prediction(r), s.factor)
	s.runs.insert(running{end: s.key[r], ref: r, procs: int32(v.Size(r))})
	return append(dst, r)
}

// Schedule implements [sim.Scheduler].
func (s *EASY) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	now, free := v.Now(), v.Free()
	// 1. FCFS phase.
	i := 0
	for i < len(s.queue) && v.Size(s.queue[i]) <= free {
		free -= v.Size(s.queue[i])
		dst = s.start(v, s.queue[i], dst)
		i++
	}
	if i > 0 {
		s.queue = s.queue[i:]
		s.dirty = true
	}
	if len(s.queue) == 0 {
		s.head, s.fresh, s.dirty = -1, s.fresh[:0], false
		return dst
	}
	// 2. Shadow time and extra processors for the oldest waiting job.
	if s.dirty || s.head != s.queue[0] {
		s.head = s.queue[0]
		need := v.Size(s.head)
		freed := free
		s.shadow = math.MaxInt64
		for _, x := range s.runs.a {
			freed += int(x.procs)
			if freed >= need {
				s.shadow = x.end
				break
			}
		}
		s.extra = freed - need
		if s.shadow == math.MaxInt64 {
			s.extra = 0
		}
		s.fresh = s.fresh[:0]
		if free > 0 {
			dst = s.backfill(v, now, free, dst, false)
		}
	} else if free > 0 && len(s.fresh) > 0 {
		dst = s.backfill(v, now, free, dst, true)
	}
	s.fresh, s.dirty = s.fresh[:0], false
	return dst
}

// backfill starts jobs other than the head that fit (step 3). With onlyFresh
// it examines only the jobs that arrived since the last pass.
func (s *EASY) backfill(v *sim.View, now sim.Time, free int, dst []sim.Ref, onlyFresh bool) []sim.Ref {
	shadow := max(now, s.shadow)
	ok := func(r sim.Ref) bool {
		p := v.Size(r)
		if p > free {
			return false
		}
		if s.shadow == math.MaxInt64 || now+planned(v.Prediction(r), s.factor) <= shadow {
			free -= p
			return true
		}
		if p <= s.extra {
			free -= p
			s.extra -= p
			return true
		}
		return false
	}
	s.started = s.started[:0]
	if s.byPred {
		cands := s.sorted.a
		if onlyFresh {
			// fresh jobs in (key, ref) order
			cands = make([]keyed, 0, len(s.fresh))
			for _, r := range s.fresh {
				cands = append(cands, keyed{s.key[r], r})
			}
			sortKeyed(cands)
		}
		for _, c := range cands {
			if free == 0 {
				break
			}
			if c.ref != s.head && v.Waiting(c.ref) && ok(c.ref) {
				s.started = append(s.started, c.ref)
			}
		}
		for _, r := range s.started {
			dst = s.start(v, r, dst)
		}
		if len(s.started) > 0 {
			s.compactQueue(v, onlyFresh)
		}
		return dst
	}
	from := 1
	if onlyFresh {
		from = len(s.queue) - len(s.fresh)
	}
	w := from
	for k := from; k < len(s.queue); k++ {
		r := s.queue[k]
		if free > 0 && ok(r) {
			dst = s.start(v, r, dst)
			continue
		}
		s.queue[w] = r
		w++
	}
	s.queue = s.queue[:w]
	return dst
}

// compactQueue drops started jobs from the arrival-ordered queue (SJBF).
func (s *EASY) compactQueue(v *sim.View, onlyFresh bool) {
	from := 1
	if onlyFresh {
		from = len(s.queue) - len(s.fresh)
	}
	started := s.started
	w := from
	for k := from; k < len(s.queue); k++ {
		r := s.queue[k]
		if contains(started, r) {
			continue
		}
		s.queue[w] = r
		w++
	}
	s.queue = s.queue[:w]
}

func contains(a []sim.Ref, r sim.Ref) bool {
	for _, x := range a {
		if x == r {
			return true
		}
	}
	return false
}

func sortKeyed(a []keyed) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && (a[j].key < a[j-1].key || (a[j].key == a[j-1].key && a[j].ref < a[j-1].ref)); j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// Reservation implements [sim.Reserver]: the oldest waiting job is
// guaranteed to start by its shadow time (if the predictions are upper
// bounds of the runtimes).
func (s *EASY) Reservation(r sim.Ref) (sim.Time, bool) {
	if r != s.head || s.head < 0 || s.shadow == math.MaxInt64 {
		return 0, false
	}
	return s.shadow, true
}
