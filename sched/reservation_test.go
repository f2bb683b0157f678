package sched_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
)

// TestEASYReservation: the schedulers with one reservation report it for
// the job that holds it, and for no other. P = 2: J1 (2 processors, 100 s)
// starts at 0; J2 (2, 10 s) at 5 is the first waiting job, reserved for
// J1's planned end 100; J3 (1, 1000 s) at 6 waits unreserved (nothing is
// free). At 100 J2 starts, J3 is then first and reserved for J2's end 110.
func TestEASYReservation(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 2},
		{ID: 2, Submit: 5, Runtime: 10, Estimate: 10, Procs: 2},
		{ID: 3, Submit: 6, Runtime: 1000, Estimate: 1000, Procs: 1},
	}
	want := []string{"5: J2 100", "6: J2 100", "100: J3 110"}
	easyWFP3, err := sched.NewEASYPriority("wfp3", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []interface {
		sim.Reserver
		Name() string
	}{sched.NewEASY(0), sched.NewSJBF(0), sched.NewMaui(1, 0, 0), sched.NewMaui(1, 5, 0), easyWFP3} {
		var got []string
		cfg := sim.Config{Procs: 2, OnPass: func(v *sim.View, started []sim.Ref) {
			for r := sim.Ref(0); int(r) < v.NumJobs(); r++ {
				at, ok := s.Reservation(r)
				if ok != v.Waiting(r) && ok {
					t.Errorf("%s: a reservation for job %d, which is not waiting", s.Name(), v.ID(r))
				}
				if ok {
					got = append(got, fmt.Sprintf("%d: J%d %d", v.Now(), v.ID(r), at))
				}
			}
		}}
		if _, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(jobs)), s, cfg); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: reservations %q, want %q", s.Name(), got, want)
		}
	}
}

// TestFlexPlanned works out Flex's planned and latest starts by hand on
// the flex-slack case (see TestFlexSlackThreshold) with slack factor 1: J3
// arrives at 110, planned at 200 (J2's end), with slack 50 (the mean wait
// of J1 and J2), so L3 = 250; J4 arrives at 120 and goes ahead of J3 (J4
// at 200, J3 at 250 <= L3: total planned wait 130 s instead of 180 s),
// L4 = 200 + 50. A job Flex does not know (ref 4, past the four) has
// neither, nor has any job after J3 has started at 250.
func TestFlexPlanned(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 10},
		{ID: 2, Submit: 0, Runtime: 100, Estimate: 100, Procs: 10},
		{ID: 3, Submit: 110, Runtime: 100, Estimate: 100, Procs: 10},
		{ID: 4, Submit: 120, Runtime: 50, Estimate: 50, Procs: 2},
	}
	f := sched.NewFlex(1, 0)
	var got []string
	cfg := sim.Config{Procs: 10, OnPass: func(v *sim.View, _ []sim.Ref) {
		if v.Now() != 120 && v.Now() != 250 {
			return
		}
		for r := sim.Ref(0); r <= 4; r++ {
			p, okP := f.Planned(r)
			l, okL := f.Reservation(r)
			got = append(got, fmt.Sprint(v.Now(), ": ", r, " ", p, okP, " ", l, okL))
		}
	}}
	if _, err := sim.Run(context.Background(), sim.NewReplay(jobs), f, cfg); err != nil {
		t.Fatal(err)
	}
	want := []string{"120: 0 0 false 0 false", "120: 1 0 false 0 false", "120: 2 250 true 250 true", "120: 3 200 true 250 true", "120: 4 0 false 0 false"}
	for r := range 5 {
		want = append(want, fmt.Sprint("250: ", r, " 0 false 0 false"))
	}
	if !slices.Equal(got, want) {
		t.Errorf("planned and latest starts at 120 and 250:\n%q\nwant\n%q", got, want)
	}
}

// TestMauiPriority works Maui's priority out by hand:
// QueueTimeWeight * (minutes waited) + XFactorWeight * (wait + planned) /
// planned. At 600, J2 (submitted at 60, 300 s) has waited 540 s: weights 2
// and 3 give 2 * 9 + 3 * 840 / 300 = 26.4; J3, just arrived (100 s), 3.
// With estimate factor 2 J2 plans 600 s: 18 + 3 * 1140 / 600 = 23.7.
func TestMauiPriority(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 1000, Estimate: 1000, Procs: 1},
		{ID: 2, Submit: 60, Runtime: 300, Estimate: 300, Procs: 1},
		{ID: 3, Submit: 600, Runtime: 100, Estimate: 100, Procs: 1},
	}
	for _, c := range []struct {
		factor float64
		j2, j3 float64
	}{{0, 26.4, 3}, {2, 23.7, 3}} {
		m := sched.NewMaui(2, 3, c.factor)
		var got []float64
		cfg := sim.Config{Procs: 1, OnPass: func(v *sim.View, _ []sim.Ref) {
			if v.Now() == 600 {
				got = []float64{m.Priority(v, 1), m.Priority(v, 2)}
			}
		}}
		if _, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(jobs)), m, cfg); err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || !(math.Abs(got[0]-c.j2) <= 1e-9) || !(math.Abs(got[1]-c.j3) <= 1e-9) {
			t.Errorf("factor %v: priorities of J2, J3 at 600: %v, want %v, %v", c.factor, got, c.j2, c.j3)
		}
	}
}

// TestEASYPriorityWait: the wait a priority function sees is now minus
// the submit time. P = 2, J1 runs 0-100 on both processors; J2 (submitted
// at 10) and J3 (at 90), 2 processors and 100 s each, wait. At 100 WFP3
// gives J2 (90/100)^3 * 2 = 1.458 and J3 (10/100)^3 * 2 = 0.002: J2 starts
// at 100, J3 at 200.
func TestEASYPriorityWait(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 2},
		{ID: 2, Submit: 10, Runtime: 100, Estimate: 100, Procs: 2},
		{ID: 3, Submit: 90, Runtime: 100, Estimate: 100, Procs: 2},
	}
	s, err := sched.NewEASYPriority("wfp3", 0)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), s, sim.Config{Procs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Jobs[1].Start != 100 || res.Jobs[2].Start != 200 {
		t.Errorf("J2 at %d, J3 at %d; want 100, 200", res.Jobs[1].Start, res.Jobs[2].Start)
	}
}

// TestBackfillEndsAtShadow: a job planned to end exactly at the shadow
// time is backfilled. P = 2: J1 (1 processor, 100 s) at 0; J2 (2) at 1
// waits, shadow time 100 with no extra processors; J3 (1, 98 s) at 2
// ends at 100 and starts at once.
func TestBackfillEndsAtShadow(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 1},
		{ID: 2, Submit: 1, Runtime: 10, Estimate: 10, Procs: 2},
		{ID: 3, Submit: 2, Runtime: 98, Estimate: 98, Procs: 1},
	}
	easyWFP3, err := sched.NewEASYPriority("wfp3", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []interface {
		sim.Scheduler
		Name() string
	}{sched.NewEASY(0), sched.NewSJBF(0), sched.NewMaui(1, 0, 0), sched.NewMaui(1, 5, 0), easyWFP3} {
		res, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(jobs)), s, sim.Config{Procs: 2})
		if err != nil {
			t.Fatal(err)
		}
		if res.Jobs[2].Start != 2 || res.Jobs[1].Start != 100 {
			t.Errorf("%s: J3 at %d, J2 at %d; want 2, 100", s.Name(), res.Jobs[2].Start, res.Jobs[1].Start)
		}
	}
}
