package feedback

import (
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
)

// owner is the user model side of a source: it is told of each arrival and
// end of a job (by index into the trace) and schedules further jobs.
type owner interface {
	arrived(ix int32, now sim.Time)
	ended(ix int32, now sim.Time)
}

// core is the part of a feedback source shared by the models: a heap of
// pending submissions, the prepared jobs, and what happened to each job.
type core struct {
	own     owner
	jobs    []sim.Job // the prepared jobs
	wpos    []int32   // position in jobs by trace index; -1 = rejected
	pending subHeap
	// Submitted holds each job's simulated submit time, -1 before it is
	// submitted; Ends its simulated end (rejected jobs end on arrival).
	submitted, ends []sim.Time
	rejected        int
	left            int // jobs not yet submitted
	// order and off are the partition's job order and each position's
	// recorded offset from the start of its group (session or batch).
	order []int32
	off   []sim.Time
}

func newCore(p *session.Partition, w *sim.Workload, batches bool) *core {
	n := len(p.End)
	c := &core{jobs: w.Jobs, wpos: make([]int32, n), submitted: make([]sim.Time, n), ends: make([]sim.Time, n), left: n,
		order: p.Order, off: make([]sim.Time, len(p.Order))}
	for pos, ix := range p.Order {
		first := p.Sessions[p.SessionOf[ix]].First
		if batches {
			first = p.Batches[p.BatchOf[ix]].First
		}
		c.off[pos] = sim.Time(p.Trace.Jobs[ix].Submit - first)
	}
	for i := range c.submitted {
		c.submitted[i], c.ends[i], c.wpos[i] = -1, -1, -1
	}
	for k := range w.Jobs {
		c.wpos[w.Jobs[k].Index] = int32(k)
	}
	return c
}

// submitGroup schedules the jobs at positions [lo, hi) of order to arrive
// at base plus their offsets. Only the first is queued; each pop queues the
// next, which keeps the queue short.
func (c *core) submitGroup(lo, hi int32, base sim.Time) {
	c.pending.push(sub{t: base + c.off[lo], pos: lo, hi: hi, base: base})
}

// Next implements [sim.JobSource].
func (c *core) Next() (sim.Time, bool) {
	if c.pending.len() == 0 {
		return 0, false
	}
	return c.pending.h[0].t, true
}

// Pop implements [sim.JobSource]. Jobs that cannot run are rejected: they
// end at once, which may submit more jobs at now, handed over in this call.
func (c *core) Pop(now sim.Time, dst []sim.Job) []sim.Job {
	for c.pending.len() > 0 && c.pending.h[0].t == now {
		s := c.pending.pop()
		if s.pos+1 < s.hi {
			c.pending.push(sub{t: s.base + c.off[s.pos+1], pos: s.pos + 1, hi: s.hi, base: s.base})
		}
		ix := c.order[s.pos]
		c.submitted[ix] = now
		c.left--
		k := c.wpos[ix]
		if k < 0 {
			c.rejected++
			c.ends[ix] = now
			c.own.arrived(ix, now)
			c.own.ended(ix, now)
			continue
		}
		j := c.jobs[k]
		j.Submit = now
		dst = append(dst, j)
		c.own.arrived(ix, now)
	}
	return dst
}

// Started implements [sim.JobSource].
func (c *core) Started(*sim.View, sim.Ref) {}

// Ended implements [sim.JobSource].
func (c *core) Ended(v *sim.View, r sim.Ref) {
	ix := v.Job(r).Index
	c.ends[ix] = v.Now()
	c.own.ended(ix, v.Now())
}

type sub struct {
	t, base sim.Time
	pos, hi int32
}

// subHeap is a binary min-heap of pending submissions by (time, index).
type subHeap struct{ h []sub }

func (q *subHeap) len() int { return len(q.h) }

func less(a, b sub) bool { return a.t < b.t || a.t == b.t && a.pos < b.pos }

func (q *subHeap) push(e sub) {
	q.h = append(q.h, e)
	i := len(q.h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !less(q.h[i], q.h[p]) {
			break
		}
		q.h[i], q.h[p] = q.h[p], q.h[i]
		i = p
	}
}

func (q *subHeap) pop() sub {
	h := q.h
	e := h[0]
	n := len(h) - 1
	h[0] = h[n]
	q.h = h[:n]
	h = q.h
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && less(h[r], h[l]) {
			m = r
		}
		if !less(h[m], h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return e
}
