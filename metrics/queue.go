package metrics

import (
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/sim"
)

// Step is one value of a step function of time: Value holds from Time
// until the next step.
type Step struct {
	Time  sim.Time `json:"time"`
	Value int      `json:"value"`
}

// QueueLength returns the number of waiting jobs over time: a step at
// every time the count changes (jobs arriving and starting at the same
// time are netted).
func QueueLength(res *sim.Result) []Step {
	var steps []Step
	queueSteps(res, func(s Step) { steps = append(steps, s) })
	return steps
}

// queueSteps calls f with each step of the queue length, in time order.
// Only the start times are copied (8 bytes per job that waited): the
// submit times are read in place when the jobs are in arrival order, as a
// simulation leaves them.
func queueSteps(res *sim.Result, f func(Step)) {
	var subs []sim.Time
	starts := make([]sim.Time, 0, len(res.Jobs))
	sorted, waited := true, false
	var last sim.Time
	for i := range res.Jobs {
		o := &res.Jobs[i]
		if o.Start == o.Submit {
			continue
		}
		if waited && o.Submit < last {
			sorted = false
		}
		last, waited = o.Submit, true
		if o.Start >= 0 {
			starts = append(starts, o.Start)
		}
	}
	if !sorted { // not in arrival order: sort a copy
		subs = make([]sim.Time, 0, len(res.Jobs))
		for i := range res.Jobs {
			if o := &res.Jobs[i]; o.Start != o.Submit {
				subs = append(subs, o.Submit)
			}
		}
		slices.Sort(subs)
	}
	slices.Sort(starts)
	// next returns the next waiting job's submit time from k on.
	k := 0
	next := func() (sim.Time, bool) {
		if subs != nil {
			if k < len(subs) {
				return subs[k], true
			}
			return 0, false
		}
		for ; k < len(res.Jobs); k++ {
			if o := &res.Jobs[k]; o.Start != o.Submit {
				return o.Submit, true
			}
		}
		return 0, false
	}
	cur, prev, have, j := 0, 0, false, 0
	for {
		sub, ok := next()
		if !ok && j >= len(starts) {
			break
		}
		t := sim.Time(math.MaxInt64)
		if ok {
			t = sub
		}
		if j < len(starts) && starts[j] < t {
			t = starts[j]
		}
		for ok && sub == t {
			cur++
			k++
			sub, ok = next()
		}
		for ; j < len(starts) && starts[j] == t; j++ {
			cur--
		}
		if have && prev == cur {
			continue
		}
		f(Step{t, cur})
		prev, have = cur, true
	}
}

// queueStats returns the time-weighted mean and the maximum queue length
// within [from, to).
func queueStats(res *sim.Result, from, to sim.Time) (float64, int) {
	var area float64
	mx := 0
	var s Step
	have := false
	add := func(end sim.Time) {
		a := max(s.Time, from)
		if end > a {
			area += float64(end-a) * float64(s.Value)
			mx = max(mx, s.Value)
		}
	}
	queueSteps(res, func(n Step) {
		if have {
			add(min(to, n.Time))
		}
		s, have = n, true
	})
	if have {
		add(to)
	}
	if to <= from {
		return 0, mx
	}
	return area / float64(to-from), mx
}
