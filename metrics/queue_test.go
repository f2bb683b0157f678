package metrics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// queueLengthRef is the plain form of QueueLength: both time lists copied
// and sorted, then merged.
func queueLengthRef(res *sim.Result) []Step {
	var subs, starts []sim.Time
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
	slices.Sort(subs)
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

// TestQueueLengthMatchesReference checks the streamed queue length, and
// the statistics drawn from it, against the plain form on random
// schedules in and out of arrival order, with ties, jobs that never
// waited and jobs that never started.
func TestQueueLengthMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	for trial := range 300 {
		n := rng.IntN(40)
		res := &sim.Result{Procs: 4}
		var sub sim.Time
		for range n {
			sub += sim.Time(rng.IntN(3))
			o := sim.Outcome{Job: sim.Job{Submit: sub}, Start: sub + sim.Time(rng.IntN(3)*rng.IntN(4))}
			if rng.IntN(10) == 0 {
				o.Start = -1
			}
			res.Jobs = append(res.Jobs, o)
		}
		if trial%3 == 0 {
			rng.Shuffle(n, func(a, b int) { res.Jobs[a], res.Jobs[b] = res.Jobs[b], res.Jobs[a] })
		}
		want := queueLengthRef(res)
		got := QueueLength(res)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: steps %v, want %v", trial, got, want)
		}
		from, to := sim.Time(rng.IntN(10)), sim.Time(rng.IntN(100))
		m, mx := queueStats(res, from, to)
		var area float64
		wmx := 0
		for i, s := range want {
			end := to
			if i+1 < len(want) {
				end = min(end, want[i+1].Time)
			}
			if a := max(s.Time, from); end > a {
				area += float64(end-a) * float64(s.Value)
				wmx = max(wmx, s.Value)
			}
		}
		wm := 0.0
		if to > from {
			wm = area / float64(to-from)
		}
		if m != wm || mx != wmx {
			t.Fatalf("trial %d: queue stats %v %d, want %v %d", trial, m, mx, wm, wmx)
		}
	}
}
