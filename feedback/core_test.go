package feedback

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// TestJobAt checks the lookup of a trace job's prepared job against a
// direct search, for few and many dropped jobs.
func TestJobAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		n    int
		drop float64
	}{{1, 0}, {1, 1}, {10, 0.5}, {1000, 0}, {1000, 0.01}, {1000, 0.05}, {1000, 0.3}, {1000, 1}} {
		var jobs []sim.Job
		var want []int32 // dropped trace indices
		for i := range tc.n {
			if rng.Float64() < tc.drop {
				want = append(want, int32(i))
				continue
			}
			jobs = append(jobs, sim.Job{Index: int32(i)})
		}
		if got := droppedJobs(jobs, tc.n); !slices.Equal(got, want) && len(want)+len(got) > 0 {
			t.Errorf("n %d drop %v: dropped %v, want %v", tc.n, tc.drop, got, want)
		}
		order := make([]int32, tc.n)
		for i := range order {
			order[i] = int32(tc.n - 1 - i) // any permutation
		}
		c := &core{jobs: jobs}
		if d := len(want); d > tc.n/16 {
			c.wix = make([]int32, tc.n)
			for k, ix := range order {
				c.wix[k] = int32(slices.IndexFunc(jobs, func(j sim.Job) bool { return j.Index == ix }))
			}
		} else if d > 0 {
			c.dropped = droppedJobs(jobs, tc.n)
		}
		for k, ix := range order {
			wk := c.jobAt(int32(k), ix)
			if wantK := slices.IndexFunc(jobs, func(j sim.Job) bool { return j.Index == ix }); int(wk) != wantK {
				t.Fatalf("n %d drop %v: job %d at %d, want %d", tc.n, tc.drop, ix, wk, wantK)
			}
		}
	}
}

// TestDroppedJobsAtTheEnds lists dropped jobs at the start, in a run in
// the middle and at the end of a log.
func TestDroppedJobsAtTheEnds(t *testing.T) {
	const n = 20
	want := []int32{0, 1, 7, 8, 9, 19}
	var jobs []sim.Job
	for i := range int32(n) {
		if !slices.Contains(want, i) {
			jobs = append(jobs, sim.Job{Index: i})
		}
	}
	if got := droppedJobs(jobs, n); !slices.Equal(got, want) {
		t.Errorf("dropped %v, want %v", got, want)
	}
}
