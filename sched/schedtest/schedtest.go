// Package schedtest is the conformance harness every scheduler runs
// through: it simulates small workloads and checks the invariants that all
// schedulers must keep (no over-allocation, no start before arrival, every
// job runs exactly its runtime or is killed at its limit, reservations
// kept, determinism), and it generates random workloads for property tests
// with pgregory.net/rapid.
package schedtest

import (
	"context"
	"fmt"
	"slices"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/sim"
)

// Factory builds a fresh scheduler.
type Factory func() sim.Scheduler

// Case is a workload on a machine.
type Case struct {
	Procs     int
	Jobs      []sim.Job
	Kill      bool
	Predictor sim.Predictor
	// PassEveryEvent runs a scheduling pass after every single event
	// (sim.Config.PassEveryEvent).
	PassEveryEvent bool
}

// Run simulates c under a new scheduler from f, recording the reservations
// a [sim.Reserver] gives after every pass. It returns the result and, for
// each job ref, the earliest reservation it was ever given (-1 if none) and
// whether any reservation of a job ever moved later.
//
// After every pass it also counts the processors of the running jobs, and
// fails the run if they exceed the machine or disagree with View.Free.
func Run(c Case, f Factory) (res *sim.Result, earliest []sim.Time, movedLater []int64, err error) {
	s := f()
	rs, _ := s.(sim.Reserver)
	var last []sim.Time
	var usageErr error
	cfg := sim.Config{Procs: c.Procs, Kill: c.Kill, Predictor: c.Predictor, PassEveryEvent: c.PassEveryEvent}
	cfg.OnPass = func(v *sim.View, _ []sim.Ref) {
		used := 0
		for r := sim.Ref(0); int(r) < v.NumJobs(); r++ {
			if v.Running(r) {
				used += v.Size(r)
			}
		}
		if (used > v.Procs() || used != v.Procs()-v.Free()) && usageErr == nil {
			usageErr = fmt.Errorf("%d processors busy at %d on a machine of %d with %d free", used, v.Now(), v.Procs(), v.Free())
		}
		if rs != nil {
			for len(earliest) < v.NumJobs() {
				earliest = append(earliest, -1)
				last = append(last, -1)
			}
			for r := sim.Ref(0); int(r) < v.NumJobs(); r++ {
				if !v.Waiting(r) {
					continue
				}
				t, ok := rs.Reservation(r)
				if !ok {
					continue
				}
				if last[r] >= 0 && t > last[r] {
					movedLater = append(movedLater, v.ID(r))
				}
				last[r] = t
				if earliest[r] < 0 || t < earliest[r] {
					earliest[r] = t
				}
			}
		}
	}
	jobs := slices.Clone(c.Jobs)
	res, err = sim.Run(context.Background(), sim.NewReplay(jobs), s, cfg)
	if err == nil {
		err = usageErr
	}
	return res, earliest, movedLater, err
}

// Check runs c under f and returns the first broken invariant, or nil:
// every job starts at or after its arrival and runs exactly its runtime
// (or until its requested time with Kill); at no time are more than P
// processors busy; a second run gives the same schedule. With
// keepReservations, no job starts after the earliest reservation it was
// given.
func Check(c Case, f Factory, keepReservations bool) error {
	res, earliest, _, err := Run(c, f)
	if err != nil {
		return err
	}
	if len(res.Jobs) != len(c.Jobs) {
		return fmt.Errorf("%d jobs simulated, %d submitted", len(res.Jobs), len(c.Jobs))
	}
	for i := range res.Jobs {
		o := &res.Jobs[i]
		if o.Start < o.Submit {
			return fmt.Errorf("job %d starts at %d before its arrival %d", o.ID, o.Start, o.Submit)
		}
		want := o.Runtime
		if c.Kill && want > o.Estimate {
			want = o.Estimate
		}
		if o.End-o.Start != want {
			return fmt.Errorf("job %d ran %d s, want %d", o.ID, o.End-o.Start, want)
		}
		if keepReservations && i < len(earliest) && earliest[i] >= 0 && o.Start > earliest[i] {
			return fmt.Errorf("job %d starts at %d after its reservation %d", o.ID, o.Start, earliest[i])
		}
	}
	if t, used := MaxUsage(res); used > c.Procs {
		return fmt.Errorf("%d processors busy at %d on a machine of %d", used, t, c.Procs)
	}
	again, _, _, err := Run(c, f)
	if err != nil {
		return err
	}
	if !slices.Equal(Schedule(res), Schedule(again)) {
		return fmt.Errorf("two runs of the same input gave different schedules")
	}
	return nil
}

// MaxUsage returns the time of the highest processor usage and that usage.
// A job uses its processors on [Start, End); jobs of zero length use none
// (several may start and end one after another at the same instant; Run
// checks those at every pass).
func MaxUsage(res *sim.Result) (sim.Time, int) {
	type ev struct {
		t     sim.Time
		order int // ends before starts at the same time
		d     int
	}
	var evs []ev
	for i := range res.Jobs {
		o := &res.Jobs[i]
		if o.End == o.Start {
			continue
		}
		evs = append(evs, ev{o.Start, 1, int(o.Procs)}, ev{o.End, 0, -int(o.Procs)})
	}
	slices.SortFunc(evs, func(a, b ev) int {
		if a.t != b.t {
			return int(a.t - b.t)
		}
		return a.order - b.order
	})
	best, bt, cur := 0, sim.Time(0), 0
	for _, e := range evs {
		cur += e.d
		if cur > best {
			best, bt = cur, e.t
		}
	}
	return bt, best
}

// Line is one job of a schedule.
type Line struct {
	ID                 int64
	Submit, Start, End sim.Time
}

// Schedule returns the schedule of res ordered by job ID.
func Schedule(res *sim.Result) []Line {
	ls := make([]Line, len(res.Jobs))
	for i := range res.Jobs {
		o := &res.Jobs[i]
		ls[i] = Line{o.ID, o.Submit, o.Start, o.End}
	}
	slices.SortFunc(ls, func(a, b Line) int { return int(a.ID - b.ID) })
	return ls
}

// Workload draws a random small workload: a machine of 1-16 processors and
// up to 40 jobs with runtimes up to 60 s. With exact, every runtime is at
// most its requested time; otherwise some jobs overrun.
func Workload(t *rapid.T, exact bool) Case {
	procs := rapid.IntRange(1, 16).Draw(t, "procs")
	n := rapid.IntRange(0, 40).Draw(t, "jobs")
	c := Case{Procs: procs}
	var now sim.Time
	for i := 0; i < n; i++ {
		now += sim.Time(rapid.IntRange(0, 15).Draw(t, "gap"))
		run := sim.Time(rapid.IntRange(0, 60).Draw(t, "runtime"))
		est := run + sim.Time(rapid.IntRange(0, 40).Draw(t, "slack"))
		if !exact && rapid.IntRange(0, 3).Draw(t, "overrun") == 0 {
			est = max(1, run-sim.Time(rapid.IntRange(0, 30).Draw(t, "short")))
		}
		c.Jobs = append(c.Jobs, sim.Job{
			ID: int64(i + 1), Submit: now, Runtime: run, Estimate: max(est, 1),
			Procs: int32(rapid.IntRange(1, procs).Draw(t, "procs")), User: int32(i % 3), Index: int32(i),
		})
	}
	return c
}
