package sched_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sched/schedtest"
	"github.com/hpcwl/hpcwl/sim"
)

func factory(t interface{ Fatal(...any) }, name string) schedtest.Factory {
	if _, err := sched.New(name); err != nil {
		t.Fatal(err)
	}
	return func() sim.Scheduler { s, _ := sched.New(name); return s }
}

// TestConformance runs every registered scheduler through the shared
// invariants on random workloads, with overrunning jobs, with and without
// killing them, and under each reference predictor.
func TestConformance(t *testing.T) {
	for _, name := range sched.Names() {
		f := factory(t, name)
		t.Run(name, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				c := schedtest.Workload(rt, false)
				c.Kill = rapid.Bool().Draw(rt, "kill")
				c.PassEveryEvent = rapid.Bool().Draw(rt, "every-event")
				switch rapid.IntRange(0, 2).Draw(rt, "predictor") {
				case 1:
					c.Predictor = sim.Perfect{}
				case 2:
					c.Predictor = sim.Constant{Value: 1}
				}
				if err := schedtest.Check(c, f, false); err != nil {
					rt.Fatal(err)
				}
			})
		})
	}
}

// TestReservationsKept checks the guarantees of the backfilling schedulers
// when predictions are upper bounds of the runtimes (requested times that
// are never exceeded, or killing at them): EASY, SJBF and EASY with doubled
// estimates never start the oldest waiting job after the shadow time they
// computed for it (Maui: the highest-priority one); Flex never starts a job
// after its latest start (planned start on arrival plus slack);
// conservative backfilling never starts any job after a
// reservation it gave, and never moves a reservation later.
func TestReservationsKept(t *testing.T) {
	for _, name := range []string{"easy", "easy-x2", "sjbf", "conservative", "maui", "flex"} {
		f := factory(t, name)
		t.Run(name, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				exact := rapid.Bool().Draw(rt, "exact")
				c := schedtest.Workload(rt, exact)
				c.Kill = !exact
				c.PassEveryEvent = rapid.Bool().Draw(rt, "every-event")
				if err := schedtest.Check(c, f, true); err != nil {
					rt.Fatal(err)
				}
				if name == "conservative" {
					_, _, moved, err := schedtest.Run(c, f)
					if err != nil {
						rt.Fatal(err)
					}
					if len(moved) > 0 {
						rt.Fatalf("reservations of jobs %v moved later", moved)
					}
				}
			})
		})
	}
}

// TestFCFSOrder checks that FCFS starts jobs in arrival order.
func TestFCFSOrder(t *testing.T) {
	f := factory(t, "fcfs")
	rapid.Check(t, func(rt *rapid.T) {
		c := schedtest.Workload(rt, false)
		res, _, _, err := schedtest.Run(c, f)
		if err != nil {
			rt.Fatal(err)
		}
		for i := 1; i < len(res.Jobs); i++ {
			if res.Jobs[i].Start < res.Jobs[i-1].Start {
				rt.Fatalf("job %d starts at %d before the earlier job %d at %d",
					res.Jobs[i].ID, res.Jobs[i].Start, res.Jobs[i-1].ID, res.Jobs[i-1].Start)
			}
			if res.Jobs[i].Backfilled {
				rt.Fatalf("FCFS backfilled job %d", res.Jobs[i].ID)
			}
		}
	})
}

// TestEASYNoBetterThanFCFSHead checks that EASY with exact estimates
// never makes the FCFS-order job that heads the queue wait longer than
// under its reservation, the same as TestReservationsKept, plus that EASY
// and conservative schedules never exceed the machine when many jobs start
// at the same instant (P = 1 machines).
func TestSingleProcessor(t *testing.T) {
	for _, name := range sched.Names() {
		f := factory(t, name)
		rapid.Check(t, func(rt *rapid.T) {
			c := schedtest.Workload(rt, false)
			c.Procs = 1
			for i := range c.Jobs {
				c.Jobs[i].Procs = 1
			}
			if err := schedtest.Check(c, f, false); err != nil {
				rt.Fatalf("%s: %v", name, err)
			}
		})
	}
}
