package metrics

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// refGroups is groups as it was before the counting sort: a list of job
// indices per key in a map.
func refGroups(jobs []sim.Outcome, measured []int32, tau sim.Time, key func(*sim.Outcome) string, numeric bool) []Group {
	idx := map[string][]int32{}
	var keys []string
	for _, i := range measured {
		k := key(&jobs[i])
		if _, ok := idx[k]; !ok {
			keys = append(keys, k)
		}
		idx[k] = append(idx[k], i)
	}
	if numeric {
		slices.SortFunc(keys, func(a, b string) int {
			x, _ := strconv.Atoi(a)
			y, _ := strconv.Atoi(b)
			return x - y
		})
	} else {
		slices.Sort(keys)
	}
	var out []Group
	var x []float64
	for _, k := range keys {
		g := Group{Key: k, Jobs: len(idx[k])}
		for q := range quantities {
			x = fill(x, jobs, idx[k], q, tau)
			*g.stat(q) = summarize(x)
		}
		out = append(out, g)
	}
	return out
}

// TestGroupsMatchMap compares the per-user and per-month groups with the
// map of lists they replaced, on random runs (users -1 to 40, unknown
// users included, over several months; some jobs left out of the
// measured ones).
func TestGroupsMatchMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 22))
	for c := range 50 {
		n := rng.IntN(400)
		jobs := make([]sim.Outcome, n)
		var measured []int32
		for i := range jobs {
			o := &jobs[i]
			o.ID, o.User, o.Procs = int64(i+1), int32(rng.IntN(42)-1), 1
			o.Submit = sim.Time(rng.IntN(200 * 86400))
			o.Start = o.Submit + sim.Time(rng.IntN(5000))
			o.End = o.Start + sim.Time(rng.IntN(9000))
			if rng.IntN(4) > 0 {
				measured = append(measured, int32(i))
			}
		}
		user := func(o *sim.Outcome) string { return strconv.Itoa(int(o.User)) }
		if got, want := groups(jobs, measured, 10, user, true), refGroups(jobs, measured, 10, user, true); len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: per user %+v, map of lists %+v", c, got, want)
		}
		m := newMonths(nil)
		month := func(o *sim.Outcome) string { return m.key(o.Submit) }
		if got, want := groups(jobs, measured, 10, month, false), refGroups(jobs, measured, 10, month, false); len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: per month %+v, map of lists %+v", c, got, want)
		}
	}
}
