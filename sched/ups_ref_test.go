package sched

// UPS as it was before it kept each user's waiting jobs apart and merged
// them (sorting the whole queue at every pass): the reference
// TestUPSMatchesReference compares the current one with.

import (
	"context"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/sched/schedtest"
	"github.com/hpcwl/hpcwl/sim"
)

type refUPS struct {
	alpha    float64
	metric   UserMetric
	fullScan bool
	queue    []sim.Ref
	runs     runList
	end      []sim.Time // planned end of running jobs, by ref
	// Users are numbered densely in arrival order: ix maps a user ID to
	// its number, id the other way; user holds each job's number, by ref.
	ix   map[int32]int32
	id   []int32
	user []int32
	last []sim.Time // latest arrival, by user number
	// scratch, by user number
	load  []float64
	upri  []float64
	seen  []uint32
	pass  uint32
	users []int32
	order []refUPSJob
	rest  []sim.Ref
	cands []refUPSJob
	start []bool // by ref: started in this pass
}

type refUPSJob struct {
	ref    sim.Ref
	pri    float64
	submit sim.Time
}

// Notify implements [sim.Scheduler].
func (s *refUPS) Notify(v *sim.View, n sim.Notice) {
	r := n.Job
	switch n.Kind {
	case sim.Arrived:
		s.queue = append(s.queue, r)
		id := v.User(r)
		u, ok := s.ix[id]
		if !ok {
			u = int32(len(s.id))
			s.ix[id] = u
			s.id = append(s.id, id)
			s.last = append(s.last, 0)
			s.load = append(s.load, 0)
			s.upri = append(s.upri, 0)
			s.seen = append(s.seen, 0)
		}
		s.user = grow(s.user, r, 0)
		s.user[r] = u
		s.last[u] = max(s.last[u], v.Submit(r))
	case sim.Ended:
		s.end = grow(s.end, r, 0)
		s.runs.remove(s.end[r], r)
	case sim.PredictionChanged:
		if v.Running(r) {
			s.end = grow(s.end, r, 0)
			s.runs.remove(s.end[r], r)
			s.end[r] = v.Start(r) + v.Prediction(r)
			s.runs.insert(running{end: s.end[r], ref: r, procs: int32(v.Size(r))})
		}
	}
}

func (s *refUPS) startJob(v *sim.View, r sim.Ref, dst []sim.Ref) []sim.Ref {
	s.end = grow(s.end, r, 0)
	s.end[r] = v.Now() + v.Prediction(r)
	s.runs.insert(running{end: s.end[r], ref: r, procs: int32(v.Size(r))})
	return append(dst, r)
}

// rankUsers sets Upri for every user with waiting jobs (by user number;
// ties go to the smaller user ID).
func (s *refUPS) rankUsers(v *sim.View) {
	s.pass++
	s.users = s.users[:0]
	for _, r := range s.queue {
		u := s.user[r]
		if s.seen[u] != s.pass {
			s.seen[u] = s.pass
			s.load[u] = 0
			s.users = append(s.users, u)
		}
		s.load[u] += float64(v.Estimate(r)) * float64(v.Size(r))
	}
	slices.SortFunc(s.users, func(a, b int32) int {
		if s.metric == ByRecency {
			if c := cmpTime(s.last[b], s.last[a]); c != 0 {
				return c
			}
		} else if la, lb := s.load[a], s.load[b]; la != lb {
			if la < lb {
				return -1
			}
			return 1
		}
		return int(s.id[a] - s.id[b])
	})
	for i, u := range s.users {
		s.upri[u] = 1 / float64(i+1)
	}
}

// Schedule implements [sim.Scheduler].
func (s *refUPS) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	if len(s.queue) == 0 {
		return dst
	}
	now, free := v.Now(), v.Free()
	// Nothing can start when no waiting job fits in the free processors;
	// the order of the queue does not matter (every pass sorts it).
	fits := false
	for _, r := range s.queue {
		if v.Size(r) <= free {
			fits = true
			break
		}
	}
	if !fits {
		return dst
	}
	s.rankUsers(v)
	s.order = s.order[:0]
	for _, r := range s.queue {
		wait := float64(now - v.Submit(r))
		pri := s.alpha*s.upri[s.user[r]] + (1-s.alpha)*wait/upsAging
		s.order = append(s.order, refUPSJob{r, pri, v.Submit(r)})
	}
	slices.SortFunc(s.order, func(a, b refUPSJob) int {
		if a.pri != b.pri {
			if a.pri > b.pri {
				return -1
			}
			return 1
		}
		if c := cmpTime(a.submit, b.submit); c != 0 {
			return c
		}
		return int(a.ref - b.ref)
	})
	// 1. Start jobs in priority order.
	s.rest = s.rest[:0]
	blocked := false
	for _, j := range s.order {
		if !blocked && v.Size(j.ref) <= free {
			free -= v.Size(j.ref)
			dst = s.startJob(v, j.ref, dst)
			continue
		}
		if !s.fullScan {
			blocked = true
		}
		s.rest = append(s.rest, j.ref)
	}
	if len(s.rest) == 0 || free == 0 {
		s.queue = append(s.queue[:0], s.rest...)
		return dst
	}
	// 2. Reservation for the first remaining job.
	head := s.rest[0]
	need := v.Size(head)
	freed := free
	shadow := sim.Time(math.MaxInt64)
	for i, x := range s.runs.a {
		freed += int(x.procs)
		if freed >= need {
			shadow = x.end
			freed += endingAt(s.runs.a[i+1:], x.end)
			break
		}
	}
	extra := 0
	if shadow != math.MaxInt64 {
		extra = freed - need
		shadow = max(shadow, now)
	}
	// 3. Backfill the others in user-priority order, then arrival order.
	s.cands = s.cands[:0]
	for _, r := range s.rest[1:] {
		s.cands = append(s.cands, refUPSJob{r, s.upri[s.user[r]], v.Submit(r)})
	}
	slices.SortFunc(s.cands, func(a, b refUPSJob) int {
		if a.pri != b.pri {
			if a.pri > b.pri {
				return -1
			}
			return 1
		}
		if c := cmpTime(a.submit, b.submit); c != 0 {
			return c
		}
		return int(a.ref - b.ref)
	})
	startedAny := false
	for _, c := range s.cands {
		if free == 0 {
			break
		}
		r := c.ref
		p := v.Size(r)
		if p > free {
			continue
		}
		if shadow == math.MaxInt64 || now+v.Prediction(r) <= shadow {
			free -= p
		} else if p <= extra {
			free -= p
			extra -= p
		} else {
			continue
		}
		dst = s.startJob(v, r, dst)
		s.start = grow(s.start, r, false)
		s.start[r] = true
		startedAny = true
	}
	s.queue = s.queue[:0]
	for _, r := range s.rest {
		if startedAny && int(r) < len(s.start) && s.start[r] {
			s.start[r] = false
			continue
		}
		s.queue = append(s.queue, r)
	}
	return dst
}

// TestUPSMatchesReference runs UPS and its reference version on random
// workloads with ties (small ones and saturated ones with hundreds of
// queued jobs), with both metrics, several user weights, the full scan
// or not, killing or not, with requested-time, perfect or revised
// predictions and with times short or so long that the users' loads pass
// 2^53, and requires the same schedules.
func TestUPSMatchesReference(t *testing.T) {
	check := func(rt *rapid.T, c schedtest.Case) {
		c.Kill = rapid.Bool().Draw(rt, "kill")
		switch rapid.IntRange(0, 2).Draw(rt, "predictor") {
		case 1:
			c.Predictor = sim.Perfect{}
		case 2:
			c.Predictor = wobbler{}
		}
		// Times scaled as by --speed 1e-12: the loads pass 2^53, where
		// a float sum depends on its order.
		// Killed, or a job past its requested time would be re-predicted
		// every 100 h of its overrun.
		if scale := rapid.SampledFrom([]sim.Time{1, 1, 3e12 + 1}).Draw(rt, "scale"); scale > 1 {
			c.Kill = true
			if _, ok := c.Predictor.(wobbler); ok {
				c.Predictor = nil // its new predictions after misses are 5 s apart
			}
			c.Jobs = slices.Clone(c.Jobs)
			for i := range c.Jobs {
				c.Jobs[i].Runtime *= scale
				c.Jobs[i].Estimate *= scale
			}
		}
		users := rapid.IntRange(1, 12).Draw(rt, "users")
		for i := range c.Jobs {
			if c.Jobs[i].User >= 0 {
				c.Jobs[i].User %= int32(users)
			}
		}
		alpha := rapid.SampledFrom([]float64{0, 0.3, 0.5, 1}).Draw(rt, "alpha")
		m := UserMetric(rapid.IntRange(0, 1).Draw(rt, "metric"))
		full := rapid.Bool().Draw(rt, "full")
		run := func(s sim.Scheduler) []schedtest.Line {
			res, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(c.Jobs)), s,
				sim.Config{Procs: c.Procs, Kill: c.Kill, Predictor: c.Predictor})
			if err != nil {
				rt.Fatal(err)
			}
			return schedtest.Schedule(res)
		}
		cur := NewUPS(alpha, m)
		cur.SetFullScan(full)
		ref := &refUPS{alpha: alpha, metric: m, fullScan: full, ix: map[int32]int32{}}
		if got, want := run(&checkedUPS{UPS: cur, t: rt}), run(ref); !slices.Equal(got, want) {
			rt.Fatalf("alpha %v %v full %v: schedule\n%v\nreference\n%v", alpha, m, full, got, want)
		}
	}
	t.Run("small", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) { check(rt, schedtest.Workload(rt, false)) })
	})
	t.Run("long-queues", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) { check(rt, longQueue(rt, 400)) })
	})
}
