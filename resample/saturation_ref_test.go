package resample

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// refOutstanding and refWaiting are [Outstanding] and [Waiting] as they
// were computed before the counts by sample time: every job's times
// copied and sorted (16 bytes per job), then searched at each time.
func refOutstanding(res *sim.Result, at []int64) []float64 {
	var sub, end []int64
	for i := range res.Jobs {
		o := &res.Jobs[i]
		sub = append(sub, int64(o.Submit))
		if o.End >= 0 {
			end = append(end, int64(o.End))
		}
	}
	slices.Sort(sub)
	slices.Sort(end)
	out := make([]float64, len(at))
	for k, t := range at {
		arrived := sort.Search(len(sub), func(i int) bool { return sub[i] >= t })
		ended := sort.Search(len(end), func(i int) bool { return end[i] > t })
		out[k] = float64(arrived - ended)
	}
	return out
}

func refWaiting(res *sim.Result, at []int64) []float64 {
	var sub, start []int64
	for i := range res.Jobs {
		o := &res.Jobs[i]
		sub = append(sub, int64(o.Submit))
		if o.Start >= 0 {
			start = append(start, int64(o.Start))
		}
	}
	slices.Sort(sub)
	slices.Sort(start)
	out := make([]float64, len(at))
	for k, t := range at {
		arrived := sort.Search(len(sub), func(i int) bool { return sub[i] >= t })
		started := sort.Search(len(start), func(i int) bool { return start[i] >= t })
		out[k] = float64(max(0, arrived-started))
	}
	return out
}

// TestCountsMatchSorted compares Outstanding and Waiting with the sorted
// copies they replaced, on random runs whose times fall on the sample
// times, between them and outside them, with jobs that never started or
// never ended, jobs out of submit order, and sample times unsorted or
// repeated.
func TestCountsMatchSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 7))
	for c := range 200 {
		n := rng.IntN(60)
		res := &sim.Result{Jobs: make([]sim.Outcome, n)}
		for i := range res.Jobs {
			o := &res.Jobs[i]
			o.Submit = sim.Time(rng.IntN(50))
			o.Start, o.End = -1, -1
			if rng.IntN(5) > 0 {
				o.Start = o.Submit + sim.Time(rng.IntN(20))
				o.End = o.Start + sim.Time(rng.IntN(20))
			}
		}
		var at []int64
		switch c % 3 {
		case 0: // week starts: sorted, every few units
			for t := int64(rng.IntN(5)); t < 90; t += int64(1 + rng.IntN(8)) {
				at = append(at, t)
			}
		case 1: // unsorted with repeats
			for range rng.IntN(12) {
				at = append(at, int64(rng.IntN(100))-5)
			}
		case 2: // none
		}
		if got, want := Outstanding(res, at), refOutstanding(res, at); !slices.Equal(got, want) {
			t.Fatalf("case %d: Outstanding at %v = %v, sorted copies give %v", c, at, got, want)
		}
		if got, want := Waiting(res, at), refWaiting(res, at); !slices.Equal(got, want) {
			t.Fatalf("case %d: Waiting at %v = %v, sorted copies give %v", c, at, got, want)
		}
	}
}
