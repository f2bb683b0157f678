package sched

// SJF as it was before its queue became a heap (a sorted slice, every
// insertion moving the tail): the reference TestSJFMatchesReference
// compares the current one with.

import (
	"context"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/sched/schedtest"
	"github.com/hpcwl/hpcwl/sim"
)

type refSJF struct {
	queue keyList
	key   []sim.Time
}

func (s *refSJF) Notify(v *sim.View, n sim.Notice) {
	switch n.Kind {
	case sim.Arrived:
		s.key = grow(s.key, n.Job, 0)
		s.key[n.Job] = v.Prediction(n.Job)
		s.queue.insert(s.key[n.Job], n.Job)
	case sim.PredictionChanged:
		if v.Waiting(n.Job) {
			s.queue.remove(s.key[n.Job], n.Job)
			s.key[n.Job] = v.Prediction(n.Job)
			s.queue.insert(s.key[n.Job], n.Job)
		}
	}
}

func (s *refSJF) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	free := v.Free()
	i := 0
	for i < len(s.queue.a) && v.Size(s.queue.a[i].ref) <= free {
		free -= v.Size(s.queue.a[i].ref)
		dst = append(dst, s.queue.a[i].ref)
		i++
	}
	if i > 0 {
		s.queue.a = append(s.queue.a[:0], s.queue.a[i:]...)
	}
	return dst
}

// TestSJFMatchesReference runs SJF and its reference version on random
// and saturated workloads with ties, killing or not, with requested-time,
// perfect, constant or revised predictions, and requires the same
// schedules.
func TestSJFMatchesReference(t *testing.T) {
	check := func(rt *rapid.T, c schedtest.Case) {
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
		run := func(s sim.Scheduler) []schedtest.Line {
			res, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(c.Jobs)), s,
				sim.Config{Procs: c.Procs, Kill: c.Kill, Predictor: c.Predictor})
			if err != nil {
				rt.Fatal(err)
			}
			return schedtest.Schedule(res)
		}
		if got, want := run(NewSJF()), run(&refSJF{}); !slices.Equal(got, want) {
			rt.Fatalf("schedule\n%v\nreference\n%v", got, want)
		}
	}
	t.Run("small", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) { check(rt, schedtest.Workload(rt, false)) })
	})
	t.Run("long-queues", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) { check(rt, longQueue(rt, 400)) })
	})
}

// wobbler is a learning predictor for tests that, on every end, raises the
// predictions of some waiting jobs and lowers others (reviser mostly
// lowers them).
type wobbler struct{ reviser }

var _ sim.LearningPredictor = wobbler{}

func (wobbler) Ended(v *sim.View, r sim.Ref, dst []sim.Update) []sim.Update {
	for w := sim.Ref(0); int(w) < v.NumJobs(); w++ {
		if !v.Waiting(w) {
			continue
		}
		switch (w + r) % 3 {
		case 0:
			dst = append(dst, sim.Update{Job: w, Prediction: v.Prediction(w)*3/2 + sim.Time(r%5)})
		case 1:
			dst = append(dst, sim.Update{Job: w, Prediction: v.Prediction(w) / 2})
		}
	}
	return dst
}
