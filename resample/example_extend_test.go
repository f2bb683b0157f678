package resample_test

import (
	"context"
	"fmt"

	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// A workload that prefers KTH-SP2's users of long jobs: a preferred user
// weighs 4, the others 1, in every draw of users.
func ExamplePreference() {
	t, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	pools, err := resample.Classify(t, resample.ClassifyOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	pref, err := resample.ParsePreference("runtime:high", 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	w, err := pools.Generate(resample.Options{Seed: 1, Prefer: pref})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %d of %d long-term users preferred\n", w.Params.Prefer, w.Params.PreferredLongTerm, len(pools.LongTerm))
	// Output:
	// runtime:high bias=4: 51 of 102 long-term users preferred
}

// KTH-SP2's weekly offered load is one stationary segment; resampling
// from it with the long-term users' relative timing kept makes a workload
// of any length.
func ExamplePools_WeeklySegments() {
	t, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	pools, err := resample.Classify(t, resample.ClassifyOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	segs, err := pools.WeeklySegments(t.Procs, resample.SegmentOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range segs {
		fmt.Printf("weeks %d-%d: mean load %.2f\n", s.FirstWeek, s.LastWeek, s.MeanLoad)
	}
	seg, err := pools.Segment(segs[resample.LongestSegment(segs)])
	if err != nil {
		fmt.Println(err)
		return
	}
	w, err := seg.Generate(resample.Options{Seed: 1, Duration: 5 * 52 * resample.Week, AlignLongTerm: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(w.Params.Weeks, "weeks generated")
	// Output:
	// weeks 0-48: mean load 0.68
	// 261 weeks generated
}

// Shaking KTH-SP2: every user's sub-trace moved by up to a minute, twice,
// under EASY.
func ExampleShakeRuns() {
	t, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := resample.ShakeRuns(context.Background(), t, resample.ShakeConfig{
		Shake:     resample.ShakeOptions{Unit: resample.ShakeUser, MaxShift: 60, Seed: 1},
		Runs:      2,
		Scheduler: func() sim.Scheduler { return sched.NewEASY(1) },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("original bounded slowdown %.2f; %d users moved in each of %d runs\n", r.Original.BoundedSlowdown, r.Moved, len(r.Variants))
	// Output:
	// original bounded slowdown 90.85; 214 users moved in each of 2 runs
}
