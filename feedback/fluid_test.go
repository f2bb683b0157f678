package feedback

import (
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// TestFluidArrival works out where Zakay's Fluid model (thesis, chapter 4,
// section VII; V2 from chapter 5) puts a released batch. One user, whose
// intra-session think time is always 100 s and inter-arrival time 200 s,
// with the recorded session windows
//
//	W1 = [1000, 2000], W2 = [5000, 6000], W3 = [2w + 3000, 2w + 4000]
//
// (w a week), so that they recycle every 3 weeks. Inside a window (its
// ends included) a batch arrives after the drawn delay; before one, at its
// start; V2 moves an arrival past the window's end to the next window and
// puts a window that passed without an arrival back one week later; when
// the windows run out they come again 3 weeks later.
func TestFluidArrival(t *testing.T) {
	w1, w2, w3 := window{start: 1000, end: 2000}, window{start: 5000, end: 6000}, window{start: 2*week + 3000, end: 2*week + 4000}
	type step struct {
		r    Reason
		now  sim.Time
		want sim.Time
	}
	for _, c := range []struct {
		name  string
		v     FluidVariant
		win   []window // pending windows at the start
		steps []step
	}{
		{"before a window", FluidV1, nil, []step{{Dependency, 500, 1000}}},
		{"at a window's start", FluidV1, nil, []step{{Dependency, 1000, 1100}}},
		{"think time inside", FluidV1, nil, []step{{Dependency, 1500, 1600}}},
		{"inter-arrival time inside", FluidV1, nil, []step{{Follows, 1500, 1700}}},
		{"at a window's end", FluidV1, nil, []step{{Dependency, 2000, 2100}}},
		{"V1 arrives past the end", FluidV1, nil, []step{{Dependency, 1950, 2050}}},
		{"V2 arrives at the end", FluidV2, nil, []step{{Dependency, 1900, 2000}}},
		{"V2 moves past the end to the next window", FluidV2, nil, []step{{Dependency, 1950, 5000}}},
		{"between windows", FluidV1, nil, []step{{Follows, 3000, 5000}}},
		// W1 passed unused: V2 puts it back at w + 1000, V1 does not.
		{"V1 skips a window", FluidV1, nil, []step{{Dependency, 3000, 5000}, {Dependency, 7000, 2*week + 3000}}},
		{"V2 reinserts a skipped window", FluidV2, nil, []step{{Dependency, 3000, 5000}, {Dependency, 7000, week + 1000}}},
		// A window used (here by a move to the next one) is not put back.
		{"V2 does not reinsert a used window", FluidV2, []window{w1, w2}, []step{{Dependency, 1950, 5000}, {Dependency, 7000, 3*week + 1000}}},
		// The windows run out: they come again 3 weeks later.
		{"V1 recycles", FluidV1, nil, []step{{Dependency, 2*week + 5000, 3*week + 1000}}},
		{"V1 recycles into a window", FluidV1, nil, []step{{Dependency, 3*week + 1500, 3*week + 1600}}},
		{"V2 moves past the last window", FluidV2, []window{w3}, []step{{Dependency, 2*week + 3950, 3*week + 1000}}},
		// W1 put back at w + 1000 goes after a recorded window W4 of the
		// same start, [w + 1000, w + 1500], which takes the arrival: W1
		// stays unused and comes back once more at 2w + 1000, in time for
		// a release at 2w + 1800 (W4 would come back ending at 2w + 1500).
		{"V2 reinserts after a window of the same start", FluidV2, []window{w1, {start: week + 1000, end: week + 1500}},
			[]step{{Dependency, 3000, week + 1000}, {Dependency, 2*week + 1800, 2*week + 1900}}},
	} {
		win := c.win
		if win == nil {
			win = []window{w1, w2, w3}
		}
		m := &fluid{v: c.v, per: []pools{{intraTT: []int64{100}, intraIAT: []int64{200}}}, rng: userRNGs(1, 1),
			win: [][]window{slices.Clone(win)}, orig: [][]window{{w1, w2, w3}}, cycle: []int64{3 * week}, shift: []int64{0}}
		z := &zakaySource{batch: []zakayBatch{{user: 0}}}
		for k, s := range c.steps {
			if got := m.arrival(z, 0, s.r, s.now); got != s.want {
				t.Errorf("%s, release %d at %d: arrives at %d, want %d", c.name, k, s.now, got, s.want)
			}
		}
	}
}

// TestFluidWindows checks the windows and the recycling shift the Fluid
// model takes from the sessions (arrival, 1 h): user 5 has sessions
// 400000..400500 and 1000000..1000100, in weeks 1 and 2 of a log that
// starts on Thursday 1 January 1970 (weeks begin on Monday, 345600 s
// later): they recycle every 2 weeks. User 6's one job at 10 is a window
// of length 0 that recycles every week.
func TestFluidWindows(t *testing.T) {
	tr := mkTrace(10, tj{6, 10, 0, 1}, tj{5, 400000, 0, 1}, tj{5, 400500, 0, 1}, tj{5, 1000000, 0, 1}, tj{5, 1000100, 0, 1})
	pl, err := NewPlan(tr, Options{Model: Fluid})
	if err != nil {
		t.Fatal(err)
	}
	w, err := sim.Prepare(tr, sim.PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	src, err := pl.NewSource(w)
	if err != nil {
		t.Fatal(err)
	}
	m := src.z.model.(*fluid)
	want := map[int32]struct {
		win   []window
		cycle int64
	}{
		5: {[]window{{start: 400000, end: 400500}, {start: 1000000, end: 1000100}}, 2 * week},
		6: {[]window{{start: 10, end: 10}}, week},
	}
	for ui, u := range pl.Partition.Users {
		wu := want[u.ID]
		if !slices.Equal(m.orig[ui], wu.win) || !slices.Equal(m.win[ui], wu.win) || m.cycle[ui] != wu.cycle || m.shift[ui] != 0 {
			t.Errorf("user %d: windows %v (pending %v), cycle %d, shift %d; want %v, %d, 0", u.ID, m.orig[ui], m.win[ui], m.cycle[ui], m.shift[ui], wu.win, wu.cycle)
		}
	}
}
