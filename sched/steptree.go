package sched

import (
	"math"

	"github.com/hpcwl/hpcwl/sim"
)

// stepTree is the profile of free processors as a step function of future
// time, like profile, but kept in a balanced search tree (a treap) of its
// steps ordered by start time, each subtree carrying the least and the most
// processors free in it and a pending addition for all of it. Adding free
// processors on an interval costs O(log n) in the number of steps n, where
// the sorted arrays of profile cost O(n); and the search for a slot skips
// whole runs of steps: from a candidate start s it jumps past the *last*
// step of the window [s, s+d) with too few processors free, which a
// descent finds in O(log n), so a search costs O(log n) per jump and a
// window never jumps more often than it holds runs of enough processors.
//
// Hand-written: no tree in the standard library or among the project's
// dependencies keeps the subtree aggregates with range additions that
// these queries need.
//
// Steps: free processors at time x are those of the step with the latest
// start <= x; the last step lasts for ever. Only times >= the first start
// (t0) are represented. Neighbouring steps with equal counts are merged at
// the edges of every change, as profile does, so both hold the same steps.
type stepTree struct {
	nodes []stepNode // nodes[0] is the empty tree
	spare []int32    // indices of deleted nodes, for reuse
	root  int32
	t0    sim.Time
	seed  uint64
}

// stepNode is one step: free processors from t until the next step's
// start. val, lo and hi (the least and most free in the subtree) include
// the node's own pending addition add, which its children have still to
// receive; a node's true count adds the pending additions of its ancestors.
type stepNode struct {
	t           sim.Time
	left, right int32
	prio        uint32
	val, add    int32
	lo, hi      int32
}

// reset makes the profile procs processors free from t0 on.
func (p *stepTree) reset(procs int, t0 sim.Time) {
	if p.nodes == nil {
		p.nodes = make([]stepNode, 1, 64)
		p.seed = 0x9e3779b97f4a7c15
	}
	p.nodes = p.nodes[:1]
	p.spare = p.spare[:0]
	p.t0 = t0
	p.root = p.node(t0, int32(procs))
}

func (p *stepTree) node(t sim.Time, val int32) int32 {
	// xorshift64*: a fixed sequence, so runs are reproducible
	p.seed ^= p.seed >> 12
	p.seed ^= p.seed << 25
	p.seed ^= p.seed >> 27
	prio := uint32((p.seed * 2685821657736338717) >> 32)
	n := stepNode{t: t, prio: prio, val: val, lo: val, hi: val}
	if k := len(p.spare); k > 0 {
		i := p.spare[k-1]
		p.spare = p.spare[:k-1]
		p.nodes[i] = n
		return i
	}
	p.nodes = append(p.nodes, n)
	return int32(len(p.nodes) - 1)
}

// apply adds d to every count of subtree x.
func (p *stepTree) apply(x int32, d int32) {
	if x != 0 {
		n := &p.nodes[x]
		n.val += d
		n.add += d
		n.lo += d
		n.hi += d
	}
}

func (p *stepTree) push(x int32) {
	n := &p.nodes[x]
	if n.add != 0 {
		p.apply(n.left, n.add)
		p.apply(n.right, n.add)
		n.add = 0
	}
}

func (p *stepTree) pull(x int32) {
	n := &p.nodes[x]
	n.lo, n.hi = n.val, n.val
	if l := n.left; l != 0 {
		n.lo = min(n.lo, p.nodes[l].lo+n.add)
		n.hi = max(n.hi, p.nodes[l].hi+n.add)
	}
	if r := n.right; r != 0 {
		n.lo = min(n.lo, p.nodes[r].lo+n.add)
		n.hi = max(n.hi, p.nodes[r].hi+n.add)
	}
}

// split cuts subtree x into the steps starting before t and the others.
func (p *stepTree) split(x int32, t sim.Time) (int32, int32) {
	if x == 0 {
		return 0, 0
	}
	p.push(x)
	if p.nodes[x].t < t {
		a, b := p.split(p.nodes[x].right, t)
		p.nodes[x].right = a
		p.pull(x)
		return x, b
	}
	a, b := p.split(p.nodes[x].left, t)
	p.nodes[x].left = b
	p.pull(x)
	return a, x
}

// merge joins a and b, every step of a starting before every step of b.
func (p *stepTree) merge(a, b int32) int32 {
	if a == 0 {
		return b
	}
	if b == 0 {
		return a
	}
	if p.nodes[a].prio >= p.nodes[b].prio {
		p.push(a)
		p.nodes[a].right = p.merge(p.nodes[a].right, b)
		p.pull(a)
		return a
	}
	p.push(b)
	p.nodes[b].left = p.merge(a, p.nodes[b].left)
	p.pull(b)
	return b
}

// first returns the first step of subtree x (not 0) and its count.
func (p *stepTree) first(x int32) (int32, int32) {
	acc := int32(0)
	for p.nodes[x].left != 0 {
		acc += p.nodes[x].add
		x = p.nodes[x].left
	}
	return x, p.nodes[x].val + acc
}

// last returns the last step of subtree x (not 0) and its count.
func (p *stepTree) last(x int32) (int32, int32) {
	acc := int32(0)
	for p.nodes[x].right != 0 {
		acc += p.nodes[x].add
		x = p.nodes[x].right
	}
	return x, p.nodes[x].val + acc
}

// dropFirst removes the first step of subtree x.
func (p *stepTree) dropFirst(x int32) int32 {
	p.push(x)
	n := &p.nodes[x]
	if n.left == 0 {
		r := n.right
		p.spare = append(p.spare, x)
		return r
	}
	n.left = p.dropFirst(n.left)
	p.pull(x)
	return x
}

// free returns the nodes of subtree x for reuse.
func (p *stepTree) free(x int32) {
	for x != 0 {
		p.free(p.nodes[x].left)
		p.spare = append(p.spare, x)
		x = p.nodes[x].right
	}
}

// at returns the processors free at time x (x >= t0) and the end of the
// step holding x (math.MaxInt64 for the last step).
func (p *stepTree) at(x sim.Time) (free int32, end sim.Time) {
	end = math.MaxInt64
	acc := int32(0)
	for n := p.root; n != 0; {
		nd := &p.nodes[n]
		if nd.t <= x {
			free = nd.val + acc
			acc += nd.add
			n = nd.right
		} else {
			end = nd.t
			acc += nd.add
			n = nd.left
		}
	}
	return free, end
}

// advance forgets the steps that end at or before now.
func (p *stepTree) advance(now sim.Time) {
	if now <= p.t0 {
		return
	}
	if _, end := p.at(p.t0); end > now {
		// only the first step's start moves
		x := p.root
		for p.nodes[x].left != 0 {
			x = p.nodes[x].left
		}
		p.nodes[x].t = now
		p.t0 = now
		return
	}
	a, b := p.split(p.root, now+1)
	_, v := p.last(a)
	p.free(a)
	p.t0 = now
	if b != 0 {
		if f, _ := p.first(b); p.nodes[f].t == now {
			p.root = b
			return
		}
	}
	p.root = p.merge(p.node(now, v), b)
}

// add adds delta free processors on [from, to) and returns the most
// processors then free at any time of [from, to) (-1 if it is empty).
// to may be math.MaxInt64 (for ever).
func (p *stepTree) add(from, to sim.Time, delta int32) int32 {
	from = max(from, p.t0)
	if to <= from {
		return -1
	}
	// a: steps before from; m: [from, to); c: from to on
	a, m := p.split(p.root, from)
	if m == 0 || p.nodes[mustFirst(p, m)].t != from {
		_, v := p.last(a) // a is not empty: from > t0 here
		m = p.merge(p.node(from, v), m)
	}
	var c int32
	if to != math.MaxInt64 {
		m, c = p.split(m, to)
		if c == 0 || p.nodes[mustFirst(p, c)].t != to {
			_, v := p.last(m)
			c = p.merge(p.node(to, v), c)
		}
	}
	p.apply(m, delta)
	most := p.nodes[m].hi
	// merge equal neighbours at the edges: at to first, then at from
	if c != 0 {
		_, vm := p.last(m)
		if _, vc := p.first(c); vc == vm {
			c = p.dropFirst(c)
		}
	}
	if a != 0 {
		_, va := p.last(a)
		if _, vm := p.first(m); vm == va {
			m = p.dropFirst(m)
		}
	}
	p.root = p.merge(a, p.merge(m, c))
	return most
}

func mustFirst(p *stepTree, x int32) int32 {
	f, _ := p.first(x)
	return f
}

// lastShort returns the last step that starts in (lo, hi) with fewer than
// procs processors free, and the end of that step (the next start, or
// math.MaxInt64), searching subtree x whose ancestors add acc to its counts
// and whose steps end, at the latest, at next.
func (p *stepTree) lastShort(x int32, lo, hi sim.Time, procs, acc int32, next sim.Time) (sim.Time, sim.Time, bool) {
	for x != 0 {
		n := &p.nodes[x]
		if n.lo+acc >= procs {
			return 0, 0, false
		}
		sub := acc + n.add
		switch {
		case n.t >= hi:
			next = n.t
			x = n.left
		case n.t <= lo:
			x = n.right
		default:
			if t, end, ok := p.lastShort(n.right, lo, hi, procs, sub, next); ok {
				return t, end, true
			}
			if n.val+acc < procs {
				end := next
				if n.right != 0 {
					f, _ := p.first(n.right)
					end = p.nodes[f].t
				}
				return n.t, end, true
			}
			next = n.t
			x = n.left
		}
		acc = sub
	}
	return 0, 0, false
}

// blocked returns whether some time of [s, e) has fewer than procs
// processors free and, if so, the end of the last step of [s, e) that has
// (math.MaxInt64: the last step, for ever).
func (p *stepTree) blocked(s, e sim.Time, procs int32) (bool, sim.Time) {
	if _, end, ok := p.lastShort(p.root, s, e, procs, 0, math.MaxInt64); ok {
		return true, end
	}
	if f, end := p.at(s); f < procs {
		return true, end
	}
	return false, 0
}

// find returns the earliest time s >= from at which procs processors are
// free for the whole of [s, s+dur), or math.MaxInt64 if there is none
// (a job wider than the machine).
func (p *stepTree) find(from sim.Time, procs int32, dur sim.Time) sim.Time {
	s := max(from, p.t0)
	for {
		short, end := p.blocked(s, s+dur, procs)
		if !short {
			return s
		}
		if end == math.MaxInt64 {
			return math.MaxInt64
		}
		s = end
	}
}

// findBefore returns the earliest time s in [from, until) at which procs
// processors are free for the whole of [s, min(s+dur, limit)), or limit if
// there is none (until <= limit).
func (p *stepTree) findBefore(from sim.Time, procs int32, dur, until, limit sim.Time) sim.Time {
	s := max(from, p.t0)
	for s < until {
		short, end := p.blocked(s, min(s+dur, limit), procs)
		if !short {
			return s
		}
		if end == math.MaxInt64 {
			return limit
		}
		s = end
	}
	return limit
}

// steps lists the steps in order, for tests: starts and counts.
func (p *stepTree) steps() ([]sim.Time, []int32) {
	var ts []sim.Time
	var fs []int32
	var walk func(x, acc int32)
	walk = func(x, acc int32) {
		if x == 0 {
			return
		}
		n := p.nodes[x]
		walk(n.left, acc+n.add)
		ts = append(ts, n.t)
		fs = append(fs, n.val+acc)
		walk(n.right, acc+n.add)
	}
	walk(p.root, 0)
	return ts, fs
}
