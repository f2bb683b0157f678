package feedback

import (
	"slices"

	"github.com/hpcwl/hpcwl/internal/heap"
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
)

// core is the part of a feedback source shared by the models: a queue of
// pending submissions, the prepared jobs, and what happened to each job.
type core struct {
	// The user model side of the source, one of the two: it is told of
	// each end of a job (and the Zakay models of each arrival) and
	// schedules further jobs. Concrete types rather than an interface
	// let the calls, one or two per job, be direct.
	z *zakaySource
	m *madonSource
	// jobs are the prepared jobs in sim.Prepare's (recorded) order: trace
	// job ix is jobs[ix-d], d the number of jobs before it that
	// sim.Prepare dropped, whose trace indices dropped lists in order
	// (they are rejected on arrival). With many dropped jobs, wix[k]
	// holds instead the position in jobs of trace job order[k], or -1.
	jobs    []sim.Job
	dropped []int32
	wix     []int32
	// bounds[g] and bounds[g+1] delimit group g (a session for Madon's
	// replay, a batch for the Zakay models) in the partition's order:
	// groups are consecutive ranges of it.
	bounds []int32
	queue  heap.Heap[int32] // next submission of each started group: key (time, position), value the group
	// Submitted holds each job's simulated submit time, -1 before it is
	// submitted; Ends its simulated end (rejected jobs end on arrival).
	submitted, ends []sim.Time
	rejected        int
	left            int // jobs not yet submitted
	// order and arr are the partition's job order and each position's
	// recorded submit time.
	order []int32
	arr   []int64
}

func newCore(p *session.Partition, w *sim.Workload) *core {
	n := len(p.End)
	times := make([]sim.Time, 2*n) // one allocation for both
	c := &core{jobs: w.Jobs, submitted: times[:n:n], ends: times[n:], left: n,
		order: p.Order, arr: p.Submit}
	if d := n - len(w.Jobs); d > n/16 {
		c.wix = make([]int32, n)
		wpos := c.submitted // scratch: 1 + the position in w.Jobs by trace index, 0 = dropped
		for k := range w.Jobs {
			wpos[w.Jobs[k].Index] = sim.Time(k + 1)
		}
		for k, ix := range p.Order {
			c.wix[k] = int32(wpos[ix]) - 1
		}
	} else if d > 0 {
		c.dropped = droppedJobs(w.Jobs, n)
	}
	for i := range times {
		times[i] = -1
	}
	return c
}

// jobAt returns the position in jobs of the trace job at partition
// position pos, whose trace index is ix, or -1 when it was dropped.
func (c *core) jobAt(pos, ix int32) int32 {
	if c.wix != nil {
		return c.wix[pos]
	}
	if len(c.dropped) == 0 {
		return ix
	}
	d, found := slices.BinarySearch(c.dropped, ix)
	if found {
		return -1
	}
	return ix - int32(d)
}

// droppedJobs returns in order the trace indices in [0, n) missing from
// jobs, whose Index fields ascend. jobs[k].Index - k counts the jobs
// missing before jobs[k]; it only grows, so the ranges of jobs where it
// stays the same are skipped by bisection: the cost grows with the number
// of gaps, not of jobs.
func droppedJobs(jobs []sim.Job, n int) []int32 {
	out := make([]int32, 0, n-len(jobs))
	if len(jobs) == 0 {
		for i := range n {
			out = append(out, int32(i))
		}
		return out
	}
	gap := func(k int) int32 { return jobs[k].Index - int32(k) }
	for i := int32(0); i < jobs[0].Index; i++ {
		out = append(out, i)
	}
	// gaps appends the missing indices between jobs[lo] and jobs[hi].
	var gaps func(lo, hi int)
	gaps = func(lo, hi int) {
		if gap(lo) == gap(hi) {
			return
		}
		if hi == lo+1 {
			for i := jobs[lo].Index + 1; i < jobs[hi].Index; i++ {
				out = append(out, i)
			}
			return
		}
		m := int(uint(lo+hi) >> 1)
		gaps(lo, m)
		gaps(m, hi)
	}
	gaps(0, len(jobs)-1)
	for i := jobs[len(jobs)-1].Index + 1; i < int32(n); i++ {
		out = append(out, i)
	}
	return out
}

// submitGroup schedules the jobs of group g to arrive at base plus their
// recorded offsets from the first of them (which arrives at base). Only
// the next job of a group is queued; each pop queues the one after it,
// which keeps the queue short.
func (c *core) submitGroup(g int32, base sim.Time) {
	c.queue.Push(heap.Key{T: int64(base), A: int64(c.bounds[g])}, g)
}

// Next implements [sim.JobSource].
func (c *core) Next() (sim.Time, bool) {
	if c.queue.Len() == 0 {
		return 0, false
	}
	return sim.Time(c.queue.Top().T), true
}

// Pop implements [sim.JobSource]. Jobs that cannot run are rejected: they
// end at once, which may submit more jobs at now, handed over in this call.
func (c *core) Pop(now sim.Time, dst []sim.Job) []sim.Job {
	for c.queue.Len() > 0 {
		s := c.queue.Top()
		if sim.Time(s.T) != now {
			break
		}
		pos, g := int32(s.A), s.Val
		if next := pos + 1; next < c.bounds[g+1] {
			// The group's next job follows at its recorded distance.
			c.queue.Replace(heap.Key{T: int64(now) + c.arr[next] - c.arr[pos], A: int64(next)}, g)
		} else {
			c.queue.Pop()
		}
		ix := c.order[pos]
		c.submitted[ix] = now
		c.left--
		wk := c.jobAt(pos, ix)
		if wk < 0 {
			c.rejected++
			c.ends[ix] = now
			if c.z != nil {
				c.z.arrived(g, ix, now)
			}
			c.ended(g, ix, now)
			continue
		}
		dst = append(dst, c.jobs[wk])
		dst[len(dst)-1].Submit, dst[len(dst)-1].Tag = now, g
		if c.z != nil {
			c.z.arrived(g, ix, now)
		}
	}
	return dst
}

// Started implements [sim.JobSource].
func (c *core) Started(*sim.View, sim.Ref) {}

// Ended implements [sim.JobSource].
// The job's Tag is its group, set by Pop.
func (c *core) Ended(v *sim.View, r sim.Ref) {
	j := v.Job(r)
	c.ends[j.Index] = v.Now()
	c.ended(j.Tag, j.Index, v.Now())
}

// ended tells the user model that trace job ix of group g ended at now.
func (c *core) ended(g, ix int32, now sim.Time) {
	if c.z != nil {
		c.z.ended(g, ix, now)
	} else {
		c.m.ended(g, ix, now)
	}
}
