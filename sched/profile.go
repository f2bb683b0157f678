package sched

import (
	"math"

	"github.com/hpcwl/hpcwl/sim"
)

// profile is the number of free processors as a step function of future
// time: free[i] processors on [t[i], t[i+1]), and free[len-1] from the last
// breakpoint on. Only times >= t[0] are represented.
type profile struct {
	t    []sim.Time
	free []int32
}

func newProfile(procs int) profile {
	return profile{t: []sim.Time{0}, free: []int32{int32(procs)}}
}

// advance forgets the steps that end at or before now.
func (p *profile) advance(now sim.Time) {
	i := 0
	for i+1 < len(p.t) && p.t[i+1] <= now {
		i++
	}
	if i > 0 {
		n := copy(p.t, p.t[i:])
		p.t = p.t[:n]
		copy(p.free, p.free[i:])
		p.free = p.free[:n]
	}
	if p.t[0] < now {
		p.t[0] = now
	}
}

// index returns the step holding time x (x >= t[0]).
func (p *profile) index(x sim.Time) int {
	lo, hi := 0, len(p.t)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if p.t[m] <= x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}

// split makes x a breakpoint and returns its index.
func (p *profile) split(x sim.Time) int {
	i := p.index(x)
	if p.t[i] == x {
		return i
	}
	i++
	p.t = append(p.t, 0)
	copy(p.t[i+1:], p.t[i:])
	p.t[i] = x
	p.free = append(p.free, 0)
	copy(p.free[i+1:], p.free[i:])
	p.free[i] = p.free[i-1]
	return i
}

// add adds delta free processors on [from, to) and returns the most
// processors then free at any time of [from, to) (-1 if it is empty).
func (p *profile) add(from, to sim.Time, delta int32) int32 {
	if to <= from {
		return -1
	}
	from = max(from, p.t[0])
	if to <= from {
		return -1
	}
	i := p.split(from)
	var j int
	if to == math.MaxInt64 {
		j = len(p.t)
	} else {
		j = p.split(to)
	}
	m := int32(-1)
	for k := i; k < j; k++ {
		p.free[k] += delta
		m = max(m, p.free[k])
	}
	p.merge(i, j)
	return m
}

// merge joins equal neighbouring steps at the edges i and j of a changed
// range (inside it, neighbours changed by the same amount and stay
// distinct or equal as they were).
func (p *profile) merge(i, j int) {
	if j > 0 && j < len(p.t) && p.free[j] == p.free[j-1] {
		p.remove(j)
	}
	if i > 0 && i < len(p.t) && p.free[i] == p.free[i-1] {
		p.remove(i)
	}
}

func (p *profile) remove(k int) {
	p.t = append(p.t[:k], p.t[k+1:]...)
	p.free = append(p.free[:k], p.free[k+1:]...)
}

// find returns the earliest time s >= from at which procs processors are
// free for the whole of [s, s+dur), or limit if there is none before limit
// (math.MaxInt64: no limit).
func (p *profile) find(from sim.Time, procs int32, dur sim.Time, limit sim.Time) sim.Time {
	i := p.index(max(from, p.t[0]))
	s := max(from, p.t[i])
	for j := i; j < len(p.t); j++ {
		if s >= limit {
			return limit
		}
		if p.free[j] < procs {
			if j+1 == len(p.t) {
				return math.MaxInt64 // never fits (wider than the machine)
			}
			s = p.t[j+1]
			continue
		}
		if j+1 == len(p.t) || p.t[j+1] >= s+dur {
			return s
		}
	}
	return s
}

// findBefore returns the earliest time s in [from, until) at which procs
// processors are free for the whole of [s, min(s+dur, limit)), or limit if
// there is none (until <= limit).
//
// This is compression's inner loop: it walks the steps once, and tests
// the candidate start against until only when a step with too few
// processors moves it.
func (p *profile) findBefore(from sim.Time, procs int32, dur, until, limit sim.Time) sim.Time {
	from = max(from, p.t[0])
	if from >= until {
		return limit
	}
	t, free := p.t, p.free[:len(p.t)]
	last := len(t) - 1
	s, end := from, min(from+dur, limit)
	for j := p.index(from); j < last; j++ {
		if free[j] < procs {
			s = t[j+1]
			if s >= until {
				return limit
			}
			end = min(s+dur, limit)
		} else if t[j+1] >= end {
			return s
		}
	}
	if free[last] < procs {
		return limit
	}
	return s
}

// findWithout is find on the profile with procs more processors free on
// [oa, ob) (the job's own reservation, as if removed), limited to starts
// before limit. It lets compression test whether a job can move without
// changing the profile.
func (p *profile) findWithout(from sim.Time, procs int32, dur, limit, oa, ob sim.Time) sim.Time {
	from = max(from, p.t[0])
	j := p.index(from)
	s, pos := from, from
	for {
		if s >= limit {
			return limit
		}
		end := sim.Time(math.MaxInt64)
		if j+1 < len(p.t) {
			end = p.t[j+1]
		}
		segEnd := end
		if oa > pos && oa < end {
			end = oa
		}
		if ob > pos && ob < end {
			end = ob
		}
		f := p.free[j]
		if pos >= oa && pos < ob {
			f += procs
		}
		if f < procs {
			if end == math.MaxInt64 {
				return limit
			}
			s = end
		} else if end == math.MaxInt64 || end >= s+dur {
			return min(s, limit)
		}
		pos = end
		if pos == segEnd {
			j++
		}
	}
}
