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
	subs := make([]sim.Time, 0, len(res.Jobs))
	starts := make([]sim.Time, 0, len(res.Jobs))
	for i := range res.Jobs {
		o := &res.Jobs[i]
		if o.Start == o.Submit {
			continue
		}
		subs = append(subs, o.Submit)
		if o.Start >= 0 {
			starts = append(starts, o.Start)
		}
	}
	if !slices.IsSorted(subs) { // results are in arrival order: sorted already
		slices.Sort(subs)
	}
	slices.Sort(starts)
	var steps []Step
	cur, i, j := 0, 0, 0
	for i < len(subs) || j < len(starts) {
		t := sim.Time(math.MaxInt64)
		if i < len(subs) {
			t = subs[i]
		}
		if j < len(starts) && starts[j] < t {
			t = starts[j]
		}
		for ; i < len(subs) && subs[i] == t; i++ {
			cur++
		}
		for ; j < len(starts) && starts[j] == t; j++ {
			cur--
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
