package sched

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/sim"
)

// TestStepTreeMatchesProfile applies random additions, advances and
// searches to a stepTree and to the array profile and requires the same
// steps after every change and the same answers to every search.
func TestStepTreeMatchesProfile(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		procs := rapid.IntRange(1, 40).Draw(rt, "procs")
		horizon := sim.Time(rapid.IntRange(5, 400).Draw(rt, "horizon"))
		arr := newProfile(procs)
		var tree stepTree
		tree.reset(procs, 0)
		now := sim.Time(0)
		time := func(label string) sim.Time {
			if rapid.IntRange(0, 9).Draw(rt, label+"-forever") == 0 {
				return math.MaxInt64
			}
			return now + sim.Time(rapid.IntRange(-3, int(horizon)).Draw(rt, label))
		}
		n := rapid.IntRange(1, 300).Draw(rt, "ops")
		for i := 0; i < n; i++ {
			switch rapid.IntRange(0, 4).Draw(rt, "op") {
			case 0, 1:
				from := now + sim.Time(rapid.IntRange(-3, int(horizon)).Draw(rt, "from"))
				to := time("to")
				d := int32(rapid.IntRange(-procs, procs).Draw(rt, "delta"))
				// (profile reports -1 for any count below 0; real counts never are)
				if got, want := max(tree.add(from, to, d), -1), arr.add(from, to, d); got != want {
					rt.Fatalf("add(%d, %d, %d): most %d, profile %d", from, to, d, got, want)
				}
			case 2:
				now += sim.Time(rapid.IntRange(0, int(horizon)/4+1).Draw(rt, "advance"))
				tree.advance(now)
				arr.advance(now)
			case 3:
				from := now + sim.Time(rapid.IntRange(-3, int(horizon)).Draw(rt, "from"))
				procs := int32(rapid.IntRange(0, procs+1).Draw(rt, "procs"))
				dur := sim.Time(rapid.IntRange(1, int(horizon)).Draw(rt, "dur"))
				if got, want := tree.find(from, procs, dur), arr.find(from, procs, dur, math.MaxInt64); got != want {
					rt.Fatalf("find(%d, %d, %d) = %d, profile %d", from, procs, dur, got, want)
				}
			case 4:
				from := now + sim.Time(rapid.IntRange(-3, int(horizon)).Draw(rt, "from"))
				procs := int32(rapid.IntRange(0, procs+1).Draw(rt, "procs"))
				dur := sim.Time(rapid.IntRange(1, int(horizon)).Draw(rt, "dur"))
				limit := time("limit")
				if limit < from {
					limit = from
				}
				until := from + sim.Time(rapid.IntRange(0, int(horizon)).Draw(rt, "until"))
				until = min(until, limit)
				if got, want := tree.findBefore(from, procs, dur, until, limit), arr.findBefore(from, procs, dur, until, limit); got != want {
					rt.Fatalf("findBefore(%d, %d, %d, %d, %d) = %d, profile %d", from, procs, dur, until, limit, got, want)
				}
			}
			ts, fs := tree.steps()
			if !slices.Equal(ts, arr.t) || !slices.Equal(fs, arr.free) {
				rt.Fatalf("steps\n%v %v\nprofile\n%v %v", ts, fs, arr.t, arr.free)
			}
			if tree.t0 != arr.t[0] {
				rt.Fatalf("t0 %d, profile %d", tree.t0, arr.t[0])
			}
		}
	})
}
