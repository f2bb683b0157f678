package metrics

import (
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
	type ev struct {
		t sim.Time
		d int
	}
	evs := make([]ev, 0, 2*len(res.Jobs))
	for i := range res.Jobs {
		o := &res.Jobs[i]
		if o.Start == o.Submit {
			continue
		}
		evs = append(evs, ev{o.Submit, 1})
		if o.Start >= 0 {
			evs = append(evs, ev{o.Start, -1})
		}
	}
	slices.SortFunc(evs, func(a, b ev) int {
		switch {
		case a.t < b.t:
			return -1
		case a.t > b.t:
			return 1
		}
		return 0
	})
	var steps []Step
	cur := 0
	for i := 0; i < len(evs); {
		t := evs[i].t
		for ; i < len(evs) && evs[i].t == t; i++ {
			cur += evs[i].d
		}
		if len(steps) > 0 && steps[len(steps)-1].Value == cur {
			continue
		}
		steps = append(steps, Step{t, cur})
	}
	return steps
}

// queueStats returns the time-weighted mean and the maximum queue length
// within [from, to).
func queueStats(res *sim.Result, from, to sim.Time) (float64, int) {
	steps := QueueLength(res)
	var area float64
	mx := 0
	for i, s := range steps {
		end := to
		if i+1 < len(steps) {
			end = min(end, steps[i+1].Time)
		}
		a := max(s.Time, from)
		if end > a {
			area += float64(end-a) * float64(s.Value)
			mx = max(mx, s.Value)
		}
	}
	if to <= from {
		return 0, mx
	}
	return area / float64(to-from), mx
}
