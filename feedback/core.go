package feedback

import (
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
	jobs    []sim.Job // prepared jobs by trace index; Procs 0 = rejected
	pending subHeap
	// Submitted holds each job's simulated submit time, -1 before it is
	// submitted; Ends its simulated end (rejected jobs end on arrival).
	submitted, ends []sim.Time
	rejected        int
	left            int // jobs not yet submitted
}

func newCore(n int, w *sim.Workload) *core {
	c := &core{jobs: make([]sim.Job, n), submitted: make([]sim.Time, n), ends: make([]sim.Time, n), left: n}
	for i := range c.submitted {
		c.submitted[i], c.ends[i] = -1, -1
	}
	for _, j := range w.Jobs {
		c.jobs[j.Index] = j
	}
	return c
}

// submit schedules job ix to arrive at t.
func (c *core) submit(ix int32, t sim.Time) {
	c.pending.push(sub{t: t, ix: ix})
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
		c.submitted[s.ix] = now
		c.left--
		j := c.jobs[s.ix]
		if j.Procs == 0 {
			c.rejected++
			c.ends[s.ix] = now
			c.own.arrived(s.ix, now)
			c.own.ended(s.ix, now)
			continue
		}
		j.Submit = now
		dst = append(dst, j)
		c.own.arrived(s.ix, now)
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
	t  sim.Time
	ix int32
}

// subHeap is a binary min-heap of pending submissions by (time, index).
type subHeap struct{ h []sub }

func (q *subHeap) len() int { return len(q.h) }

func less(a, b sub) bool { return a.t < b.t || a.t == b.t && a.ix < b.ix }

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
