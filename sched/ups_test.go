package sched_test

import (
	"context"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sched/schedtest"
	"github.com/hpcwl/hpcwl/sim"
)

// TestUPSOneUserIsEASY checks that with a single user UPS schedules
// exactly as EASY, whatever alpha_user and the metric: every job then has
// the same user priority, so both the main pass (by Jpri, i.e. by wait)
// and backfilling (by user priority, then arrival) follow arrival order.
func TestUPSOneUserIsEASY(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := schedtest.Workload(rt, false)
		for i := range c.Jobs {
			c.Jobs[i].User = 7
		}
		alpha := rapid.SampledFrom([]float64{0, 0.25, 0.5, 1}).Draw(rt, "alpha")
		m := sched.UserMetric(rapid.IntRange(0, 1).Draw(rt, "metric"))
		easy, _, _, err := schedtest.Run(c, func() sim.Scheduler { return sched.NewEASY(0) })
		if err != nil {
			rt.Fatal(err)
		}
		ups, _, _, err := schedtest.Run(c, func() sim.Scheduler { return sched.NewUPS(alpha, m) })
		if err != nil {
			rt.Fatal(err)
		}
		if !slices.Equal(schedtest.Schedule(easy), schedtest.Schedule(ups)) {
			rt.Fatalf("UPS(%v, %v) differs from EASY:\n%v\n%v", alpha, m, schedtest.Schedule(ups), schedtest.Schedule(easy))
		}
	})
}

// TestUPSConformanceFullScan runs the full-scan variant and the extreme
// weights through the shared invariants.
func TestUPSConformanceFullScan(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := schedtest.Workload(rt, false)
		alpha := rapid.SampledFrom([]float64{0, 0.5, 1}).Draw(rt, "alpha")
		m := sched.UserMetric(rapid.IntRange(0, 1).Draw(rt, "metric"))
		full := rapid.Bool().Draw(rt, "full")
		f := func() sim.Scheduler { s := sched.NewUPS(alpha, m); s.SetFullScan(full); return s }
		if err := schedtest.Check(c, f, false); err != nil {
			rt.Fatal(err)
		}
	})
}

// TestUPSPriority works the priorities of Zakay's thesis, chapter 5,
// section V, by hand. A
// 4-processor machine is busy until 5 h. Job 2 (user 2, 4 processors,
// requested 1 h) waits from 1 s; job 3 (user 3, 4 processors, requested
// 0.5 h) arrives at 4.5 h. At 5 h user 3 has less work waiting (2 h x
// proc vs 4), so it ranks first by load (Upri 1) and user 2 second (0.5).
//   - alpha_user 0.5: Jpri(2) = 0.25 + 0.5 x 5/4 = 0.875 > Jpri(3) = 0.5 +
//     0.5 x 0.5/4 = 0.5625, so job 2 starts at 5 h and job 3 after it.
//   - alpha_user 1: Jpri(3) = 1 > Jpri(2) = 0.5, so job 3 starts first.
//   - recency, alpha_user 1: user 3 submitted last and ranks first too.
//   - alpha_user 0: arrival order, like EASY.
//   - alpha_user a weighs the two terms: Jpri(2) = a/2 + (1-a) 5/4 and
//     Jpri(3) = a + (1-a)/8 cross at a = 9/13 = 0.69, so job 2 starts first
//     at 0.65 (0.7625 > 0.6938) and job 3 at 0.75 (0.6875 < 0.7813).
func TestUPSPriority(t *testing.T) {
	const h = 3600
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 5 * h, Estimate: 5 * h, Procs: 4, User: 1, Index: 0},
		{ID: 2, Submit: 1, Runtime: h, Estimate: h, Procs: 4, User: 2, Index: 1},
		{ID: 3, Submit: 4*h + h/2, Runtime: h / 2, Estimate: h / 2, Procs: 4, User: 3, Index: 2},
	}
	tests := []struct {
		name           string
		alpha          float64
		m              sched.UserMetric
		start2, start3 sim.Time
	}{
		{"load 0.5", 0.5, sched.ByLoad, 5 * h, 6 * h},
		{"load 1", 1, sched.ByLoad, 5*h + h/2, 5 * h},
		{"recency 1", 1, sched.ByRecency, 5*h + h/2, 5 * h},
		{"load 0", 0, sched.ByLoad, 5 * h, 6 * h},
		{"load 0.65", 0.65, sched.ByLoad, 5 * h, 6 * h},
		{"load 0.75", 0.75, sched.ByLoad, 5*h + h/2, 5 * h},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(jobs)), sched.NewUPS(tc.alpha, tc.m), sim.Config{Procs: 4})
			if err != nil {
				t.Fatal(err)
			}
			s := map[int64]sim.Time{}
			for _, o := range res.Jobs {
				s[o.ID] = o.Start
			}
			if s[2] != tc.start2 || s[3] != tc.start3 {
				t.Errorf("job 2 starts at %d, job 3 at %d; want %d and %d", s[2], s[3], tc.start2, tc.start3)
			}
		})
	}
}

// TestUPSUserRank checks the two user metrics where they disagree. A
// 4-processor machine is busy until 5 h; user 2's job (1 processor,
// requested 1 h) arrives at 1 s and user 3's (4 processors, requested
// 0.5 h) at 2 s. By load (requested time x processors, smallest first)
// user 2 ranks first, 1 h x 1 < 0.5 h x 4: its job starts at 5 h and user
// 3's at 6 h. By recency user 3, who submitted last, ranks first: its job
// starts at 5 h and user 2's at 5.5 h.
func TestUPSUserRank(t *testing.T) {
	const h = 3600
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 5 * h, Estimate: 5 * h, Procs: 4, User: 1, Index: 0},
		{ID: 2, Submit: 1, Runtime: h, Estimate: h, Procs: 1, User: 2, Index: 1},
		{ID: 3, Submit: 2, Runtime: h / 2, Estimate: h / 2, Procs: 4, User: 3, Index: 2},
	}
	for _, tc := range []struct {
		m              sched.UserMetric
		start2, start3 sim.Time
	}{{sched.ByLoad, 5 * h, 6 * h}, {sched.ByRecency, 5*h + h/2, 5 * h}} {
		res, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(jobs)), sched.NewUPS(1, tc.m), sim.Config{Procs: 4})
		if err != nil {
			t.Fatal(err)
		}
		if s2, s3 := res.Jobs[1].Start, res.Jobs[2].Start; s2 != tc.start2 || s3 != tc.start3 {
			t.Errorf("%v: job 2 starts at %d, job 3 at %d; want %d and %d", tc.m, s2, s3, tc.start2, tc.start3)
		}
	}
}

// TestUPSTieToSmallerID: users 3 and 2 wait with the same load (4 h x
// processor each), user 3 first; the tie goes to user 2, the smaller ID,
// whose job starts at 5 h on 2 processors while user 3's, on 4, waits
// until 7 h.
func TestUPSTieToSmallerID(t *testing.T) {
	const h = 3600
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 5 * h, Estimate: 5 * h, Procs: 4, User: 1, Index: 0},
		{ID: 2, Submit: 1, Runtime: h, Estimate: h, Procs: 4, User: 3, Index: 1},
		{ID: 3, Submit: 2, Runtime: 2 * h, Estimate: 2 * h, Procs: 2, User: 2, Index: 2},
	}
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), sched.NewUPS(1, sched.ByLoad), sim.Config{Procs: 4})
	if err != nil {
		t.Fatal(err)
	}
	if s2, s3 := res.Jobs[1].Start, res.Jobs[2].Start; s2 != 7*h || s3 != 5*h {
		t.Errorf("user 3's job starts at %d, user 2's at %d; want %d and %d", s2, s3, 7*h, 5*h)
	}
}

// TestUPSBackfillsByUserRank: on 4 processors job 1 (user 1, 2
// processors) runs from 0 to 100; job 2 (user 2, 4 processors, 10 s, the
// least load) heads the queue from 1 s and gets the reservation at 100.
// Jobs 3 (user 3, 2 processors, 50 s) and 4 (user 4, 2 processors, 40 s)
// arrive together at 2 s and could each backfill; user 4 has less load
// (80 against 100 processor-seconds), ranks higher, and goes first: job 4
// runs from 2 s, job 3 from 42 s, job 2 at 100 s.
func TestUPSBackfillsByUserRank(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 2, User: 1, Index: 0},
		{ID: 2, Submit: 1, Runtime: 10, Estimate: 10, Procs: 4, User: 2, Index: 1},
		{ID: 3, Submit: 2, Runtime: 50, Estimate: 50, Procs: 2, User: 3, Index: 2},
		{ID: 4, Submit: 2, Runtime: 40, Estimate: 40, Procs: 2, User: 4, Index: 3},
	}
	if got, want := starts(t, jobs, sched.NewUPS(1, sched.ByLoad), 4), []sim.Time{0, 100, 42, 2}; !slices.Equal(got, want) {
		t.Errorf("starts %v, want %v", got, want)
	}
}

func TestUPSBadAlpha(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("alpha_user 1.5 did not panic")
		}
	}()
	sched.NewUPS(1.5, sched.ByLoad)
}

// TestUPSBackfillsToTheShadow: a job planned to end exactly at the shadow
// time does not use the extra processors. Job 1 holds 2 of 6 processors
// until 100; job 2 needs 5 and is reserved at 100 with 1 extra; job 3,
// arriving at 10 for 90 s on 2 processors, ends at the shadow time and
// starts at once, leaving the extra processor to job 4 (1 processor,
// 500 s, past the shadow), which starts at once too. One user: UPS then
// follows arrival order, as EASY.
func TestUPSBackfillsToTheShadow(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 2, User: 1, Index: 0},
		{ID: 2, Submit: 1, Runtime: 10, Estimate: 10, Procs: 5, User: 1, Index: 1},
		{ID: 3, Submit: 10, Runtime: 90, Estimate: 90, Procs: 2, User: 1, Index: 2},
		{ID: 4, Submit: 10, Runtime: 500, Estimate: 500, Procs: 1, User: 1, Index: 3},
	}
	for _, full := range []bool{false, true} {
		u := sched.NewUPS(0.5, sched.ByLoad)
		u.SetFullScan(full)
		if got, want := starts(t, jobs, u, 6), []sim.Time{0, 100, 10, 10}; !slices.Equal(got, want) {
			t.Errorf("full scan %v: starts %v, want %v", full, got, want)
		}
	}
}

// starts runs a copy of jobs under s on procs processors and returns each
// job's start time.
func starts(t *testing.T, jobs []sim.Job, s sim.Scheduler, procs int) []sim.Time {
	t.Helper()
	res, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(jobs)), s, sim.Config{Procs: procs})
	if err != nil {
		t.Fatal(err)
	}
	var got []sim.Time
	for _, o := range res.Jobs {
		got = append(got, o.Start)
	}
	return got
}
