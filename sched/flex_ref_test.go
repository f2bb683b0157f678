package sched

// A textbook Flex (slack-based backfilling, Talby & Feitelson 1999) written
// from the rules of Flex's documentation, sharing nothing with Flex beyond
// the engine's interface: the plan is the textbook conservative
// scheduler's plain list of steps, every schedule tried on an arrival is
// built from a copy of it, and the queue is re-sorted by a full sort.
// Deliberately simple and slow.

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/sched/schedtest"
	"github.com/hpcwl/hpcwl/sim"
)

type textbookFlex struct {
	sf, factor float64
	plan       *textbookConservative // only its steps and their operations
	fresh      []sim.Ref
	waiting    []sim.Ref // any order; sorted by (reservation, ref) when read
	res, late  map[sim.Ref]sim.Time
	length     map[sim.Ref]sim.Time // planned duration of waiting jobs
	endPlan    map[sim.Ref]sim.Time // planned end of running jobs
	waitSum    sim.Time             // total wait of the jobs started
	started    int                  // and their number
	ended      bool
	rebuild    bool
}

func newTextbookFlex(sf, factor float64) *textbookFlex {
	return &textbookFlex{sf: sf, factor: factor, res: map[sim.Ref]sim.Time{}, late: map[sim.Ref]sim.Time{},
		length: map[sim.Ref]sim.Time{}, endPlan: map[sim.Ref]sim.Time{}}
}

func (s *textbookFlex) Name() string { return "textbook-flex" }

func (s *textbookFlex) Notify(v *sim.View, n sim.Notice) {
	if s.plan == nil {
		s.plan = &textbookConservative{steps: []step{{math.MinInt64, v.Procs()}}}
	}
	switch n.Kind {
	case sim.Arrived:
		s.fresh = append(s.fresh, n.Job)
	case sim.Ended:
		if e := s.endPlan[n.Job]; v.Now() < e {
			s.plan.change(v.Now(), e, v.Size(n.Job))
			s.ended = true
		}
		delete(s.endPlan, n.Job)
	case sim.PredictionChanged:
		s.rebuild = true
	}
}

// queue returns the waiting jobs by (reservation, ref).
func (s *textbookFlex) queue() []sim.Ref {
	q := slices.Clone(s.waiting)
	slices.SortFunc(q, func(a, b sim.Ref) int { return cmp.Or(cmp.Compare(s.res[a], s.res[b]), cmp.Compare(a, b)) })
	return q
}

func (s *textbookFlex) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	now := v.Now()
	if s.plan == nil {
		s.plan = &textbookConservative{steps: []step{{math.MinInt64, v.Procs()}}}
	}
	length := func(r sim.Ref) sim.Time { return max(1, planned(v.Prediction(r), s.factor)) }
	switch {
	case s.rebuild:
		// Running jobs until their new planned ends, then every waiting
		// job in order of its previous reservation, each at its earliest.
		s.plan.steps = []step{{math.MinInt64, v.Procs()}}
		for r := range s.endPlan {
			s.endPlan[r] = max(v.Start(r)+length(r), now+1)
			s.plan.change(now, s.endPlan[r], -v.Size(r))
		}
		for _, r := range s.queue() {
			s.length[r] = length(r)
			s.res[r] = s.plan.earliest(now, s.length[r], v.Size(r))
			s.plan.change(s.res[r], s.res[r]+s.length[r], -v.Size(r))
		}
	case s.ended:
		// Compression: in order of reservation, each job as early as it
		// now fits.
		for _, r := range s.queue() {
			p, l := v.Size(r), s.length[r]
			s.plan.change(s.res[r], s.res[r]+l, p)
			s.res[r] = s.plan.earliest(now, l, p)
			s.plan.change(s.res[r], s.res[r]+l, -p)
		}
	}
	s.rebuild, s.ended = false, false
	for _, r := range s.fresh {
		s.arrive(v, r, length(r))
	}
	s.fresh = s.fresh[:0]
	free := v.Free()
	rest := s.waiting[:0]
	for _, r := range s.queue() {
		if s.res[r] <= now && v.Size(r) <= free {
			free -= v.Size(r)
			dst = append(dst, r)
			s.endPlan[r] = now + s.length[r]
			s.waitSum += now - v.Submit(r)
			s.started++
			continue
		}
		rest = append(rest, r)
	}
	s.waiting = rest
	return dst
}

// arrive tries new job r at every position of the queue by reservation:
// the jobs ahead keep their reservations, r and then the jobs from the
// position on, in order, take their earliest starts. A schedule is legal
// if no job already waiting starts after its latest start; the legal one
// of least total planned wait wins, ties to the latest position; a
// position where r would start no earlier than at the end is not tried.
func (s *textbookFlex) arrive(v *sim.View, r sim.Ref, l sim.Time) {
	now := v.Now()
	slack := sim.Time(0)
	if s.started > 0 && s.sf != 0 {
		slack = sim.Time(math.Round(s.sf * float64(s.waitSum) / float64(s.started)))
	}
	q := s.queue()
	total := func(res map[sim.Ref]sim.Time) sim.Time {
		t := res[r] - now
		for _, x := range q {
			t += res[x] - now
		}
		return t
	}
	s.length[r] = l
	best := map[sim.Ref]sim.Time{}
	for _, x := range q {
		best[x] = s.res[x]
	}
	best[r] = s.plan.earliest(now, l, v.Size(r))
	bestSteps := slices.Clone(s.plan.steps)
	bestSteps = withJob(bestSteps, best[r], l, -v.Size(r))
	tLast := best[r]
	for k := len(q) - 1; k >= 0; k-- {
		trial := &textbookConservative{steps: slices.Clone(s.plan.steps)}
		for _, x := range q[k:] {
			trial.change(s.res[x], s.res[x]+s.length[x], v.Size(x))
		}
		res := map[sim.Ref]sim.Time{}
		for _, x := range q[:k] {
			res[x] = s.res[x]
		}
		res[r] = trial.earliest(now, l, v.Size(r))
		if res[r] >= tLast {
			continue
		}
		trial.change(res[r], res[r]+l, -v.Size(r))
		legal := true
		for _, x := range q[k:] {
			res[x] = trial.earliest(now, s.length[x], v.Size(x))
			if res[x] > s.late[x] {
				legal = false
				break
			}
			trial.change(res[x], res[x]+s.length[x], -v.Size(x))
		}
		if legal && total(res) < total(best) {
			best, bestSteps = res, trial.steps
		}
	}
	s.plan.steps = bestSteps
	for x, t := range best {
		s.res[x] = t
	}
	s.late[r] = s.res[r] + slack
	s.waiting = append(s.waiting, r)
}

// withJob returns steps with d processors added on [a, a+l).
func withJob(steps []step, a, l sim.Time, d int) []step {
	p := &textbookConservative{steps: steps}
	p.change(a, a+l, d)
	return p.steps
}

// Restore takes over a simulation in progress: the running jobs hold their
// processors until their planned ends (at least a second from now), the
// mean wait is that of the jobs the simulation started, and the waiting
// jobs arrive anew, in arrival order, at the next pass.
func (s *textbookFlex) Restore(v *sim.View) {
	now := v.Now()
	s.plan = &textbookConservative{steps: []step{{math.MinInt64, v.Procs()}}}
	s.fresh, s.waiting = s.fresh[:0], s.waiting[:0]
	clear(s.endPlan)
	s.ended, s.rebuild = false, false
	n, sum := v.StartedWaits()
	s.started, s.waitSum = n, sim.Time(sum)
	for r := v.FirstLive(); int(r) < v.NumJobs(); r++ {
		switch {
		case v.Running(r):
			s.endPlan[r] = max(v.Start(r)+max(1, planned(v.Prediction(r), s.factor)), now+1)
			s.plan.change(now, s.endPlan[r], -v.Size(r))
		case v.Waiting(r):
			s.fresh = append(s.fresh, r)
		}
	}
}

func (s *textbookFlex) Reservation(r sim.Ref) (sim.Time, bool) {
	if slices.Contains(s.waiting, r) {
		return s.late[r], true
	}
	return 0, false
}

// TestFlexMatchesTextbook requires Flex to give the same schedules, and
// the same latest starts after every pass, as the textbook Flex on random
// workloads with ties, slack factors 0 to 5, jobs ending early (killed at
// their requested time) or running past it (a deadline miss re-plans),
// requested-time or perfect predictions and estimate factors 1 and 2.
func TestFlexMatchesTextbook(t *testing.T) {
	t.Run("small", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) { flexMatches(rt, schedtest.Workload(rt, false)) })
	})
	t.Run("queues", func(t *testing.T) { rapid.Check(t, func(rt *rapid.T) { flexMatches(rt, flexQueue(rt)) }) })
}

// flexQueue draws a workload that keeps a queue of tens of jobs: up to 80
// jobs arriving 0-3 s apart, runtimes up to 200 s, requested times from 20
// s short to 100 s long, on 4-16 processors.
func flexQueue(t *rapid.T) schedtest.Case {
	procs := rapid.IntRange(4, 16).Draw(t, "procs")
	n := rapid.IntRange(20, 80).Draw(t, "jobs")
	c := schedtest.Case{Procs: procs}
	var now sim.Time
	for i := 0; i < n; i++ {
		now += sim.Time(rapid.IntRange(0, 3).Draw(t, "gap"))
		run := sim.Time(rapid.IntRange(0, 200).Draw(t, "runtime"))
		est := max(1, run+sim.Time(rapid.IntRange(-20, 100).Draw(t, "slack")))
		c.Jobs = append(c.Jobs, sim.Job{ID: int64(i + 1), Submit: now, Runtime: run, Estimate: est,
			Procs: int32(rapid.IntRange(1, procs).Draw(t, "procs")), Index: int32(i)})
	}
	return c
}

func flexMatches(rt *rapid.T, c schedtest.Case) {
	{
		c.Kill = rapid.Bool().Draw(rt, "kill")
		if rapid.Bool().Draw(rt, "perfect") {
			c.Predictor = sim.Perfect{}
		}
		sf := rapid.SampledFrom([]float64{0, 0.5, 1, 2, 5}).Draw(rt, "slack")
		factor := float64(rapid.IntRange(0, 2).Draw(rt, "factor"))
		run := func(s sim.Scheduler) ([]schedtest.Line, []string) {
			rec := &reservationLog{Scheduler: s, of: s.(sim.Reserver)}
			res, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(c.Jobs)), rec,
				sim.Config{Procs: c.Procs, Kill: c.Kill, Predictor: c.Predictor})
			if err != nil {
				rt.Fatal(err)
			}
			return schedtest.Schedule(res), rec.log
		}
		got, gotL := run(NewFlex(sf, factor))
		want, wantL := run(newTextbookFlex(sf, factor))
		if !slices.Equal(got, want) {
			rt.Fatalf("slack %v, factor %v: schedule\n%v\ntextbook\n%v", sf, factor, got, want)
		}
		if !slices.Equal(gotL, wantL) {
			rt.Fatalf("slack %v, factor %v: latest starts\n%v\ntextbook\n%v", sf, factor, gotL, wantL)
		}
	}
}

// TestFlexRestoreMatchesTextbook lets FCFS run a random workload until
// half of it has arrived and Flex take over from there (as the adaptive
// schedulers switch): the schedule must be the textbook Flex's taking over
// the same state.
func TestFlexRestoreMatchesTextbook(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := schedtest.Workload(rt, false)
		if len(c.Jobs) == 0 {
			return
		}
		c.Kill = rapid.Bool().Draw(rt, "kill")
		sf := rapid.SampledFrom([]float64{0, 1, 5}).Draw(rt, "slack")
		compareTakeOver(rt, c, c.Jobs[len(c.Jobs)/2].Submit, fmt.Sprintf("slack %v: ", sf),
			func() sim.Restorer { return NewFlex(sf, 0) }, func() sim.Restorer { return newTextbookFlex(sf, 0) })
	})
}
