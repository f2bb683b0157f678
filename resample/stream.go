package resample

import (
	"cmp"
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// Draw is one workload drawn from the pools as [Pools.Generate] draws it,
// whose jobs are written as they are merged ([Draw.WriteJobs]) instead of
// held: besides the pools (the users' sub-traces it copies), it holds the
// copies and, while writing, one position per copy. Its header and jobs are
// those of the Workload that Generate gives for the same options.
type Draw struct {
	// Pools are the pools it was drawn from.
	Pools *Pools
	// Params are the resolved parameters.
	Params Params
	// Copies are the copies that contribute jobs, as in [Workload].
	Copies []Copy
	// Jobs is the number of jobs.
	Jobs int
	// BeforeStart counts copied jobs that fell before time 0 and were
	// left out.
	BeforeStart int

	insts []Copy  // every copy drawn, in the order drawn
	ids   []int32 // the ID of every copy drawn, 0 for one without jobs
	order []int   // the index in insts of each of Copies
}

// Draw draws one workload like [Pools.Generate], without its jobs.
func (p *Pools) Draw(opt Options) (*Draw, error) {
	pr, err := p.params(opt)
	if err != nil {
		return nil, err
	}
	g := newGen(p, pr, opt)
	g.longTerm()
	g.initialTemporary()
	g.weekly()
	d := &Draw{Pools: p, Params: pr, insts: g.insts, ids: make([]int32, len(g.insts))}
	// A copy's number is the rank of its first job in the output, ordered
	// by time, then copy.
	type first struct {
		t    int64
		ci   int
		jobs int
	}
	var firsts []first
	for ci := range d.insts {
		c := d.cursor(ci)
		n, t0 := 0, int64(-1)
		for ; c.ok; c.advance(d) {
			if n == 0 {
				t0 = c.t
			}
			n++
		}
		d.BeforeStart += c.early
		if n > 0 {
			firsts = append(firsts, first{t0, ci, n})
			d.Jobs += n
		}
	}
	slices.SortFunc(firsts, func(a, b first) int {
		if a.t != b.t {
			return cmp.Compare(a.t, b.t)
		}
		return cmp.Compare(a.ci, b.ci)
	})
	for i, f := range firsts {
		c := d.insts[f.ci]
		c.ID, c.Jobs = int32(i+1), f.jobs
		d.Copies = append(d.Copies, c)
		d.ids[f.ci] = c.ID
		d.order = append(d.order, f.ci)
	}
	return d, nil
}

// cursor walks the jobs a copy contributes, with their times in the
// workload, as emit places them.
type cursor struct {
	ci    int
	k     int   // index of the job in the copy's sub-trace
	t     int64 // its time in the workload
	ok    bool  // there is a job at k
	prev  int64
	early int // jobs passed before time 0
}

func (d *Draw) cursor(ci int) cursor {
	c := cursor{ci: ci, k: d.insts[ci].From - 1, prev: math.MinInt64}
	c.advance(d)
	return c
}

// advance moves to the copy's next job in [0, Duration).
func (c *cursor) advance(d *Draw) {
	p, in := d.Pools, &d.insts[c.ci]
	sh := int64(in.Shift) * Week
	for c.k++; c.k < len(in.u.Jobs); c.k++ {
		// A copy's jobs keep their order even where a daylight-saving
		// change repeats an hour of local time.
		t := max(c.prev, p.cal.fromLocal(p.local[in.u.Jobs[c.k]]+sh))
		c.prev = t
		if t >= d.Params.Duration {
			break
		}
		if t < 0 {
			c.early++
			continue
		}
		c.t, c.ok = t, true
		return
	}
	c.ok = false
}

// before orders cursors by time, then copy.
func (c *cursor) before(d *cursor) bool {
	if c.t != d.t {
		return c.t < d.t
	}
	return c.ci < d.ci
}

// cursors is a min-heap of the cursors of the copies under way.
type cursors []cursor

func (h cursors) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h[r].before(&h[l]) {
			m = r
		}
		if !h[m].before(&h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

func (h cursors) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h[i].before(&h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

// WriteJobs writes the jobs to w in the order and with the fields of
// [Workload.Trace]: by time, then copy, then order in the copy, numbered
// from 1, field 12 the copy's ID, fields 3 (wait) and 17 (preceding job)
// -1. It may be called more than once. The copies join the merge when
// their first job comes, so that it holds the copies under way only.
func (d *Draw) WriteJobs(w trace.JobWriter) error {
	var h cursors
	next := 0 // the next copy to join, in d.Copies (ordered by first job)
	src := d.Pools.Trace
	var pend cursor // the cursor of copy next, once made
	var j trace.Job
	for i := int64(1); ; i++ {
		for next < len(d.Copies) {
			if pend.ci != d.order[next] || !pend.ok {
				pend = d.cursor(d.order[next])
			}
			if len(h) > 0 && !pend.before(&h[0]) {
				break
			}
			h = append(h, pend)
			h.up(len(h) - 1)
			next++
		}
		if len(h) == 0 {
			return nil
		}
		c := &h[0]
		j = src.Jobs[d.insts[c.ci].u.Jobs[c.k]]
		j.ID = i
		j.Submit = c.t
		j.User = d.ids[c.ci]
		j.Preceding = -1
		j.Wait = -1
		if err := w.WriteJob(&j); err != nil {
			return err
		}
		if c.advance(d); !c.ok {
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		}
		h.down(0)
	}
}

// Header returns the header of the workload's log, as [Workload.Trace]
// gives it.
func (d *Draw) Header(command string) swf.Header {
	return header(d.Pools, d.Params, d.Jobs, d.Copies, command)
}
