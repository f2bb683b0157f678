package sim_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// fifo is a minimal FCFS scheduler for engine tests (package sched holds
// the real ones; sim must not import it).
type fifo struct{ q []sim.Ref }

func (s *fifo) Notify(v *sim.View, n sim.Notice) {
	if n.Kind == sim.Arrived {
		s.q = append(s.q, n.Job)
	}
}

func (s *fifo) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	free := v.Free()
	for len(s.q) > 0 && v.Size(s.q[0]) <= free {
		free -= v.Size(s.q[0])
		dst = append(dst, s.q[0])
		s.q = s.q[1:]
	}
	return dst
}

// recorder keeps the notices a scheduler receives.
type recorder struct {
	fifo
	log []string
}

func (s *recorder) Notify(v *sim.View, n sim.Notice) {
	s.log = append(s.log, n.Kind.String())
	s.fifo.Notify(v, n)
}

func TestKillAndMisses(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Submit: 0, Runtime: 100, Estimate: 10, Procs: 1}}
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), &fifo{}, sim.Config{Procs: 1, Kill: true})
	if err != nil {
		t.Fatal(err)
	}
	if o := res.Jobs[0]; o.End != 10 || !o.Killed || o.Misses != 0 {
		t.Errorf("killed job: %+v", o)
	}
	// Let the job finish: the requested-time prediction of 10 s is missed
	// at 10 (policy G: 10 + 60 = 70 > 10, above the estimate so uncapped)
	// and at 70 (10 + 300 = 310), and the job ends at 100.
	jobs = []sim.Job{{ID: 1, Submit: 0, Runtime: 100, Estimate: 10, Procs: 1}}
	res, err = sim.Run(context.Background(), sim.NewReplay(jobs), &fifo{}, sim.Config{Procs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if o := res.Jobs[0]; o.End != 100 || o.Killed || o.Misses != 2 || o.Prediction != 310 {
		t.Errorf("overrunning job: %+v", o)
	}
}

func TestMissPolicies(t *testing.T) {
	j := &sim.Job{Estimate: 3600}
	tests := []struct {
		p    sim.MissPolicy
		m    sim.MissInfo
		want sim.Time
	}{
		{sim.Gradual{}, sim.MissInfo{Current: 1, Initial: 1, Elapsed: 1, N: 1}, 61},
		{sim.Gradual{}, sim.MissInfo{Current: 61, Initial: 1, Elapsed: 61, N: 2}, 301},
		{sim.Gradual{}, sim.MissInfo{Current: 1801, Initial: 1, Elapsed: 1801, N: 5}, 3600}, // capped at the estimate
		{sim.Gradual{}, sim.MissInfo{Current: 3600, Initial: 1, Elapsed: 3600, N: 6}, 3601}, // 1 + 1 h; the estimate is passed, no cap
		{sim.Gradual{}, sim.MissInfo{Current: 360001, Initial: 1, Elapsed: 360001, N: 12}, 720001},
		{sim.EstimateThenGradual{}, sim.MissInfo{Current: 100, Initial: 100, Elapsed: 100, N: 1}, 3600},
		{sim.EstimateThenGradual{}, sim.MissInfo{Current: 3600, Initial: 100, Elapsed: 3600, N: 2}, 3660},
		{sim.TimesTen{}, sim.MissInfo{Current: 5, Initial: 5, Elapsed: 5, N: 1}, 50},
		{sim.TimesTen{Limit: 1000}, sim.MissInfo{Current: 500, Initial: 5, Elapsed: 500, N: 3}, 1000},
		{sim.TimesTen{Limit: 1000}, sim.MissInfo{Current: 1000, Initial: 5, Elapsed: 1000, N: 4}, 1060},
	}
	for _, tc := range tests {
		if got := tc.p.Next(j, tc.m); got != tc.want {
			t.Errorf("%s %+v = %d, want %d", tc.p, tc.m, got, tc.want)
		}
	}
}

// TestEventOrder checks the order of simultaneous events: terminations,
// then arrivals, then one pass.
func TestEventOrder(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 10, Estimate: 10, Procs: 2},
		{ID: 3, Submit: 10, Runtime: 5, Estimate: 5, Procs: 2},
		{ID: 2, Submit: 10, Runtime: 5, Estimate: 5, Procs: 2},
	}
	s := &recorder{}
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), s, sim.Config{Procs: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"arrived", "ended", "arrived", "arrived", "ended", "ended"}
	if len(s.log) != len(want) {
		t.Fatalf("notices %v, want %v", s.log, want)
	}
	for i := range want {
		if s.log[i] != want[i] {
			t.Fatalf("notices %v, want %v", s.log, want)
		}
	}
	// Arrivals at 10 are ordered by job ID: job 2 (ref 1) starts first.
	if res.Jobs[1].ID != 2 || res.Jobs[1].Start != 10 || res.Jobs[2].Start != 15 {
		t.Errorf("schedule %+v", res.Jobs)
	}
}

// feedback submits each user's next job 5 s after the previous one ends:
// a closed-loop source of the kind the feedback models plug in.
type feedback struct {
	pending []sim.Job
	left    int
	nextID  int64
}

func (f *feedback) Next() (sim.Time, bool) {
	if len(f.pending) == 0 {
		return 0, false
	}
	return f.pending[0].Submit, true
}

func (f *feedback) Pop(now sim.Time, dst []sim.Job) []sim.Job {
	for len(f.pending) > 0 && f.pending[0].Submit == now {
		dst = append(dst, f.pending[0])
		f.pending = f.pending[1:]
	}
	return dst
}

func (f *feedback) Started(*sim.View, sim.Ref) {}

func (f *feedback) Ended(v *sim.View, r sim.Ref) {
	if f.left == 0 {
		return
	}
	f.left--
	f.nextID++
	f.pending = append(f.pending, sim.Job{ID: f.nextID, Submit: v.Now() + 5, Runtime: 10, Estimate: 10, Procs: 1, User: v.User(r)})
}

func TestFeedbackSource(t *testing.T) {
	src := &feedback{pending: []sim.Job{{ID: 1, Runtime: 10, Estimate: 10, Procs: 1}}, left: 3, nextID: 1}
	res, err := sim.Run(context.Background(), src, &fifo{}, sim.Config{Procs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 4 || res.Jobs[3].Submit != 45 || res.Jobs[3].End != 55 {
		t.Errorf("feedback run: %+v", res.Jobs)
	}
}

type never struct{ fifo }

func (never) Schedule(_ *sim.View, dst []sim.Ref) []sim.Ref { return dst }

func TestErrors(t *testing.T) {
	jobs := []sim.Job{{ID: 7, Runtime: 1, Estimate: 1, Procs: 1}}
	if _, err := sim.Run(context.Background(), sim.NewReplay(jobs), &never{}, sim.Config{Procs: 1}); !errors.Is(err, sim.ErrStalled) {
		t.Errorf("stalled run: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	many := make([]sim.Job, 100)
	for i := range many {
		many[i] = sim.Job{ID: int64(i), Submit: sim.Time(i), Runtime: 1, Estimate: 1, Procs: 1}
	}
	if _, err := sim.Run(ctx, sim.NewReplay(many), &fifo{}, sim.Config{Procs: 1, CheckEvery: 10}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %v", err)
	}
	wide := []sim.Job{{ID: 1, Runtime: 1, Estimate: 1, Procs: 5}}
	if _, err := sim.Run(context.Background(), sim.NewReplay(wide), &fifo{}, sim.Config{Procs: 4}); err == nil {
		t.Error("job wider than the machine: no error")
	}
}

// learner is a LearningPredictor that predicts the estimate, logs its
// hooks, and on every termination revises every other job to 5 s.
type learner struct {
	log []string
	n   int
}

func (l *learner) Predict(j *sim.Job) sim.Time { return j.Estimate }

func (l *learner) Missed(j *sim.Job, m sim.MissInfo) sim.Time { return m.Elapsed + 1 }

func (l *learner) Arrived(v *sim.View, r sim.Ref, dst []sim.Update) []sim.Update {
	l.log = append(l.log, "arrived "+string(rune('0'+r)))
	l.n++
	return dst
}

func (l *learner) Started(v *sim.View, r sim.Ref, dst []sim.Update) []sim.Update {
	l.log = append(l.log, "started "+string(rune('0'+r)))
	return dst
}

func (l *learner) Ended(v *sim.View, r sim.Ref, dst []sim.Update) []sim.Update {
	l.log = append(l.log, "ended "+string(rune('0'+r)))
	for q := 0; q < l.n; q++ {
		if !v.Done(sim.Ref(q)) {
			dst = append(dst, sim.Update{Job: sim.Ref(q), Prediction: 5})
		}
	}
	return dst
}

// TestLearningPredictor checks the hooks' order, the application of
// revisions (a running job revised into its past counts as a miss), the
// arrival prediction and the prediction log.
func TestLearningPredictor(t *testing.T) {
	// One processor: job 0 runs 0-10, job 1 (submitted at 1) runs 10-30.
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 10, Estimate: 50, Procs: 1},
		{ID: 2, Submit: 1, Runtime: 20, Estimate: 60, Procs: 1},
	}
	l := &learner{}
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), &fifo{}, sim.Config{Procs: 1, Predictor: l, RecordPredictions: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"arrived 0", "started 0", "arrived 1", "ended 0", "started 1", "ended 1"}
	if len(l.log) != len(want) {
		t.Fatalf("hooks %v, want %v", l.log, want)
	}
	for i := range want {
		if l.log[i] != want[i] {
			t.Fatalf("hooks %v, want %v", l.log, want)
		}
	}
	// Job 1 waits predicted 60 until job 0 ends at 10 and revises it to 5;
	// it starts at 10 and misses at 15 (Missed: elapsed 5 + 1 = 6), at 16
	// (7), and so on until it ends at 30: 15 misses, last prediction 20.
	o := res.Jobs[1]
	if o.Initial != 60 || o.Misses != 15 || o.Prediction != 20 {
		t.Errorf("job 1: initial %d, %d misses, last %d; want 60, 15, 20", o.Initial, o.Misses, o.Prediction)
	}
	if res.Jobs[0].Initial != 50 || res.Jobs[0].Prediction != 50 {
		t.Errorf("job 0: %+v", res.Jobs[0])
	}
	log := res.Predictions
	if len(log) != 2+1+15 || log[0] != (sim.PredictionChange{Job: 0, At: 0, Prediction: 50}) ||
		log[1] != (sim.PredictionChange{Job: 1, At: 1, Prediction: 60}) || log[2] != (sim.PredictionChange{Job: 1, At: 10, Prediction: 5}) ||
		log[len(log)-1] != (sim.PredictionChange{Job: 1, At: 29, Prediction: 20}) {
		t.Errorf("prediction log %+v", log)
	}
	rev, err := sim.Run(context.Background(), sim.NewReplay(jobs), &fifo{}, sim.Config{Procs: 1, Predictor: &learner{}, RecordRevisions: true})
	if err != nil || !rev.Revisions || !slices.Equal(rev.Predictions, log[2:]) {
		t.Errorf("revisions only: log %+v (revisions %v), err %v; want %+v", rev.Predictions, rev.Revisions, err, log[2:])
	}
	res, err = sim.Run(context.Background(), sim.NewReplay(jobs), &fifo{}, sim.Config{Procs: 1, Predictor: &learner{}})
	if err != nil || res.Predictions != nil || res.Revisions {
		t.Errorf("without RecordPredictions: log %v, err %v", res.Predictions, err)
	}
}

// shortest starts the waiting job with the smallest requested time first.
type shortest struct{ fifo }

func (s *shortest) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	if len(s.q) == 0 {
		return dst
	}
	k := 0
	for i, r := range s.q {
		if v.Estimate(r) < v.Estimate(s.q[k]) {
			k = i
		}
	}
	if v.Size(s.q[k]) <= v.Free() {
		dst = append(dst, s.q[k])
		s.q = append(s.q[:k], s.q[k+1:]...)
	}
	return dst
}

// TestPassEveryEvent: two jobs submitted together on an idle machine. One
// pass per instant sees both and starts the shorter; a pass after every
// event starts the first arrival (lower id) before the second is seen.
func TestPassEveryEvent(t *testing.T) {
	jobs := func() []sim.Job {
		return []sim.Job{{ID: 1, Runtime: 100, Estimate: 100, Procs: 1}, {ID: 2, Runtime: 10, Estimate: 10, Procs: 1}}
	}
	for _, c := range []struct {
		every          bool
		start1, start2 sim.Time
		passes         int64
	}{
		// Per instant: passes at 0 (starts 2), 10 (starts 1), 110.
		{false, 10, 0, 3},
		// Per event: arrival 1 (starts 1), arrival 2, end of 1 at 100
		// (starts 2), end of 2 at 110.
		{true, 0, 100, 4},
	} {
		res, err := sim.Run(context.Background(), sim.NewReplay(jobs()), &shortest{}, sim.Config{Procs: 1, PassEveryEvent: c.every})
		if err != nil {
			t.Fatal(err)
		}
		if res.Jobs[0].Start != c.start1 || res.Jobs[1].Start != c.start2 || res.Passes != c.passes {
			t.Errorf("every event %v: starts %d, %d and %d passes; want %d, %d and %d",
				c.every, res.Jobs[0].Start, res.Jobs[1].Start, res.Passes, c.start1, c.start2, c.passes)
		}
	}
}
