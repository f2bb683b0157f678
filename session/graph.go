package session

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Reduction chooses which dependency edges a graph keeps (Madon, Da Costa and Pierson, Replay with Feedback, 2024,
// Definition 5).
type Reduction uint8

// The edge reductions.
const (
	// Transitive keeps an edge s -> s' only when no other session x has
	// s -> x and x -> s' (the Hasse diagram of the partial order). It is
	// the default: it preserves the order and the recorded timings (with
	// recorded finishes every dropped constraint is implied), and it is
	// what reproduces Madon's published lateness. In a simulation a
	// dropped edge's think time can bind when x runs faster than recorded,
	// so sessions may start earlier than Full would allow.
	Transitive Reduction = iota
	// Full keeps every pair that satisfies the dependency definition
	// (quadratic in the number of sessions of a sequential user).
	Full
	// Recent keeps the predecessors that finished after the start of the
	// session just before s' in start order, else the one that finished
	// last.
	Recent
)

var reductionNames = [...]string{"transitive", "full", "recent"}

// String returns "transitive", "full" or "recent".
func (r Reduction) String() string {
	if int(r) < len(reductionNames) {
		return reductionNames[r]
	}
	return fmt.Sprintf("Reduction(%d)", r)
}

// ParseReduction parses "transitive", "full" or "recent".
func ParseReduction(s string) (Reduction, error) {
	for i, n := range reductionNames {
		if strings.EqualFold(s, n) {
			return Reduction(i), nil
		}
	}
	return 0, fmt.Errorf("unknown edge reduction %q; valid: %s", s, strings.Join(reductionNames[:], ", "))
}

// Root is the From of an edge out of the fictive root session of a
// session graph.
const Root = -1

// Edge is a dependency on an earlier node.
type Edge struct {
	// From is the node depended on, or [Root].
	From int32
	// Think is the recorded think time in seconds: the first arrival of the
	// dependent node minus the end of From; for an edge from the root, the
	// dependent node's first arrival (its absolute recorded start).
	Think int64
}

// Graph is a dependency graph over the sessions ([SessionGraph]) or the
// batches ([BatchGraph]) of a partition. Nodes are numbered like
// Partition.Sessions or Partition.Batches; every edge goes from an earlier
// node of the same user to a later one.
type Graph struct {
	// P is the partition the graph is built on.
	P *Partition
	// Batches reports that the nodes are batches rather than sessions.
	Batches bool
	// Reduction is the edge reduction used.
	Reduction Reduction

	predOff, succOff []int32
	preds            []Edge
	succs            []int32
	// succThink holds the think time of each edge of succs, filled on the
	// first call of SuccThinks (Madon's replay needs it, the batch models
	// do not).
	succThink     []int64
	succThinkOnce sync.Once
}

// Len returns the number of nodes.
func (g *Graph) Len() int { return len(g.predOff) - 1 }

// Preds returns the dependencies of node n, by ascending From; a session
// graph's root edge has From == Root.
func (g *Graph) Preds(n int) []Edge { return g.preds[g.predOff[n]:g.predOff[n+1]] }

// Succs returns the nodes that depend on node n, ascending.
func (g *Graph) Succs(n int) []int32 { return g.succs[g.succOff[n]:g.succOff[n+1]] }

// SuccThinks returns the think times of the edges from node n to the nodes
// of Succs(n), in the same order. The first call tabulates them for every
// edge; it is safe for concurrent use.
func (g *Graph) SuccThinks(n int) []int64 {
	g.succThinkOnce.Do(g.fillSuccThinks)
	return g.succThink[g.succOff[n]:g.succOff[n+1]]
}

// fillSuccThinks tabulates the think times of the successor edges.
func (g *Graph) fillSuccThinks() {
	g.succThink = make([]int64, len(g.succs))
	next := slices.Clone(g.succOff) // each node's next successor slot
	for to := range g.Len() {
		for _, e := range g.Preds(to) {
			if e.From != Root {
				g.succThink[next[e.From]] = e.Think
				next[e.From]++
			}
		}
	}
}

// NumEdges returns the number of edges, not counting those from the root.
func (g *Graph) NumEdges() int { return len(g.succs) }

// sessionDeps calls emit(s', deps) with the kept dependencies of each session
// s' of user u on earlier sessions (none: the root), under Definition 5 of Madon (rule 2 of Zakay's
// Definition 12): s finished (MaxEnd) at or before the first arrival of s'.
// Sessions of a user are in start order; the relation is an interval order,
// which makes the transitive reduction cheap: with L the latest-starting
// candidate, s is kept iff s == L or s ends after L starts.
func (p *Partition) sessionDeps(u *User, red Reduction, buf []int32, emit func(to int32, deps []int32)) []int32 {
	byEnd := buf[:0] // processed sessions by (MaxEnd, index)
	ss := p.Sessions
	var kept []int32
	for k := u.SessionLo; k < u.SessionHi; k++ {
		a := ss[k].First
		nb := endsAfter(ss, byEnd, a)
		kept = kept[:0]
		if nb > 0 && u.ID >= 0 {
			switch red {
			case Full:
				kept = append(kept, byEnd[:nb]...)
			case Recent:
				prev := ss[k-1].First
				for i := nb - 1; i >= 0 && ss[byEnd[i]].MaxEnd > prev; i-- {
					kept = append(kept, byEnd[i])
				}
				if len(kept) == 0 {
					kept = append(kept, byEnd[nb-1])
				}
			default:
				l := int32(-1)
				for i := nb - 1; i >= 0; i-- {
					s := byEnd[i]
					if l >= 0 && ss[s].MaxEnd < ss[l].First {
						break
					}
					l = max(l, s)
					kept = append(kept, s)
				}
				j := 0
				for _, s := range kept {
					if s == l || ss[s].MaxEnd > ss[l].First {
						kept[j] = s
						j++
					}
				}
				kept = kept[:j]
			}
			if len(kept) > 1 {
				slices.Sort(kept)
			}
		}
		emit(k, kept)
		// byEnd holds sessions before k only, so k goes after every
		// session that ends at or before it: sort by (MaxEnd, index).
		i := endsAfter(ss, byEnd, ss[k].MaxEnd)
		if i == len(byEnd) {
			byEnd = append(byEnd, k)
		} else {
			byEnd = slices.Insert(byEnd, i, k)
		}
	}
	return byEnd
}

// endsAfter returns the first position of byEnd (sessions sorted by
// MaxEnd) whose session ends after t, len(byEnd) if none does. Sessions
// mostly end in start order, so the last one is checked first.
func endsAfter(ss []Session, byEnd []int32, t int64) int {
	n := len(byEnd)
	if n == 0 || ss[byEnd[n-1]].MaxEnd <= t {
		return n
	}
	lo, hi := 0, n-1 // the answer is in [lo, hi]: byEnd[hi] ends after t
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ss[byEnd[m]].MaxEnd > t {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// SessionGraph builds Madon's session graph (Madon, Da Costa and Pierson, Replay with Feedback, 2024, Definitions 5-7): session
// s' depends on an earlier session s of the same user when every job of s
// ended at or before the first submit of s', with think time first(s') -
// end(s); sessions without a dependency hang from the fictive root with
// their recorded first submit as think time. Jobs without a user ID depend
// only on the root.
func SessionGraph(p *Partition, red Reduction) *Graph {
	g := &Graph{P: p, Reduction: red}
	n := len(p.Sessions)
	g.predOff = make([]int32, n+1)
	g.preds = make([]Edge, 0, n+n/2)
	var buf []int32
	for ui := range p.Users {
		buf = p.sessionDeps(&p.Users[ui], red, buf, func(to int32, deps []int32) {
			if len(deps) == 0 {
				g.preds = append(g.preds, Edge{From: Root, Think: p.Sessions[to].First})
			}
			for _, from := range deps {
				g.preds = append(g.preds, Edge{From: from, Think: p.Sessions[to].First - p.Sessions[from].MaxEnd})
			}
			g.predOff[to+1] = int32(len(g.preds))
		})
	}
	g.buildSuccs()
	return g
}

// BatchGraph builds Zakay's batch dependency graph (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 4,
// Definition 12): a batch depends on the previous batch of its session, and
// the first batch of a session on the last batch of every earlier session
// that had completely finished when it arrived (kept per red). The think
// time of an edge is the batch's first arrival minus the end of the batch it
// depends on. A batch with no dependency has no edge (there is no root).
func BatchGraph(p *Partition, red Reduction) *Graph {
	g := &Graph{P: p, Batches: true, Reduction: red}
	n := len(p.Batches)
	g.predOff = make([]int32, n+1)
	// One edge per batch that does not begin a session, and mostly one or
	// two per session that depends on earlier ones.
	g.preds = make([]Edge, 0, n+len(p.Sessions)/2)
	var buf []int32
	add := func(to, from int32) {
		g.preds = append(g.preds, Edge{From: from, Think: p.Batches[to].First - p.Batches[from].MaxEnd})
		g.predOff[to+1] = int32(len(g.preds))
	}
	for ui := range p.Users {
		buf = p.sessionDeps(&p.Users[ui], red, buf, func(to int32, deps []int32) {
			s := &p.Sessions[to]
			for _, from := range deps {
				add(s.BatchLo, p.Sessions[from].BatchHi-1)
			}
			g.predOff[s.BatchLo+1] = int32(len(g.preds))
			for b := s.BatchLo + 1; b < s.BatchHi; b++ {
				add(b, b-1)
			}
		})
	}
	g.buildSuccs()
	return g
}

func (g *Graph) buildSuccs() {
	n := g.Len()
	for i := 1; i <= n; i++ {
		g.predOff[i] = max(g.predOff[i], g.predOff[i-1])
	}
	g.succOff = make([]int32, n+1)
	for _, e := range g.preds {
		if e.From != Root {
			g.succOff[e.From+1]++
		}
	}
	for i := 1; i <= n; i++ {
		g.succOff[i] += g.succOff[i-1]
	}
	g.succs = make([]int32, g.succOff[n])
	// A session graph is for Madon's replay, which reads the think times
	// of successor edges: fill them in the same pass.
	var think []int64
	if !g.Batches {
		g.succThinkOnce.Do(func() { g.succThink = make([]int64, len(g.succs)) })
		think = g.succThink
	}
	// Fill with succOff[i+1] as node i's cursor: it starts at i's first
	// slot (succOff[i]'s final value) and ends at i's end.
	for i := n; i > 0; i-- {
		g.succOff[i] = g.succOff[i-1]
	}
	for to := 0; to < n; to++ {
		for _, e := range g.Preds(to) {
			if e.From != Root {
				f := g.succOff[e.From+1]
				g.succs[f] = int32(to)
				if think != nil {
					think[f] = e.Think
				}
				g.succOff[e.From+1] = f + 1
			}
		}
	}
}
