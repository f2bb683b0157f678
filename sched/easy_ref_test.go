package sched

// The EASY scheduler as it was before its queue held each job's size and
// planned duration inline: the reference TestEASYMatchesReference compares
// the current one with.

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/sched/schedtest"
	"github.com/hpcwl/hpcwl/sim"
)

type refEASY struct {
	factor  float64
	byPred  bool // SJBF: backfill in order of ascending prediction
	name    string
	queue   []sim.Ref // waiting jobs in arrival order
	sorted  keyList   // SJBF: waiting jobs by (planned duration, ref)
	key     []sim.Time
	runs    runList
	fresh   []sim.Ref // arrivals since the last pass
	dirty   bool      // a termination or prediction change since the last pass
	head    sim.Ref   // reserved job after the last pass, -1 if none
	shadow  sim.Time  // its shadow time (planned end of the pivot job), unclamped
	extra   int
	started []sim.Ref
}

func (s *refEASY) Notify(v *sim.View, n sim.Notice) {
	r := n.Job
	switch n.Kind {
	case sim.Arrived:
		s.queue = append(s.queue, r)
		s.fresh = append(s.fresh, r)
		if s.byPred {
			s.key = grow(s.key, r, 0)
			s.key[r] = planned(v.Prediction(r), s.factor)
			s.sorted.insert(s.key[r], r)
		}
	case sim.Ended:
		s.key = grow(s.key, r, 0)
		s.runs.remove(s.key[r], r)
		s.dirty = true
	case sim.PredictionChanged:
		s.key = grow(s.key, r, 0)
		k := planned(v.Prediction(r), s.factor)
		if v.Running(r) {
			s.runs.remove(s.key[r], r)
			s.key[r] = v.Start(r) + k
			s.runs.insert(running{end: s.key[r], ref: r, procs: int32(v.Size(r))})
		} else if s.byPred {
			s.sorted.remove(s.key[r], r)
			s.key[r] = k
			s.sorted.insert(k, r)
		}
		s.dirty = true
	}
}

func (s *refEASY) start(v *sim.View, r sim.Ref, dst []sim.Ref) []sim.Ref {
	s.key = grow(s.key, r, 0)
	if s.byPred {
		s.sorted.remove(s.key[r], r)
	}
	s.key[r] = v.Now() + planned(v.Prediction(r), s.factor)
	s.runs.insert(running{end: s.key[r], ref: r, procs: int32(v.Size(r))})
	return append(dst, r)
}

// Schedule implements [sim.Scheduler].
func (s *refEASY) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	now, free := v.Now(), v.Free()
	// 1. FCFS phase.
	i := 0
	for i < len(s.queue) && v.Size(s.queue[i]) <= free {
		free -= v.Size(s.queue[i])
		dst = s.start(v, s.queue[i], dst)
		i++
	}
	if i > 0 {
		s.queue = s.queue[i:]
		s.dirty = true
	}
	if len(s.queue) == 0 {
		s.head, s.fresh, s.dirty = -1, s.fresh[:0], false
		return dst
	}
	// 2. Shadow time and extra processors for the oldest waiting job.
	if s.dirty || s.head != s.queue[0] {
		s.head = s.queue[0]
		need := v.Size(s.head)
		freed := free
		s.shadow = math.MaxInt64
		for i, x := range s.runs.a {
			freed += int(x.procs)
			if freed >= need {
				s.shadow = x.end
				for _, y := range s.runs.a[i+1:] {
					if y.end > x.end {
						break
					}
					freed += int(y.procs)
				}
				break
			}
		}
		s.extra = freed - need
		if s.shadow == math.MaxInt64 {
			s.extra = 0
		}
		s.fresh = s.fresh[:0]
		if free > 0 {
			dst = s.backfill(v, now, free, dst, false)
		}
	} else if free > 0 && len(s.fresh) > 0 {
		dst = s.backfill(v, now, free, dst, true)
	}
	s.fresh, s.dirty = s.fresh[:0], false
	return dst
}

// backfill starts jobs other than the head that fit (step 3). With onlyFresh
// it examines only the jobs that arrived since the last pass.
func (s *refEASY) backfill(v *sim.View, now sim.Time, free int, dst []sim.Ref, onlyFresh bool) []sim.Ref {
	shadow := max(now, s.shadow)
	ok := func(r sim.Ref) bool {
		p := v.Size(r)
		if p > free {
			return false
		}
		if s.shadow == math.MaxInt64 || now+planned(v.Prediction(r), s.factor) <= shadow {
			free -= p
			return true
		}
		if p <= s.extra {
			free -= p
			s.extra -= p
			return true
		}
		return false
	}
	s.started = s.started[:0]
	if s.byPred {
		cands := s.sorted.a
		if onlyFresh {
			// fresh jobs in (key, ref) order
			cands = make([]keyed, 0, len(s.fresh))
			for _, r := range s.fresh {
				cands = append(cands, keyed{s.key[r], r})
			}
			sortKeyed(cands)
		}
		for _, c := range cands {
			if free == 0 {
				break
			}
			if c.ref != s.head && v.Waiting(c.ref) && ok(c.ref) {
				s.started = append(s.started, c.ref)
			}
		}
		for _, r := range s.started {
			dst = s.start(v, r, dst)
		}
		if len(s.started) > 0 {
			s.compactQueue(v, onlyFresh)
		}
		return dst
	}
	from := 1
	if onlyFresh {
		from = len(s.queue) - len(s.fresh)
	}
	w := from
	for k := from; k < len(s.queue); k++ {
		r := s.queue[k]
		if free > 0 && ok(r) {
			dst = s.start(v, r, dst)
			continue
		}
		s.queue[w] = r
		w++
	}
	s.queue = s.queue[:w]
	return dst
}

// compactQueue drops started jobs from the arrival-ordered queue (SJBF).
func (s *refEASY) compactQueue(v *sim.View, onlyFresh bool) {
	from := 1
	if onlyFresh {
		from = len(s.queue) - len(s.fresh)
	}
	started := s.started
	w := from
	for k := from; k < len(s.queue); k++ {
		r := s.queue[k]
		if contains(started, r) {
			continue
		}
		s.queue[w] = r
		w++
	}
	s.queue = s.queue[:w]
}

func (s *refEASY) Reservation(r sim.Ref) (sim.Time, bool) {
	if r != s.head || s.head < 0 || s.shadow == math.MaxInt64 {
		return 0, false
	}
	return s.shadow, true
}

// Name implements [sim.Scheduler].
func (s *refEASY) Name() string { return s.name }

// Restore takes over a simulation in progress: the waiting jobs in
// arrival order, the running jobs until their planned ends (start plus
// planned duration), and a full pass next.
func (s *refEASY) Restore(v *sim.View) {
	s.queue, s.runs.a, s.fresh, s.sorted.a = s.queue[:0], s.runs.a[:0], s.fresh[:0], s.sorted.a[:0]
	s.dirty, s.head = true, -1
	for r := v.FirstLive(); int(r) < v.NumJobs(); r++ {
		s.key = grow(s.key, r, 0)
		switch {
		case v.Waiting(r):
			s.queue = append(s.queue, r)
		case v.Running(r):
			s.key[r] = v.Start(r) + planned(v.Prediction(r), s.factor)
			s.runs.insert(running{end: s.key[r], ref: r, procs: int32(v.Size(r))})
		}
	}
}

// TestMauiRestoreMatchesReference lets FCFS run a random workload until
// half of it has arrived and Maui in its default configuration take over
// from there (as the adaptive schedulers switch): the schedule must be
// EASY's taking over the same state.
func TestMauiRestoreMatchesReference(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := schedtest.Workload(rt, false)
		if len(c.Jobs) == 0 {
			return
		}
		c.Kill = rapid.Bool().Draw(rt, "kill")
		factor := float64(rapid.IntRange(0, 2).Draw(rt, "factor"))
		compareTakeOver(rt, c, c.Jobs[len(c.Jobs)/2].Submit, fmt.Sprintf("factor %v: ", factor),
			func() sim.Restorer { return NewMaui(1, 0, factor) },
			func() sim.Restorer { return &refEASY{factor: factor, head: -1, dirty: true} })
	})
}

// reviser is a learning predictor for tests: on every end it revises the
// predictions of some waiting jobs, which a backfilling scheduler must
// take into account on its next pass.
type reviser struct{}

var _ sim.LearningPredictor = reviser{}

func (reviser) Predict(j *sim.Job) sim.Time { return j.Estimate }

func (reviser) Missed(_ *sim.Job, m sim.MissInfo) sim.Time { return m.Elapsed + 5 }

func (reviser) Arrived(_ *sim.View, _ sim.Ref, dst []sim.Update) []sim.Update { return dst }

func (reviser) Started(_ *sim.View, _ sim.Ref, dst []sim.Update) []sim.Update { return dst }

func (reviser) Ended(v *sim.View, r sim.Ref, dst []sim.Update) []sim.Update {
	for w := sim.Ref(0); int(w) < v.NumJobs(); w++ {
		if v.Waiting(w) && (w+r)%3 != 0 {
			dst = append(dst, sim.Update{Job: w, Prediction: v.Prediction(w)/2 + sim.Time(r%7)})
		}
	}
	return dst
}

// TestEASYMatchesReference runs EASY, EASY with doubled estimates and SJBF
// and their reference versions on random workloads, with overrunning jobs,
// killing or not, under the reference predictors and one that revises
// waiting jobs' predictions, and requires the same schedules.
func TestEASYMatchesReference(t *testing.T) {
	t.Run("small", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) { matchReference(rt, schedtest.Workload(rt, false)) })
	})
	// Queues of hundreds of jobs: several blocks of skip bounds, tombstones
	// and rebuilds.
	t.Run("long-queues", func(t *testing.T) { rapid.Check(t, func(rt *rapid.T) { matchReference(rt, longQueue(rt, 900)) }) })
}

// longQueue draws a workload that queues hundreds of jobs: 200 to maxJobs
// jobs arriving a few seconds apart on a machine of 4-32 processors.
func longQueue(t *rapid.T, maxJobs int) schedtest.Case {
	procs := rapid.IntRange(4, 32).Draw(t, "procs")
	n := rapid.IntRange(200, maxJobs).Draw(t, "jobs")
	c := schedtest.Case{Procs: procs}
	var now sim.Time
	for i := 0; i < n; i++ {
		now += sim.Time(rapid.IntRange(0, 3).Draw(t, "gap"))
		run := sim.Time(rapid.IntRange(0, 200).Draw(t, "runtime"))
		est := max(1, run+sim.Time(rapid.IntRange(-20, 100).Draw(t, "slack")))
		c.Jobs = append(c.Jobs, sim.Job{
			ID: int64(i + 1), Submit: now, Runtime: run, Estimate: est,
			Procs: int32(rapid.IntRange(1, procs).Draw(t, "procs")), User: int32(i % 5), Index: int32(i),
		})
	}
	return c
}

// matchReference runs c under EASY, EASY-x2 or SJBF and under its
// reference version, with a random predictor, and requires the same
// schedule.
func matchReference(rt *rapid.T, c schedtest.Case) {
	{
		c.Kill = rapid.Bool().Draw(rt, "kill")
		switch rapid.IntRange(0, 4).Draw(rt, "predictor") {
		case 1:
			c.Predictor = sim.Perfect{}
		case 2:
			c.Predictor = sim.Constant{Value: 1}
		case 3:
			c.Predictor = reviser{}
		case 4:
			c.Predictor = wobbler{}
		}
		factor := float64(rapid.IntRange(0, 2).Draw(rt, "factor"))
		byPred := rapid.Bool().Draw(rt, "sjbf")
		run := func(s sim.Scheduler) []schedtest.Line {
			res, err := sim.Run(context.Background(), sim.NewReplay(c.Jobs), s, sim.Config{Procs: c.Procs, Kill: c.Kill, Predictor: c.Predictor})
			if err != nil {
				rt.Fatal(err)
			}
			return schedtest.Schedule(res)
		}
		cur := NewEASY(factor)
		cur.byPred = byPred
		// 0: every pass jumps through the size index; 1 << 30: every
		// pass scans the queue.
		cur.scanMax = rapid.SampledFrom([]int{0, 3, scanMax, 1 << 30}).Draw(rt, "scanMax")
		ref := &refEASY{factor: factor, byPred: byPred, head: -1, dirty: true}
		if got, want := run(&checkedEASY{EASY: cur, t: rt}), run(ref); !slices.Equal(got, want) {
			rt.Fatalf("factor %v sjbf %v: schedule\n%v\nreference\n%v", factor, byPred, got, want)
		}
	}
}

// contains reports whether r is in a.
func contains(a []sim.Ref, r sim.Ref) bool {
	for _, x := range a {
		if x == r {
			return true
		}
	}
	return false
}
