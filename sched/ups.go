package sched

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/hpcwl/hpcwl/sim"
)

// UserMetric ranks the users with waiting jobs in [UPS].
type UserMetric uint8

// The user metrics of UPS (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 5, section V).
const (
	// ByLoad favours users with less estimated work waiting: the sum of
	// requested time x processors over their queued jobs (running jobs do not
	// count: our choice where the thesis leaves it open).
	ByLoad UserMetric = iota
	// ByRecency favours users whose latest job arrived most recently, queued
	// or not (our reading of the thesis, which does not say).
	ByRecency
)

// String returns "load" or "recency".
func (m UserMetric) String() string {
	if m == ByRecency {
		return "recency"
	}
	return "load"
}

// upsAging is the wait after which the arrival term of a job's priority
// reaches 1: 4 hours (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 5, section V).
const upsAging = 4 * 3600

// UPS is Zakay's User Priority Scheduler (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 5, section V), an
// EASY-like scheduler that favours users likely to submit more work soon.
// At every pass each user with waiting jobs gets Upri = 1/i, i being its
// rank by the user metric (ties to the smaller user ID), and each waiting
// job the priority
//
//	Jpri = alphaUser * Upri + (1 - alphaUser) * wait / 4 h.
//
// Waiting jobs start in Jpri order (ties to the earlier arrival) until one
// does not fit (or, with FullScan, every job that fits starts); the first
// remaining job in Jpri order gets an EASY reservation, and the others are
// backfilled in user-priority order (then arrival order) when they fit and
// either end by the shadow time or use only the extra processors. With
// alphaUser < 1 every job eventually reaches the top, so none starves.
type UPS struct {
	alpha    float64
	metric   UserMetric
	fullScan bool
	runs     runList
	end      []sim.Time // planned end of running jobs, by ref
	// Users are numbered densely in arrival order: ix maps a user ID to
	// its number, id the other way; user holds each job's number, by ref.
	ix   map[int32]int32
	id   []int32
	user []int32
	last []sim.Time // latest arrival, by user number
	// The waiting jobs, by user number, in arrival order. Within a user
	// Jpri falls with arrival (the same Upri, a shorter wait), so the
	// queue in Jpri order is these lists merged, and in backfilling order
	// (Upri, then arrival) it is them one after another: a pass sorts the
	// users, not the jobs.
	jobs   [][]sim.Ref // started jobs stay until dead passes half
	dead   []int32
	nwait  []int32
	fresh  []bool      // load and small are up to date: none of the user's jobs arrived or started since
	load   []float64   // requested time x processors of the waiting jobs, summed in arrival order
	small  []int32     // fewest processors of a waiting job
	tot    [][2]uint64 // the same sum in integers (high, low words)
	lo     []int32     // no waiting job before this position of the user's list
	idx    []sizeIndex // each user's waiting jobs by size, at their positions in the list
	at     []int32     // by ref: number of the job within its class of idx
	active []int32     // users that had waiting jobs at some point since the last pass
	listed []bool      // by user number: in active
	gone   []bool      // by ref: started
	nsize  []int32     // waiting jobs by size
	minSz  int         // no waiting job is smaller
	nWait  int
	// scratch, by user number
	upri  []float64
	users []int32
	merge []upsJob // heap: each user's first waiting job, by Jpri
}

// upsJob is a waiting job in the merge by Jpri (pri), or the user's
// position in its list (at).
type upsJob struct {
	ref    sim.Ref
	pri    float64
	submit sim.Time
	u, at  int32
}

var _ sim.Scheduler = (*UPS)(nil)

// NewUPS returns a UPS scheduler with user weight alphaUser in [0, 1] and
// the given user metric. It panics on an alphaUser outside [0, 1].
func NewUPS(alphaUser float64, m UserMetric) *UPS {
	if !(alphaUser >= 0 && alphaUser <= 1) {
		panic("sched: UPS alpha_user outside [0, 1]")
	}
	return &UPS{alpha: alphaUser, metric: m, ix: map[int32]int32{}}
}

// SetFullScan makes the first pass start every job that fits, in priority
// order, instead of stopping at the first that does not (the literal reading
// of Zakay's thesis, chapter 5, section V; stopping at the first job that does
// not fit, as EASY does, is our default where the thesis leaves the first pass
// open).
func (s *UPS) SetFullScan(on bool) { s.fullScan = on }

// Name returns "ups-load" or "ups-recency" with the user weight, e.g.
// "ups-load(0.5)".
func (s *UPS) Name() string {
	return fmt.Sprintf("ups-%s(%s)", s.metric, trimFloat(s.alpha))
}

// Notify implements [sim.Scheduler].
func (s *UPS) Notify(v *sim.View, n sim.Notice) {
	r := n.Job
	switch n.Kind {
	case sim.Arrived:
		id := v.User(r)
		u, ok := s.ix[id]
		if !ok {
			u = int32(len(s.id))
			s.ix[id] = u
			s.id = append(s.id, id)
			s.last = append(s.last, 0)
			s.upri = append(s.upri, 0)
			s.jobs = append(s.jobs, nil)
			s.dead = append(s.dead, 0)
			s.nwait = append(s.nwait, 0)
			s.fresh = append(s.fresh, false)
			s.load = append(s.load, 0)
			s.small = append(s.small, 0)
			s.listed = append(s.listed, false)
			s.tot = append(s.tot, [2]uint64{})
			s.lo = append(s.lo, 0)
			s.idx = append(s.idx, sizeIndex{})
		}
		s.user = grow(s.user, r, 0)
		s.user[r] = u
		s.last[u] = max(s.last[u], v.Submit(r))
		if !s.listed[u] {
			s.listed[u] = true
			s.active = append(s.active, u)
		}
		s.at = grow(s.at, r, 0)
		s.at[r] = s.idx[u].push(int32(v.Size(r)), int32(len(s.jobs[u])), v.Prediction(r))
		s.jobs[u] = append(s.jobs[u], r)
		s.nwait[u]++
		s.fresh[u] = false
		s.tot[u] = add128(s.tot[u], area(v, r))
		p := v.Size(r)
		s.nsize = grow(s.nsize, sim.Ref(p), 0)
		s.nsize[p]++
		if s.nWait == 0 || p < s.minSz {
			s.minSz = p
		}
		s.nWait++
	case sim.Ended:
		s.end = grow(s.end, r, 0)
		s.runs.remove(s.end[r], r)
	case sim.PredictionChanged:
		if v.Running(r) {
			s.end = grow(s.end, r, 0)
			s.runs.remove(s.end[r], r)
			s.end[r] = v.Start(r) + v.Prediction(r)
			s.runs.insert(running{end: s.end[r], ref: r, procs: int32(v.Size(r))})
		} else if s.waiting(r) {
			s.idx[s.user[r]].set(int32(v.Size(r)), s.at[r], v.Prediction(r))
		}
	}
}

// area returns job r's requested time x processors as a 128-bit integer.
func area(v *sim.View, r sim.Ref) [2]uint64 {
	hi, lo := bits.Mul64(uint64(v.Estimate(r)), uint64(v.Size(r)))
	return [2]uint64{hi, lo}
}

func add128(a, b [2]uint64) [2]uint64 {
	lo, c := bits.Add64(a[1], b[1], 0)
	hi, _ := bits.Add64(a[0], b[0], c)
	return [2]uint64{hi, lo}
}

func sub128(a, b [2]uint64) [2]uint64 {
	lo, c := bits.Sub64(a[1], b[1], 0)
	hi, _ := bits.Sub64(a[0], b[0], c)
	return [2]uint64{hi, lo}
}

func (s *UPS) startJob(v *sim.View, r sim.Ref, dst []sim.Ref) []sim.Ref {
	s.end = grow(s.end, r, 0)
	s.end[r] = v.Now() + v.Prediction(r)
	s.runs.insert(running{end: s.end[r], ref: r, procs: int32(v.Size(r))})
	s.gone = grow(s.gone, r, false)
	s.gone[r] = true
	u := s.user[r]
	s.nwait[u]--
	s.dead[u]++
	s.fresh[u] = false
	s.tot[u] = sub128(s.tot[u], area(v, r))
	s.idx[u].remove(int32(v.Size(r)), s.at[r])
	p := v.Size(r)
	s.nsize[p]--
	s.nWait--
	for s.nWait > 0 && s.nsize[s.minSz] == 0 {
		s.minSz++
	}
	return append(dst, r)
}

func (s *UPS) waiting(r sim.Ref) bool { return int(r) >= len(s.gone) || !s.gone[r] }

// rankUsers sets Upri for every user with waiting jobs (by user number;
// ties go to the smaller user ID) and lists them in s.users by rank.
func (s *UPS) rankUsers(v *sim.View) {
	s.users = s.users[:0]
	w := 0
	for _, u := range s.active {
		if s.nwait[u] == 0 {
			s.listed[u] = false
			continue
		}
		s.active[w] = u
		w++
		s.users = append(s.users, u)
		if s.fresh[u] {
			continue
		}
		if compactDue(int(s.dead[u]), len(s.jobs[u])) {
			s.compact(v, u)
		}
		s.small[u], s.fresh[u] = s.idx[u].smallest(), true
		// The load was always summed in arrival order, and a float sum
		// depends on its order; but when the exact total is below 2^53
		// every term and partial sum is an exact integer, in any order.
		if t := s.tot[u]; t[0] == 0 && t[1] <= 1<<53 {
			s.load[u] = float64(t[1])
			continue
		}
		load := 0.0
		for _, r := range s.jobs[u] {
			if s.waiting(r) {
				load += float64(v.Estimate(r)) * float64(v.Size(r))
			}
		}
		s.load[u] = load
	}
	s.active = s.active[:w]
	slices.SortFunc(s.users, func(a, b int32) int {
		if s.metric == ByRecency {
			if c := cmpTime(s.last[b], s.last[a]); c != 0 {
				return c
			}
		} else if la, lb := s.load[a], s.load[b]; la != lb {
			if la < lb {
				return -1
			}
			return 1
		}
		return int(s.id[a] - s.id[b])
	})
	for i, u := range s.users {
		s.upri[u] = 1 / float64(i+1)
	}
}

// compact drops the started jobs from user u's list.
// compactDue reports whether a user's list of n jobs, dead of them
// started, is compacted before the user is ranked: when more than half
// are started. Compaction changes no rank, only the time a ranking takes.
func compactDue(dead, n int) bool { return dead > n/2 }

func (s *UPS) compact(v *sim.View, u int32) {
	k := 0
	s.idx[u].reset()
	for _, r := range s.jobs[u] {
		if s.waiting(r) {
			s.at[r] = s.idx[u].push(int32(v.Size(r)), int32(k), v.Prediction(r))
			s.jobs[u][k] = r
			k++
		}
	}
	s.jobs[u], s.dead[u], s.lo[u] = s.jobs[u][:k], 0, 0
}

func cmpTime(a, b sim.Time) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpJpri orders jobs by Jpri (higher first), then arrival.
func cmpJpri(a, b *upsJob) int {
	if a.pri != b.pri {
		if a.pri > b.pri {
			return -1
		}
		return 1
	}
	if c := cmpTime(a.submit, b.submit); c != 0 {
		return c
	}
	return int(a.ref - b.ref)
}

// next sets j to the first waiting job of user u from position at of its
// list, with its Jpri, and reports whether there is one.
func (s *UPS) next(v *sim.View, u, at int32, head sim.Ref, j *upsJob) bool {
	l := s.jobs[u]
	if at <= s.lo[u] {
		for at = s.lo[u]; int(at) < len(l) && !s.waiting(l[at]); at++ {
		}
		s.lo[u] = at
	}
	for ; int(at) < len(l); at++ {
		if r := l[at]; s.waiting(r) && r != head {
			wait := float64(v.Now() - v.Submit(r))
			pri := s.alpha*s.upri[u] + (1-s.alpha)*wait/upsAging
			*j = upsJob{ref: r, pri: pri, submit: v.Submit(r), u: u, at: at}
			return true
		}
	}
	return false
}

func (s *UPS) siftDown(i int) {
	h := s.merge
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		c := l
		if r := l + 1; r < len(h) && cmpJpri(&h[r], &h[l]) < 0 {
			c = r
		}
		if cmpJpri(&h[i], &h[c]) <= 0 {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// Schedule implements [sim.Scheduler].
func (s *UPS) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	now, free := v.Now(), v.Free()
	// Nothing can start when no waiting job fits in the free processors.
	if s.nWait == 0 || s.minSz > free {
		return dst
	}
	s.rankUsers(v)
	// 1. Start jobs in Jpri order: the users' lists merged.
	s.merge = s.merge[:0]
	for _, u := range s.users {
		var j upsJob
		if s.next(v, u, 0, -1, &j) {
			s.merge = append(s.merge, j)
		}
	}
	for i := len(s.merge)/2 - 1; i >= 0; i-- {
		s.siftDown(i)
	}
	head := sim.Ref(-1)
	for len(s.merge) > 0 {
		j := &s.merge[0]
		if v.Size(j.ref) <= free && (head < 0 || s.fullScan) {
			free -= v.Size(j.ref)
			dst = s.startJob(v, j.ref, dst)
		} else {
			if head < 0 {
				head = j.ref
			}
			if !s.fullScan {
				break
			}
		}
		if !s.next(v, j.u, j.at+1, -1, j) {
			last := len(s.merge) - 1
			s.merge[0] = s.merge[last]
			s.merge = s.merge[:last]
		}
		s.siftDown(0)
	}
	if head < 0 || free == 0 {
		return dst
	}
	// 2. Reservation for the first remaining job.
	need := v.Size(head)
	freed := free
	shadow := sim.Time(math.MaxInt64)
	for i, x := range s.runs.a {
		freed += int(x.procs)
		if freed >= need {
			shadow = x.end
			freed += endingAt(s.runs.a[i+1:], x.end)
			break
		}
	}
	extra := 0
	if shadow != math.MaxInt64 {
		extra = freed - need
		shadow = max(shadow, now)
	}
	// 3. Backfill the others in user-priority order, then arrival order.
	for _, u := range s.users {
		if free == 0 {
			break
		}
		if int(s.small[u]) > free { // small bounds the sizes still waiting
			continue
		}
		horizon := shadow - now // a job ending by the shadow time lasts at most this
		for k := int32(0); free > 0; {
			g := s.idx[u].first(k, free, extra, horizon, shadow == math.MaxInt64)
			if g < 0 {
				break
			}
			k = g + 1
			r := s.jobs[u][g]
			if r == head {
				continue
			}
			p := v.Size(r)
			if shadow == math.MaxInt64 || now+v.Prediction(r) <= shadow {
				free -= p
			} else {
				free -= p
				extra -= p
			}
			dst = s.startJob(v, r, dst)
		}
	}
	return dst
}
