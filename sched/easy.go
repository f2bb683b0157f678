package sched

import (
	"math"
	"strconv"

	"github.com/hpcwl/hpcwl/sim"
)

// EASY is aggressive backfilling (Talby, User Modeling of Parallel Workloads,
// PhD thesis, Hebrew University, 2006, chapter 2 and appendix A, Listing 7;
// Lifka 1995; Mu'alem & Feitelson 2001), with the listing corrected to
// standard EASY where it departs from it (our choice): the first phase stops
// at the oldest job that does not fit, and a job backfilled into the extra
// processors uses them up:
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
	factor float64
	byPred bool // SJBF: backfill in order of ascending prediction
	name   string
	queue  []waiting // waiting jobs in arrival order; started ones stay as tombstones
	dead   int       // tombstones in queue (never queue[0])
	stale  bool      // a waiting job's prediction changed: queue[].dur is out of date
	// The waiting jobs by size (EASY; SJBF keeps them by prediction in
	// sorted): a backfilling pass over more than scanMax entries jumps to
	// the next job that can start. Entry k of the queue is at position
	// k+base of the index; base counts the entries the FCFS phase took
	// off the front since the queue was last rebuilt.
	idx     sizeIndex
	scanMax int
	base    int
	pos     []int32             // SJBF: each queued job's position plus base, by ref
	sorted  keyList             // SJBF: waiting jobs by (planned duration, ref)
	bySize  sizeLists           // SJBF: the same by size
	key     refWindow[sim.Time] // by ref: planned end when running, planned duration when waiting (SJBF)
	runs    runList
	fresh   []sim.Ref // arrivals since the last pass
	dirty   bool      // a termination or prediction change since the last pass
	head    sim.Ref   // reserved job after the last pass, -1 if none
	shadow  sim.Time  // its shadow time (planned end of the pivot job), unclamped
	extra   int
	started []sim.Ref
}

var _ sim.Reserver = (*EASY)(nil)

// waiting is a job of EASY's queue with what a backfilling pass reads of
// it, so that the pass over a long queue reads one array in order instead
// of looking each job up in the simulator's job table. On a saturated
// machine the queue can hold tens of thousands of jobs (SDSC-BLUE at half
// speed: 20,000 on average over 240,000 passes), and the passes are most
// of the simulation's cost.
type waiting struct {
	ref   sim.Ref
	procs int32    // tomb once started
	at    int32    // EASY: its number within its size class of idx
	dur   sim.Time // planned duration: prediction times the factor
}

// tomb is the size of a started job left in the queue: larger than any
// number of free processors, so that it never fits.
const tomb = math.MaxInt32

// blk scales the queue lengths at which the queue is rebuilt.
const blk = 64

// scanMax is the default number of queue entries a backfilling pass scans
// one by one; beyond it the pass uses the size index.
const scanMax = 64

// push appends job q to the queue and indexes it by size (EASY; SJBF,
// which backfills in its own order, keeps the job's position instead).
func (s *EASY) push(q waiting) {
	if s.byPred {
		s.pos = grow(s.pos, q.ref, 0)
		s.pos[q.ref] = int32(len(s.queue) + s.base)
		s.queue = append(s.queue, q)
		return
	}
	q.at = s.idx.push(q.procs, int32(len(s.queue)+s.base), q.dur)
	s.queue = append(s.queue, q)
}

// rebuildDue reports whether a backfilling pass rebuilds the queue before
// it starts. Three things make it due: tombstones are more than half of a
// queue longer than 4 blocks (every pass would step over them); the FCFS
// phase has taken more than 8 times the queue's length plus 4096 entries
// off the front since the last rebuild (the size index still holds their
// positions); or, for EASY, a waiting job's prediction changed, so the
// planned durations held in the queue are out of date (SJBF reads them from
// its sorted lists instead). A rebuild never changes the schedule, only the
// time and memory a pass takes.
func (s *EASY) rebuildDue() bool {
	n := len(s.queue)
	if s.dead > n/2 && n > 4*blk {
		return true
	}
	if s.base > 8*n+4096 {
		return true
	}
	return s.stale && !s.byPred
}

// rebuild drops the tombstones and recomputes the bounds, with durations
// from the current predictions.
func (s *EASY) rebuild(v *sim.View) {
	q := s.queue
	s.queue, s.base, s.dead = q[:0], 0, 0
	s.idx.reset()
	for _, x := range q {
		if x.procs != tomb {
			x.dur = planned(v.Prediction(x.ref), s.factor)
			s.push(x)
		}
	}
	s.stale = false
}

// NewEASY returns an EASY scheduler; factor multiplies predictions for
// planning (0 or 1: none; 2: EASY with doubled estimates).
func NewEASY(factor float64) *EASY {
	n := "easy"
	if factor > 1 {
		n = "easy-x" + trimFloat(factor)
	}
	return &EASY{factor: factor, name: n, head: -1, dirty: true, scanMax: scanMax}
}

// NewSJBF returns SJBF, shortest job backfilled first (Talby (2006), section
// 8.3.3 and appendix A; Tsafrir, Etsion & Feitelson 2006): EASY that plans
// with the predictions and backfills in order of ascending prediction (ties by
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
		s.push(waiting{ref: r, procs: int32(v.Size(r)), dur: planned(v.Prediction(r), s.factor)})
		s.fresh = append(s.fresh, r)
		if s.byPred {
			k := s.key.at(r)
			*k = planned(v.Prediction(r), s.factor)
			s.sorted.insert(*k, r)
			s.bySize.list(int32(v.Size(r))).insert(*k, r)
		}
	case sim.Ended:
		s.runs.remove(*s.key.at(r), r)
		s.dirty = true
	case sim.PredictionChanged:
		key := s.key.at(r)
		k := planned(v.Prediction(r), s.factor)
		if v.Running(r) {
			s.runs.remove(*key, r)
			*key = v.Start(r) + k
			s.runs.insert(running{end: *key, ref: r, procs: int32(v.Size(r))})
		} else {
			s.stale = true
			if s.byPred {
				s.sorted.remove(*key, r)
				l := s.bySize.list(int32(v.Size(r)))
				l.remove(*key, r)
				*key = k
				s.sorted.insert(k, r)
				l.insert(k, r)
			}
		}
		s.dirty = true
	}
}

func (s *EASY) start(v *sim.View, r sim.Ref, dst []sim.Ref) []sim.Ref {
	key := s.key.at(r)
	if s.byPred {
		s.sorted.remove(*key, r)
		s.bySize.list(int32(v.Size(r))).remove(*key, r)
	}
	*key = v.Now() + planned(v.Prediction(r), s.factor)
	s.runs.insert(running{end: *key, ref: r, procs: int32(v.Size(r))})
	return append(dst, r)
}

// Schedule implements [sim.Scheduler].
func (s *EASY) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	s.key.trim(v.FirstLive())
	now, free := v.Now(), v.Free()
	// 1. FCFS phase (over the tombstones of backfilled jobs).
	i := 0
	for ; i < len(s.queue); i++ {
		q := &s.queue[i]
		if q.procs == tomb {
			s.dead--
			continue
		}
		if int(q.procs) > free {
			break
		}
		free -= int(q.procs)
		dst = s.start(v, q.ref, dst)
		s.dirty = true
	}
	if i > 0 {
		s.queue, s.base = s.queue[i:], s.base+i
	}
	if len(s.queue) == 0 {
		s.head, s.fresh, s.dirty = -1, s.fresh[:0], false
		s.queue, s.base = s.queue[:0], 0
		s.idx.reset()
		return dst
	}
	// 2. Shadow time and extra processors for the oldest waiting job.
	if s.dirty || s.head != s.queue[0].ref {
		s.head = s.queue[0].ref
		need := int(s.queue[0].procs)
		freed := free
		s.shadow = math.MaxInt64
		for i, x := range s.runs.a {
			freed += int(x.procs)
			if freed >= need {
				s.shadow = x.end
				freed += endingAt(s.runs.a[i+1:], x.end)
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
	if s.rebuildDue() {
		// Keeps the head (never a tombstone) first and the fresh jobs
		// last.
		s.rebuild(v)
	}
	s.started = s.started[:0]
	if s.byPred {
		cands := s.sorted.a
		if onlyFresh {
			// fresh jobs in (key, ref) order
			cands = make([]keyed, 0, len(s.fresh))
			for _, r := range s.fresh {
				cands = append(cands, keyed{*s.key.at(r), r})
			}
			sortKeyed(cands)
		}
		if !onlyFresh && len(cands) > s.scanMax {
			// The same walk, jumping from one job that can start to
			// the next through the lists by size.
			unbounded := s.shadow == math.MaxInt64
			k, r := sim.Time(math.MinInt64), sim.Ref(math.MinInt32)
			for free > 0 {
				c, found := s.bySize.next(k, r, s.head, free, s.extra, shadow-now, unbounded)
				if !found {
					break
				}
				if !ok(c.ref) {
					panic("sched: SJBF size lists out of step with the queue")
				}
				s.started = append(s.started, c.ref)
				k, r = c.key, c.ref+1
			}
			cands = nil
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
		for _, r := range s.started {
			s.queue[int(s.pos[r])-s.base].procs = tomb
			s.dead++
		}
		return dst
	}
	from := 1
	if onlyFresh {
		from = len(s.queue) - len(s.fresh)
	}
	// ok's test on the inline size and duration, written out in the loop
	// (a closure would keep free and extra in memory).
	extra := s.extra
	unbounded := s.shadow == math.MaxInt64
	horizon := shadow - now // a job ending by the shadow time lasts at most this
	for k := from; k < len(s.queue) && free > 0; k++ {
		if len(s.queue)-k > s.scanMax {
			g := s.idx.first(int32(k+s.base), free, extra, horizon, unbounded)
			if g < 0 {
				break
			}
			k = int(g) - s.base
		}
		q := &s.queue[k]
		p := int(q.procs)
		if p > free {
			continue
		}
		if unbounded || q.dur <= horizon {
			free -= p
		} else if p <= extra {
			free -= p
			extra -= p
		} else {
			continue
		}
		dst = s.start(v, q.ref, dst)
		s.idx.remove(q.procs, q.at)
		q.procs = tomb
		s.dead++
	}
	s.extra = extra
	return dst
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
