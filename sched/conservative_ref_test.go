package sched

// A textbook conservative backfilling scheduler written from its
// definition (Mu'alem & Feitelson 2001, and the pyss simulator of
// Feitelson's group), with nothing shared with Conservative beyond the
// engine's interface: the plan is a plain sorted list of (time, free
// processors) steps; a job arriving takes the earliest slot where it fits
// for its whole planned duration; at every pass where a job ended, every
// waiting job in arrival order drops its reservation and takes the earliest
// slot where it now fits. Deliberately simple and slow. When a prediction
// changes (a running job outlived it: a deadline miss), the plan is made
// again from nothing, as Conservative's documentation states the rule: the
// running jobs hold their processors until their new planned ends, and the
// waiting jobs, in order of their previous reservations (ties by arrival),
// each take the earliest slot where they fit.

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/sched/schedtest"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

type step struct {
	at   sim.Time
	free int
}

type textbookConservative struct {
	factor  float64
	steps   []step // steps[i].free processors free on [steps[i].at, steps[i+1].at)
	fresh   []sim.Ref
	waiting []sim.Ref // arrival order
	start   map[sim.Ref]sim.Time
	length  map[sim.Ref]sim.Time
	endPlan map[sim.Ref]sim.Time // planned end of running jobs
	ended   bool
	rebuild bool
}

func newTextbook(factor float64) *textbookConservative {
	return &textbookConservative{factor: factor, start: map[sim.Ref]sim.Time{},
		length: map[sim.Ref]sim.Time{}, endPlan: map[sim.Ref]sim.Time{}}
}

// freeAt returns the free processors at time x.
func (s *textbookConservative) freeAt(x sim.Time) int {
	f := s.steps[0].free
	for _, st := range s.steps {
		if st.at > x {
			break
		}
		f = st.free
	}
	return f
}

// change adds d free processors on [a, b).
func (s *textbookConservative) change(a, b sim.Time, d int) {
	for _, x := range []sim.Time{a, b} {
		i := slices.IndexFunc(s.steps, func(st step) bool { return st.at >= x })
		if i >= 0 && s.steps[i].at == x {
			continue
		}
		f := s.freeAt(x)
		if i < 0 {
			s.steps = append(s.steps, step{x, f})
		} else {
			s.steps = slices.Insert(s.steps, i, step{x, f})
		}
	}
	for i := range s.steps {
		if s.steps[i].at >= a && s.steps[i].at < b {
			s.steps[i].free += d
		}
	}
}

// earliest returns the first time >= now where p processors are free for l:
// a sweep over the steps, restarting after every step with too few.
func (s *textbookConservative) earliest(now, l sim.Time, p int) sim.Time {
	cand := now
	for i, st := range s.steps {
		end := sim.Time(math.MaxInt64)
		if i+1 < len(s.steps) {
			end = s.steps[i+1].at
		}
		if end <= cand {
			continue
		}
		if st.free < p {
			cand = end
			continue
		}
		if end-cand >= l {
			return cand
		}
	}
	panic("no slot: the profile ends with every processor free")
}

func (s *textbookConservative) Notify(v *sim.View, n sim.Notice) {
	if s.steps == nil {
		s.steps = []step{{math.MinInt64, v.Procs()}}
	}
	switch n.Kind {
	case sim.Arrived:
		s.fresh = append(s.fresh, n.Job)
	case sim.Ended:
		if e := s.endPlan[n.Job]; v.Now() < e {
			s.change(v.Now(), e, v.Size(n.Job))
		}
		delete(s.endPlan, n.Job)
		s.ended = true
	case sim.PredictionChanged:
		s.rebuild = true
	}
}

func (s *textbookConservative) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	now := v.Now()
	plan := func(r sim.Ref) sim.Time { return max(1, planned(v.Prediction(r), s.factor)) }
	if s.rebuild {
		s.steps = []step{{math.MinInt64, v.Procs()}}
		for r := range s.endPlan {
			s.endPlan[r] = max(v.Start(r)+plan(r), now+1)
			s.change(now, s.endPlan[r], -v.Size(r))
		}
		order := slices.Clone(s.waiting)
		slices.SortStableFunc(order, func(a, b sim.Ref) int { return cmp.Compare(s.start[a], s.start[b]) })
		for _, r := range order {
			s.length[r] = plan(r)
			s.start[r] = s.earliest(now, s.length[r], v.Size(r))
			s.change(s.start[r], s.start[r]+s.length[r], -v.Size(r))
		}
		s.rebuild, s.ended = false, false
	}
	if s.ended {
		for _, r := range s.waiting {
			p, l := v.Size(r), s.length[r]
			s.change(s.start[r], s.start[r]+l, p)
			s.start[r] = s.earliest(now, l, p)
			s.change(s.start[r], s.start[r]+l, -p)
		}
		s.ended = false
	}
	for _, r := range s.fresh {
		l := plan(r)
		s.length[r] = l
		s.start[r] = s.earliest(now, l, v.Size(r))
		s.change(s.start[r], s.start[r]+l, -v.Size(r))
		s.waiting = append(s.waiting, r)
	}
	s.fresh = s.fresh[:0]
	rest := s.waiting[:0]
	for _, r := range s.waiting {
		if s.start[r] <= now {
			dst = append(dst, r)
			s.endPlan[r] = now + s.length[r]
			continue
		}
		rest = append(rest, r)
	}
	s.waiting = rest
	// forget the past
	for len(s.steps) > 1 && s.steps[1].at <= now {
		s.steps = s.steps[1:]
	}
	return dst
}

func (s *textbookConservative) Reservation(r sim.Ref) (sim.Time, bool) {
	if slices.Contains(s.waiting, r) {
		return s.start[r], true
	}
	return 0, false
}

// runBoth simulates c under Conservative and the textbook reference and
// returns both schedules.
func runBoth(tb interface{ Fatal(...any) }, c schedtest.Case, factor float64) (got, want []schedtest.Line) {
	run := func(s sim.Scheduler) []schedtest.Line {
		res, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(c.Jobs)), s,
			sim.Config{Procs: c.Procs, Kill: c.Kill, Predictor: c.Predictor})
		if err != nil {
			tb.Fatal(err)
		}
		return schedtest.Schedule(res)
	}
	return run(NewConservative(factor)), run(newTextbook(factor))
}

// TestConservativeMatchesTextbook requires Conservative to give the same
// schedules as the textbook reference on random workloads with ties (equal
// submit times, equal ends, zero runtimes), with jobs killed at their
// requested time or running past it (deadline misses, which rebuild the
// plan), with requested-time or perfect predictions and estimate factors 1
// and 2.
func TestConservativeMatchesTextbook(t *testing.T) {
	check := func(rt *rapid.T, c schedtest.Case) {
		c.Kill = rapid.Bool().Draw(rt, "kill")
		if rapid.Bool().Draw(rt, "perfect") {
			c.Predictor = sim.Perfect{}
		}
		factor := float64(rapid.IntRange(0, 2).Draw(rt, "factor"))
		if got, want := runBoth(rt, c, factor); !slices.Equal(got, want) {
			rt.Fatalf("factor %v: schedule\n%v\ntextbook\n%v", factor, got, want)
		}
	}
	t.Run("small", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) {
			c := schedtest.Workload(rt, false)
			check(rt, c)
			// and the reservations of the waiting jobs after every pass
			c.Kill = true
			reservations := func(s sim.Scheduler) []string {
				rec := &reservationLog{Scheduler: s, of: s.(sim.Reserver)}
				if _, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(c.Jobs)), rec,
					sim.Config{Procs: c.Procs, Kill: true}); err != nil {
					rt.Fatal(err)
				}
				return rec.log
			}
			if got, want := reservations(NewConservative(0)), reservations(newTextbook(0)); !slices.Equal(got, want) {
				rt.Fatalf("reservations\n%v\ntextbook\n%v", got, want)
			}
		})
	})
	t.Run("long-queues", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) { check(rt, longQueue(rt, 250)) })
	})
}

// TestConservativeTextbookRealLogs replays the whole of KTH-SP2 and
// SDSC-SP2, killed at their requested times, and KTH-SP2 with jobs running
// past them (deadline misses), under Conservative and the textbook
// reference and counts the jobs whose start times differ: none may.
func TestConservativeTextbookRealLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("real logs skipped in -short mode")
	}
	for _, run := range []struct {
		file string
		kill bool
	}{{"KTH-SP2-1996-2.1-cln.swf.gz", true}, {"SDSC-SP2-1998-4.2-cln.swf.gz", true}, {"KTH-SP2-1996-2.1-cln.swf.gz", false}} {
		file := run.file
		name := file
		if !run.kill {
			name += "/overruns"
		}
		t.Run(name, func(t *testing.T) {
			tr, err := trace.Load(testdata.Path(t, file), trace.Options{})
			if err != nil {
				t.Fatal(err)
			}
			w, err := sim.Prepare(tr, sim.PrepareOptions{})
			if err != nil {
				t.Fatal(err)
			}
			t0 := time.Now()
			got, want := runBoth(t, schedtest.Case{Procs: w.Procs, Jobs: prefix(w.Jobs), Kill: run.kill}, 0)
			diff := 0
			for i := range got {
				if got[i] != want[i] {
					if diff < 5 {
						t.Errorf("job %d: start %d, textbook %d", got[i].ID, got[i].Start, want[i].Start)
					}
					diff++
				}
			}
			t.Logf("%s: %d jobs, %d start times differ from the textbook (%.1f s)", file, len(got), diff, time.Since(t0).Seconds())
			if diff > 0 {
				t.Errorf("%d of %d start times differ", diff, len(got))
			}
		})
	}
}

// reservationLog records, after every pass of the scheduler it wraps, the
// reservation of every job that has one, as "now job start".
type reservationLog struct {
	sim.Scheduler
	of  sim.Reserver
	log []string
}

func (l *reservationLog) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	dst = l.Scheduler.Schedule(v, dst)
	for r := v.FirstLive(); int(r) < v.NumJobs(); r++ {
		if t, ok := l.of.Reservation(r); ok && !slices.Contains(dst, r) {
			l.log = append(l.log, fmt.Sprint(v.Now(), " ", v.ID(r), " ", t))
		}
	}
	return dst
}

// Restore is the textbook's reading of taking over a simulation in
// progress: the running jobs hold their processors until their planned
// ends (at least a second from now), and the waiting jobs, in arrival
// order, take the earliest slots where they fit at the next pass.
func (s *textbookConservative) Restore(v *sim.View) {
	now := v.Now()
	s.steps = []step{{math.MinInt64, v.Procs()}}
	s.fresh, s.waiting = s.fresh[:0], s.waiting[:0]
	clear(s.start)
	clear(s.length)
	clear(s.endPlan)
	s.ended, s.rebuild = false, false
	for r := v.FirstLive(); int(r) < v.NumJobs(); r++ {
		switch {
		case v.Running(r):
			s.endPlan[r] = max(v.Start(r)+max(1, planned(v.Prediction(r), s.factor)), now+1)
			s.change(now, s.endPlan[r], -v.Size(r))
		case v.Waiting(r):
			s.fresh = append(s.fresh, r)
		}
	}
}

// takeOver runs base and, at its first pass at or after at, forks one
// shadow of the run under each of the schedulers made by mk and runs them
// to the end.
type takeOver struct {
	sim.Scheduler
	at      sim.Time
	mk      []func() sim.Restorer
	shadows []*sim.Shadow
	err     error
}

func (t *takeOver) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	if t.shadows == nil && v.Now() >= t.at {
		for _, mk := range t.mk {
			sh := sim.Fork(v, mk())
			if err := sh.AdvanceTo(1 << 50); err != nil && t.err == nil {
				t.err = err
			}
			t.shadows = append(t.shadows, sh)
		}
	}
	return t.Scheduler.Schedule(v, dst)
}

// compareTakeOver lets FCFS run c until its first pass at or after at, and
// then the two schedulers mk makes (the one tested and its reference) each
// take over a copy of that state: both must start every job at the same
// time. what prefixes the failure's message.
func compareTakeOver(rt *rapid.T, c schedtest.Case, at sim.Time, what string, mk ...func() sim.Restorer) {
	to := &takeOver{Scheduler: NewFCFS(), at: at, mk: mk}
	if _, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(c.Jobs)), to,
		sim.Config{Procs: c.Procs, Kill: c.Kill}); err != nil {
		rt.Fatal(err)
	}
	if to.err != nil {
		rt.Fatal(to.err)
	}
	if to.shadows == nil {
		return
	}
	got, want := to.shadows[0].Jobs(), to.shadows[1].Jobs()
	for i := range got {
		if got[i].Start != want[i].Start {
			rt.Fatalf("%sjob %d starts at %d after the take-over at %d, the reference at %d", what, got[i].ID, got[i].Start, at, want[i].Start)
		}
	}
}

// TestConservativeRestoreMatchesTextbook lets FCFS run a random workload
// until its last arrival and conservative take over from there: the
// schedule must be the textbook's taking over the same state (running
// jobs, some killed or overrunning, and a queue).
func TestConservativeRestoreMatchesTextbook(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := schedtest.Workload(rt, false)
		if len(c.Jobs) == 0 {
			return
		}
		c.Kill = rapid.Bool().Draw(rt, "kill")
		compareTakeOver(rt, c, c.Jobs[len(c.Jobs)-1].Submit, "",
			func() sim.Restorer { return NewConservative(0) }, func() sim.Restorer { return newTextbook(0) })
	})
}
