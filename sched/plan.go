package sched

import (
	"math"

	"github.com/hpcwl/hpcwl/sim"
)

// planned returns the duration a scheduler plans for a prediction p under
// estimate factor k (k <= 1 means 1).
func planned(p sim.Time, k float64) sim.Time {
	if k <= 1 {
		return p
	}
	return sim.Time(math.Ceil(float64(p) * k))
}

// running is one running job with its planned end.
type running struct {
	end   sim.Time
	ref   sim.Ref
	procs int32
}

// runList keeps running jobs sorted by (planned end, ref).
type runList struct {
	a []running
}

func (l *runList) search(end sim.Time, ref sim.Ref) int {
	lo, hi := 0, len(l.a)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		x := &l.a[m]
		if x.end < end || (x.end == end && x.ref < ref) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

func (l *runList) insert(x running) {
	i := l.search(x.end, x.ref)
	l.a = append(l.a, running{})
	copy(l.a[i+1:], l.a[i:])
	l.a[i] = x
}

func (l *runList) remove(end sim.Time, ref sim.Ref) {
	i := l.search(end, ref)
	if i < len(l.a) && l.a[i].ref == ref {
		l.a = append(l.a[:i], l.a[i+1:]...)
		return
	}
	for i := range l.a { // not found by key: fall back to a scan
		if l.a[i].ref == ref {
			l.a = append(l.a[:i], l.a[i+1:]...)
			return
		}
	}
}

// grow makes s long enough to index ref.
func grow[T any](s []T, ref sim.Ref, fill T) []T {
	for len(s) <= int(ref) {
		s = append(s, fill)
	}
	return s
}

// refWindow holds a value for each job from base on. A scheduler trims it
// to the simulation's first live job ([sim.View.FirstLive]) at each pass,
// so a long run keeps values only for the jobs that may still be waiting
// or running, not one per job of the log; a job before base is never asked
// for again.
type refWindow[T any] struct {
	base sim.Ref
	v    []T
}

// at returns job r's value (the zero value at first).
func (w *refWindow[T]) at(r sim.Ref) *T {
	var zero T
	for int(r-w.base) >= len(w.v) {
		w.v = append(w.v, zero)
	}
	return &w.v[r-w.base]
}

// trim drops the values of the jobs before first once they are at least
// half of those held (so each value is moved at most once on average).
func (w *refWindow[T]) trim(first sim.Ref) {
	d := min(int(first-w.base), len(w.v))
	if d <= 0 || 2*d < len(w.v) {
		return
	}
	n := copy(w.v, w.v[d:])
	w.v = w.v[:n]
	w.base += sim.Ref(d)
}

// keyed is a waiting job ordered by (key, ref).
type keyed struct {
	key sim.Time
	ref sim.Ref
}

// keyList keeps waiting jobs sorted by (key, ref).
type keyList struct {
	a []keyed
}

func (l *keyList) search(k sim.Time, ref sim.Ref) int {
	lo, hi := 0, len(l.a)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		x := &l.a[m]
		if x.key < k || (x.key == k && x.ref < ref) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

func (l *keyList) insert(k sim.Time, ref sim.Ref) {
	i := l.search(k, ref)
	l.a = append(l.a, keyed{})
	copy(l.a[i+1:], l.a[i:])
	l.a[i] = keyed{k, ref}
}

func (l *keyList) remove(k sim.Time, ref sim.Ref) {
	i := l.search(k, ref)
	if i < len(l.a) && l.a[i].ref == ref {
		l.a = append(l.a[:i], l.a[i+1:]...)
	}
}

// endingAt returns the processors of the leading jobs of a (ordered by
// planned end) whose planned end is t. EASY's extra processors count every
// running job planned to end at or before the shadow time, not only those
// needed to cover the reserved job, so ties at the shadow time all count.
func endingAt(a []running, t sim.Time) int {
	n := 0
	for _, x := range a {
		if x.end != t {
			break
		}
		n += int(x.procs)
	}
	return n
}
