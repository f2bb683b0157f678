package sched

import (
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/sim"
)

// never marks an entry of a [minTree] that no query matches.
const never = sim.Time(math.MaxInt64)

// minTree is a segment tree of times over a sequence that grows at its end:
// it finds the first element at or after an index whose time is at most a
// bound in O(log n). Written here because the standard library and the
// usual Go container modules have no first-at-most search over a range.
type minTree struct {
	n int        // leaves, a power of two
	t []sim.Time // t[n+i] is element i, t[i] = min(t[2i], t[2i+1]); unused leaves are never
	m int        // elements
}

// reset empties the tree, in time proportional to the elements it held.
func (m *minTree) reset() {
	for lo, hi := m.n, m.n+m.m; lo >= 1 && lo < hi; lo, hi = lo/2, (hi+1)/2 {
		for i := lo; i < hi; i++ {
			m.t[i] = never
		}
	}
	m.m = 0
}

// push appends v.
func (m *minTree) push(v sim.Time) {
	if m.m == m.n {
		n := max(16, 2*m.n)
		t := make([]sim.Time, 2*n)
		for i := range t {
			t[i] = never
		}
		copy(t[n:], m.t[m.n:m.n+m.m])
		for i := n - 1; i > 0; i-- {
			t[i] = min(t[2*i], t[2*i+1])
		}
		m.n, m.t = n, t
	}
	m.m++
	m.set(m.m-1, v)
}

// set makes element i v.
func (m *minTree) set(i int, v sim.Time) {
	i += m.n
	m.t[i] = v
	for i > 1 {
		i >>= 1
		w := min(m.t[2*i], m.t[2*i+1])
		if m.t[i] == w {
			return
		}
		m.t[i] = w
	}
}

// first returns the first index >= i whose element is at most h (h <
// never), or -1.
func (m *minTree) first(i int, h sim.Time) int {
	if i >= m.m {
		return -1
	}
	k := i + m.n
	for m.t[k] > h {
		for k&1 == 1 { // the last of its parent's children: go up
			k >>= 1
			if k == 0 {
				return -1
			}
		}
		k++
	}
	for k < m.n {
		k <<= 1
		if m.t[k] > h {
			k++
		}
	}
	return k - m.n
}

// sizeIndex indexes the waiting jobs of a queue by size, so that a
// backfilling pass finds the next job that can start without scanning the
// jobs that cannot: on a saturated machine the queue holds tens of
// thousands of jobs and nearly all are too wide for the free processors or
// too long for the shadow time (Lublin-Feitelson jobs at offered load
// 1.05: a pass visited half of a queue of 4,000 jobs on average to start
// one job in every other pass). Each distinct size has the queue positions
// of its jobs in order with their planned durations in a [minTree]; a
// query visits the sizes that fit in the free processors.
type sizeIndex struct {
	sizes []int32 // class numbers in ascending order of size
	cls   []sizeClass
	used  []int32 // classes given a job since the last reset
}

type sizeClass struct {
	procs int32
	alive int32   // jobs not started
	pos   []int32 // queue positions, ascending
	dur   minTree // planned durations; never once started
}

// reset forgets every job (the classes stay).
func (x *sizeIndex) reset() {
	for _, i := range x.used {
		c := &x.cls[i]
		c.pos, c.alive = c.pos[:0], 0
		c.dur.reset()
	}
	x.used = x.used[:0]
}

// push adds a job of procs processors and planned duration d at queue
// position pos (above every position added since the last reset) and
// returns its number within its class.
func (x *sizeIndex) push(procs int32, pos int32, d sim.Time) int32 {
	i, ok := slices.BinarySearchFunc(x.sizes, procs, x.cmp)
	if !ok {
		x.cls = append(x.cls, sizeClass{procs: procs})
		x.sizes = slices.Insert(x.sizes, i, int32(len(x.cls)-1))
	}
	cl := &x.cls[x.sizes[i]]
	if len(cl.pos) == 0 {
		x.used = append(x.used, x.sizes[i])
	}
	cl.alive++
	cl.pos = append(cl.pos, pos)
	cl.dur.push(d)
	return int32(len(cl.pos) - 1)
}

func (x *sizeIndex) cmp(c int32, procs int32) int { return int(x.cls[c].procs - procs) }

// set gives job number at of the class of procs the planned duration d
// (never: started).
func (x *sizeIndex) set(procs, at int32, d sim.Time) {
	i, _ := slices.BinarySearchFunc(x.sizes, procs, x.cmp)
	x.cls[x.sizes[i]].dur.set(int(at), d)
}

// remove marks job number at of the class of procs started.
func (x *sizeIndex) remove(procs, at int32) {
	i, _ := slices.BinarySearchFunc(x.sizes, procs, x.cmp)
	cl := &x.cls[x.sizes[i]]
	cl.alive--
	cl.dur.set(int(at), never)
}

// smallest returns the size of the smallest job not started, or
// math.MaxInt32.
func (x *sizeIndex) smallest() int32 {
	for _, c := range x.sizes {
		if x.cls[c].alive > 0 {
			return x.cls[c].procs
		}
	}
	return math.MaxInt32
}

// first returns the lowest queue position >= from of a job that fits in
// free processors and either lasts at most horizon or needs at most extra
// processors (any duration when unbounded), or -1.
func (x *sizeIndex) first(from int32, free, extra int, horizon sim.Time, unbounded bool) int32 {
	best := int32(-1)
	for _, c := range x.sizes {
		cl := &x.cls[c]
		p := int(cl.procs)
		if p > free {
			break
		}
		h := horizon
		if unbounded || p <= extra {
			h = never - 1
		}
		i, _ := slices.BinarySearch(cl.pos, from)
		if j := cl.dur.first(i, h); j >= 0 && (best < 0 || cl.pos[j] < best) {
			best = cl.pos[j]
		}
	}
	return best
}

// sizeLists keeps SJBF's waiting jobs by size, each size's jobs in order
// of (planned duration, ref): a backfilling pass over a long queue finds
// the next job in that order that fits from the first job at or after its
// position in each size that fits, instead of walking the whole order.
type sizeLists struct {
	class []int32 // by size: class number + 1, 0 if none
	sizes []int32 // class numbers in ascending order of size
	procs []int32 // by class number
	lists []keyList
}

func (x *sizeLists) list(procs int32) *keyList {
	x.class = grow(x.class, sim.Ref(procs), 0)
	c := x.class[procs]
	if c == 0 {
		x.procs = append(x.procs, procs)
		x.lists = append(x.lists, keyList{})
		c = int32(len(x.procs))
		x.class[procs] = c
		i, _ := slices.BinarySearchFunc(x.sizes, procs, func(k int32, p int32) int { return int(x.procs[k] - p) })
		x.sizes = slices.Insert(x.sizes, i, c-1)
	}
	return &x.lists[c-1]
}

// next returns the first job in (key, ref) order at or after (k, r),
// other than skip, that fits in free processors and either has a key of
// at most horizon or needs at most extra processors (any key when
// unbounded); ok is false if there is none.
func (x *sizeLists) next(k sim.Time, r sim.Ref, skip sim.Ref, free, extra int, horizon sim.Time, unbounded bool) (best keyed, ok bool) {
	for _, c := range x.sizes {
		p := int(x.procs[c])
		if p > free {
			break
		}
		l := &x.lists[c]
		i := l.search(k, r)
		if i < len(l.a) && l.a[i].ref == skip {
			i++
		}
		if i == len(l.a) {
			continue
		}
		y := l.a[i]
		if !unbounded && p > extra && y.key > horizon {
			continue
		}
		if !ok || y.key < best.key || y.key == best.key && y.ref < best.ref {
			best, ok = y, true
		}
	}
	return best, ok
}
