package sched_test

import (
	"context"
	"fmt"
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
			for r := v.FirstLive(); int(r) < v.NumJobs(); r++ {
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
