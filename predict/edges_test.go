package predict

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// TestParamBounds: the numeric parameters at both ends of their ranges,
// with the full specification an accepted value gives and the exact error
// a refused one gives.
func TestParamBounds(t *testing.T) {
	const sbhRest = ",search=dfs,depth=0,prop=true,cap=true"
	for _, tc := range []struct{ spec, full, err string }{
		{"ruh:n=1", "ruh:n=1,stat=median,cap=true,prop=false", ""},
		{"ruh:n=1000", "ruh:n=1000,stat=median,cap=true,prop=false", ""},
		{"ruh:n=0", "", "predictor ruh: n=0: must be a whole number from 1 to 1000"},
		{"easy++:n=1001", "", "predictor easy++: n=1001: must be a whole number from 1 to 1000"},
		{"ruh:n=2.5", "", "predictor ruh: n=2.5: must be a whole number from 1 to 1000"},
		{"sbh:depth=0", "sbh:crit=PE/P/E/*" + sbhRest + ",gap=1200", ""},
		{"sbh:depth=-1", "", "predictor sbh: depth=-1: must be a whole number from 0 to 1073741824"},
		{"sbh:depth=1073741824", "sbh:crit=PE/P/E/*,search=dfs,depth=1073741824,prop=true,cap=true,gap=1200", ""},
		{"sbh:depth=1073741825", "", "predictor sbh: depth=1073741825: must be a whole number from 0 to 1073741824"},
		{"sbh:gap=1", "sbh:crit=PE/P/E/*" + sbhRest + ",gap=1", ""},
		{"sbh:gap=0", "", "predictor sbh: gap=0: must be a whole number from 1 to 2147483647"},
		{"sbh:gap=2147483647", "sbh:crit=PE/P/E/*" + sbhRest + ",gap=2147483647", ""},
		{"sbh:gap=2147483648", "", "predictor sbh: gap=2147483648: must be a whole number from 1 to 2147483647"},
		{"sbh-noest-balanced:limit=1", "sbh-noest-balanced:crit=PX/P/X/*,search=dfs,depth=0,prop=false,gap=1200,limit=1", ""},
		{"sbh-noest-balanced:limit=0", "", "predictor sbh-noest-balanced: limit=0: must be a whole number from 1 to 2147483647"},
		// The first bad parameter in the order the predictor reads them
		// is reported.
		{"ruh:prop=x,n=0", "", "predictor ruh: n=0: must be a whole number from 1 to 1000"},
	} {
		p, err := New(tc.spec, Env{})
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %q", tc.spec, err, tc.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.spec, err)
		case p.Spec() != tc.full:
			t.Errorf("%q: spec %q, want %q", tc.spec, p.Spec(), tc.full)
		}
	}
}

// TestBalancedLimit: the balanced no-estimate SBH stops the times-ten
// growth at the log's largest requested time, at 36 h = 129,600 s when
// the log has none (no log, no jobs, or only requested times of 0 or
// unknown), or at the limit parameter.
func TestBalancedLimit(t *testing.T) {
	if DefaultBalancedLimit != 129600 {
		t.Errorf("DefaultBalancedLimit = %d, want 36 h = 129600 s", DefaultBalancedLimit)
	}
	log := func(req ...int64) *trace.Trace {
		tr := &trace.Trace{}
		for _, r := range req {
			tr.Jobs = append(tr.Jobs, trace.Job{ReqTime: r, App: -1})
		}
		return tr
	}
	for _, tc := range []struct {
		name  string
		spec  string
		tr    *trace.Trace
		limit sim.Time
	}{
		{"no log", "sbh-noest-balanced", nil, 129600},
		{"no jobs", "sbh-noest-balanced", log(), 129600},
		{"requested times 0 and unknown", "sbh-noest-balanced", log(0, -1, 0), 129600},
		{"largest requested time", "sbh-noest-balanced", log(100, 5000, -1, 300), 5000},
		{"one second", "sbh-noest-balanced", log(1), 1},
		{"parameter", "sbh-noest-balanced:limit=7", log(100, 5000), 7},
	} {
		p, err := New(tc.spec, Env{Trace: tc.tr})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := p.MissPolicy(); got != (sim.TimesTen{Limit: tc.limit}) {
			t.Errorf("%s: miss policy %v, want times ten up to %d", tc.name, got, tc.limit)
		}
		if want := fmt.Sprintf(",limit=%d", tc.limit); !strings.HasSuffix(p.Spec(), want) {
			t.Errorf("%s: spec %q, want it to end in %q", tc.name, p.Spec(), want)
		}
	}
}

// TestJobsOutsideLog: a job whose index is not in the log (negative, or
// one past the last job) has an unknown executable (-1) and recorded
// session 0; the jobs of the log have theirs. Users 2, 1 and 2: sessions
// are numbered by user ID, so user 1's is 0 and user 2's is 1, which job
// index 0 has.
func TestJobsOutsideLog(t *testing.T) {
	tr := &trace.Trace{Jobs: []trace.Job{
		{ID: 1, Submit: 0, Runtime: 10, ReqTime: 100, Procs: 1, User: 2, App: 7, Status: 1},
		{ID: 2, Submit: 5, Runtime: 10, ReqTime: 100, Procs: 1, User: 1, App: 8, Status: 1},
		{ID: 3, Submit: 20, Runtime: 10, ReqTime: 100, Procs: 1, User: 2, App: 9, Status: 1},
	}}
	p, err := New("sbh:sessions=recorded", Env{Trace: tr})
	if err != nil {
		t.Fatal(err)
	}
	s := p.(sbhPredictor).SBH
	for _, tc := range []struct {
		index         int32
		exec, session int32
	}{{-1, -1, 0}, {0, 7, 1}, {1, 8, 0}, {2, 9, 1}, {3, -1, 0}} {
		j := sim.Job{Index: tc.index}
		if got := s.Exec(&j); got != tc.exec {
			t.Errorf("job index %d: executable %d, want %d", tc.index, got, tc.exec)
		}
		if got := s.SessionOf(&j); got != tc.session {
			t.Errorf("job index %d: session %d, want %d", tc.index, got, tc.session)
		}
	}
}

// TestSBHExecutables: criterion X compares the log's executable numbers
// (-1, unknown, equals -1); without a log every executable is unknown, so
// X matches every job. User 1's jobs start on arrival: 1 (exec 7) runs
// 100 s, ending at 100; 2 (exec 9) 20 s, ending at 30; 3 (exec -1) arrives
// at 50 and runs 10 s; 4 (exec 7), 5 (exec 5) and 6 (exec -1) arrive at
// 200, all in one session.
func TestSBHExecutables(t *testing.T) {
	jobs := []job{
		{1, 0, 100, 1000, 1, 1, 7},
		{2, 10, 20, 1000, 1, 1, 9},
		{3, 50, 10, 1000, 1, 1, -1},
		{4, 200, 5, 1000, 1, 1, 7},
		{5, 200, 5, 1000, 1, 1, 5},
		{6, 200, 5, 1000, 1, 1, -1},
	}
	// With the log, criteria X/*: 3: X (-1) nowhere, *: job 2: 20;
	// 4: X (7): job 1: 100; 5: X (5) nowhere, *: median(100, 20, 10) =
	// 20; 6: X (-1): job 3: 10.
	checkGolden(t, "sbh:crit=X/*,prop=false", 10, jobs, map[int64]want{
		1: {1000, 1000, 0}, 2: {1000, 1000, 0}, 3: {20, 20, 0},
		4: {100, 100, 0}, 5: {20, 20, 0}, 6: {10, 10, 0},
	})
	// Without a log, criterion X alone matches every terminated job: 3:
	// job 2: 20; 4, 5 and 6: median(100, 20, 10) = 20.
	sj := make([]sim.Job, len(jobs))
	for i, j := range jobs {
		sj[i] = sim.Job{ID: j.id, Submit: j.submit, Runtime: j.run, Estimate: j.est, Procs: j.procs, User: j.user, Index: int32(i)}
	}
	p, err := New("sbh:crit=X,prop=false", Env{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), sim.NewReplay(sj), sched.NewFCFS(), sim.Config{Procs: 10, Predictor: p})
	if err != nil {
		t.Fatal(err)
	}
	wants := map[int64]sim.Time{1: 1000, 2: 1000, 3: 20, 4: 20, 5: 20, 6: 20}
	for _, o := range res.Jobs {
		if o.Initial != wants[o.ID] {
			t.Errorf("no log: job %d predicted %d, want %d", o.ID, o.Initial, wants[o.ID])
		}
	}
}

// TestSBHSessionGap: a think time equal to the gap opens a new session, one
// second less joins the current one, online (from the simulation) and
// recorded (from the log's schedule, which here is the simulated one: no
// waits). Criterion * with depth 1 searches the current session only.
// User 2: job 1 at 0 runs 100 s; job 3 at 150 (think time 50) runs 40 s,
// ending at 190; job 5 at 1390 (think time 1200). User 1: job 2 at 10 runs
// 50 s; job 4 at 1259 (think time 1199). Job 1 is the log's first job
// (index 0), in user 2's first recorded session, numbered 1 (user 1's is
// 0).
func TestSBHSessionGap(t *testing.T) {
	jobs := []job{
		{1, 0, 100, 1000, 1, 2, -1},
		{2, 10, 50, 1000, 1, 1, -1},
		{3, 150, 40, 1000, 1, 2, -1},
		{4, 1259, 10, 1000, 1, 1, -1},
		{5, 1390, 30, 1000, 1, 2, -1},
	}
	tr := &trace.Trace{}
	sj := make([]sim.Job, len(jobs))
	for i, j := range jobs {
		tr.Jobs = append(tr.Jobs, trace.Job{ID: j.id, Submit: int64(j.submit), Runtime: int64(j.run), ReqTime: int64(j.est),
			Procs: j.procs, User: j.user, App: j.exec, Status: 1})
		sj[i] = sim.Job{ID: j.id, Submit: j.submit, Runtime: j.run, Estimate: j.est, Procs: j.procs, User: j.user, Index: int32(i)}
	}
	// Gap 1200: 3 (think 50) sees job 1: 100; 4 (think 1199) sees job 2:
	// 50; 5 (think 1200) opens a session: the estimate.
	// Gap 51: 3 (think 50) still joins: 100; 4 (think 1199) opens one.
	// Gap 50: 3 opens one too.
	gap1200 := map[int64]sim.Time{1: 1000, 2: 1000, 3: 100, 4: 50, 5: 1000}
	gap51 := map[int64]sim.Time{1: 1000, 2: 1000, 3: 100, 4: 1000, 5: 1000}
	gap50 := map[int64]sim.Time{1: 1000, 2: 1000, 3: 1000, 4: 1000, 5: 1000}
	for _, tc := range []struct {
		spec  string
		wants map[int64]sim.Time
	}{
		{"sbh:crit=*,depth=1,prop=false", gap1200},
		{"sbh:crit=*,depth=1,prop=false,sessions=recorded", gap1200},
		{"sbh:crit=*,depth=1,prop=false,gap=51", gap51},
		{"sbh:crit=*,depth=1,prop=false,gap=51,sessions=recorded", gap51},
		{"sbh:crit=*,depth=1,prop=false,gap=50", gap50},
		{"sbh:crit=*,depth=1,prop=false,gap=50,sessions=recorded", gap50},
	} {
		p, err := New(tc.spec, Env{Trace: tr})
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(sj)), sched.NewFCFS(), sim.Config{Procs: 10, Predictor: p})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range res.Jobs {
			if o.Initial != tc.wants[o.ID] {
				t.Errorf("%s: job %d predicted %d, want %d", tc.spec, o.ID, o.Initial, tc.wants[o.ID])
			}
		}
	}
}

// updateLog wraps a learning predictor and records, for every terminated
// job, the updates its termination gave ("ID:prediction", sorted), failing
// on an update of a job that has terminated.
type updateLog struct {
	Predictor
	t     *testing.T
	ended map[int64][]string
}

func (l *updateLog) lp() sim.LearningPredictor { return l.Predictor.(sim.LearningPredictor) }

func (l *updateLog) Arrived(v *sim.View, r sim.Ref, dst []sim.Update) []sim.Update {
	return l.lp().Arrived(v, r, dst)
}

func (l *updateLog) Started(v *sim.View, r sim.Ref, dst []sim.Update) []sim.Update {
	return l.lp().Started(v, r, dst)
}

func (l *updateLog) Ended(v *sim.View, r sim.Ref, dst []sim.Update) []sim.Update {
	n := len(dst)
	dst = l.lp().Ended(v, r, dst)
	var us []string
	for _, u := range dst[n:] {
		if v.Done(u.Job) {
			l.t.Errorf("job %d's end updates job %d, which has terminated", v.ID(r), v.ID(u.Job))
		}
		us = append(us, fmt.Sprintf("%d:%d", v.ID(u.Job), u.Prediction))
	}
	slices.Sort(us)
	l.ended[v.ID(r)] = us
	return dst
}

// TestPropagationUpdates: the exact updates propagation gives on the queued
// jobs (one processor; A 0-10, B 10-20, C 20-30, D 30-70). A's end revises
// B, C and D to 10; B's and C's ends leave them at 10 (RUH: the last
// runtime, 10; SBH: the median, 10); D's end leaves no job of the user. A
// terminated job is never revised (A was the first of its user's jobs,
// D the last).
func TestPropagationUpdates(t *testing.T) {
	for _, spec := range []string{"ruh:n=1,prop=true", "sbh:crit=*"} {
		p, err := New(spec, Env{})
		if err != nil {
			t.Fatal(err)
		}
		sj := make([]sim.Job, len(queued))
		for i, j := range queued {
			sj[i] = sim.Job{ID: j.id, Submit: j.submit, Runtime: j.run, Estimate: j.est, Procs: j.procs, User: j.user, Index: int32(i)}
		}
		l := &updateLog{Predictor: p, t: t, ended: map[int64][]string{}}
		if _, err := sim.Run(context.Background(), sim.NewReplay(sj), sched.NewFCFS(), sim.Config{Procs: 1, Predictor: l}); err != nil {
			t.Fatal(err)
		}
		want := map[int64][]string{1: {"2:10", "3:10", "4:10"}, 2: nil, 3: nil, 4: nil}
		for id, w := range want {
			if got := l.ended[id]; !slices.Equal(got, w) {
				t.Errorf("%s: the end of job %d updates %v, want %v", spec, id, got, w)
			}
		}
	}
}
