package userclass_test

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/hpcwl/hpcwl/userclass"
)

func TestClassString(t *testing.T) {
	for c, want := range map[userclass.Class]string{userclass.LTLU: "LTLU", userclass.STWD: "STWD", -1: "-", userclass.NumClasses: "-"} {
		if got := c.String(); got != want {
			t.Errorf("%d: %q, want %q", int(c), got, want)
		}
	}
}

// TestComputeEdges works one user out by hand on the clock of newTrace
// (Monday 2000-01-03 00:00 UTC is 0): jobs at 07:30:00 and 17:30:00 are in
// daytime, 17:30:01 is not; Friday is a workday, Saturday not; two jobs
// submitted together are taken in ID order; unknown waits and runtimes
// count 0 in a job's end; sessions without a class count in S but in no
// class; less than a week of activity counts as one.
func TestComputeEdges(t *testing.T) {
	h, d := int64(3600), int64(86400)
	tr := newTrace([]trace.Job{
		{User: 3, Submit: 7*h + 1800, Runtime: 100, Wait: -1, Procs: 4},      // Mon 07:30:00, ends 07:31:40
		{User: 3, Submit: 7*h + 1800, Runtime: -1, Wait: 50, Procs: 8},       // same submit, ID 2: ends 07:30:50
		{User: 3, Submit: 17*h + 1800, Runtime: 0, Wait: 0, Procs: 2},        // Mon 17:30:00
		{User: 3, Submit: 4*d + 17*h + 1801, Runtime: 60, Wait: 0, Procs: 2}, // Fri 17:30:01
		{User: 3, Submit: 5*d + 12*h, Runtime: 600, Wait: 30, Procs: 2},      // Sat 12:00, ends 12:10:30
	})
	ss, _, err := sessionclass.Compute(tr, 0, sessionclass.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 4 {
		t.Fatalf("%d sessions, want 4", len(ss))
	}
	ss[0].Class, ss[1].Class, ss[2].Class, ss[3].Class = sessionclass.BHD, -1, sessionclass.IW, sessionclass.BHD
	us, err := userclass.Compute(tr, 0, ss, 128)
	if err != nil {
		t.Fatal(err)
	}
	if len(us) != 1 {
		t.Fatalf("%d users", len(us))
	}
	x := us[0].X
	span := float64(5*d + 12*h + 630 - (7*h + 1800))
	for v, want := range map[int]float64{
		userclass.J: 5, userclass.S: 4,
		userclass.Day: 4.0 / 5, userclass.Work: 4.0 / 5, // Saturday noon is daytime
		userclass.FracBHD: 2.0 / 4, userclass.FracIW: 1.0 / 4, userclass.FracIWD: 0,
		// think times: 07:30:00 - 07:31:40 (job 1 before job 2: ID order),
		// then from 07:30:50 to 17:30:00, ...
		userclass.Tm: float64(17*h + 1800 - (7*h + 1800 + 50)),
		userclass.Rm: 60, userclass.Pm: 2,
		userclass.Days: span / 86400, userclass.JW: 5, // 5.2 days count as a week
	} {
		if !(math.Abs(x[v]-want) <= 1e-9) {
			t.Errorf("%s = %v, want %v", userclass.Names[v], x[v], want)
		}
	}
	// A short user: one job, a week counts as one.
	tr = newTrace([]trace.Job{{User: 0, Submit: 0, Runtime: 10, Wait: 0, Procs: 1}, {User: -1, Submit: 5, Runtime: 10, Wait: 0, Procs: 1}})
	ss, _, _ = sessionclass.Compute(tr, 0, sessionclass.Options{})
	us, err = userclass.Compute(tr, 0, ss, 64)
	if err != nil || len(us) != 1 || us[0].ID != 0 || us[0].X[userclass.JW] != 1 || us[0].X[userclass.Days] != 10.0/86400 {
		t.Errorf("one-job user: %+v, %v", us, err)
	}
	if _, err := userclass.Compute(tr, 0, ss, 0); err == nil {
		t.Error("machine size 0 accepted")
	}
}

// users returns n users of each of four clear kinds: weekend users (no
// workday jobs), night users (no daytime jobs), heavy batch users (every
// session BHD) and the rest, each variable shifted a little per user.
func users(n int) []userclass.User {
	var us []userclass.User
	for kind := range 4 {
		for i := range n {
			var u userclass.User
			u.ID = int32(kind*100 + i)
			e := float64(i) / 1000
			u.X[userclass.Day], u.X[userclass.Work], u.X[userclass.FracBHD] = 0.8+e, 0.9+e, e
			u.X[userclass.J], u.X[userclass.Pm], u.X[userclass.Rm], u.X[userclass.Im], u.X[userclass.JW] = 50, 4, 600, 900, 10
			switch kind {
			case 0:
				u.X[userclass.Work] = e
			case 1:
				u.X[userclass.Day] = e
			case 2:
				u.X[userclass.FracBHD], u.X[userclass.J], u.X[userclass.Rm] = 1-e, 500, 36000
			}
			us = append(us, u)
		}
	}
	return us
}

// TestClassifyByHand: four groups of five users far apart in the
// clustering variables are the four classes, named by the rules; shares,
// centres and summaries are those of the groups; clustering on log(1 + v)
// finds the same.
func TestClassifyByHand(t *testing.T) {
	for _, log := range []bool{false, true} {
		us := users(5)
		cl, err := userclass.Classify(us, sessionclass.ClassifyOptions{Seed: 1, Log: log})
		if err != nil {
			t.Fatal(err)
		}
		for i, u := range us {
			if want := []userclass.Class{userclass.STWE, userclass.STWD, userclass.LTHU, userclass.LTLU}[i/5]; u.Class != want {
				t.Errorf("log %v: user %d is %s, want %s", log, u.ID, u.Class, want)
			}
		}
		for _, c := range cl.Classes {
			if c.Users != 5 || c.Share != 0.25 {
				t.Errorf("log %v, %s: %d users, share %v; want 5, 0.25", log, c.Class, c.Users, c.Share)
			}
		}
		lthu := cl.Classes[userclass.LTHU]
		// FracBHD of LTHU: 1, 0.999, ..., 0.996: mean 0.998, lower median 0.998, P95 - P5 = 0.004.
		if st := lthu.Variables["%BHD"]; !(math.Abs(st.Mean-0.998) <= 1e-12) || st.Median != 0.998 || !(math.Abs(st.Interval-0.004) <= 1e-12) {
			t.Errorf("log %v: LTHU %%BHD %+v", log, st)
		}
		if got := lthu.Centre["J"]; !(math.Abs(got-500) <= 1e-9) {
			t.Errorf("log %v: LTHU centre J %v, want 500", log, got)
		}
		if st := cl.Classes[userclass.STWE].Variables["J"]; st.Mean != 50 || st.Interval != 0 {
			t.Errorf("log %v: STWE J %+v", log, st)
		}
	}
	if cl, err := userclass.Classify(users(1), sessionclass.ClassifyOptions{Seed: 1}); err != nil || cl.Classes[userclass.LTHU].Users != 1 {
		t.Errorf("4 users: %v", err)
	}
	if _, err := userclass.Classify(users(1)[:3], sessionclass.ClassifyOptions{}); !errors.Is(err, userclass.ErrTooFew) {
		t.Errorf("3 users: %v", err)
	}
}

// TestLabeled: classes come from the callbacks, a negative session class
// leaves the session unclassified, and the machine size defaults to the
// log's.
func TestLabeled(t *testing.T) {
	h := int64(3600)
	tr := newTrace([]trace.Job{
		{User: 1, Submit: 9 * h, Runtime: 60, Wait: 0, Procs: 2},
		{User: 1, Submit: 12 * h, Runtime: 60, Wait: 0, Procs: 2},
		{User: 2, Submit: 13 * h, Runtime: 60, Wait: 0, Procs: 2},
	})
	r, err := userclass.Labeled(tr, 0, func(job int) sessionclass.Class {
		if job == 1 {
			return -1
		}
		return sessionclass.BHP
	}, func(id int32) userclass.Class { return userclass.Class(id) })
	if err != nil {
		t.Fatal(err)
	}
	ss, _ := r.SessionRows()
	us := r.UserRows()
	if r.Sessions != 3 || r.Users != 2 || len(r.Logs) != 1 || r.Logs[0].Procs != 64 || r.Logs[0].Sessions != 3 || r.Logs[0].Users != 2 {
		t.Fatalf("%+v", r)
	}
	if ss[0].Class != sessionclass.BHP || ss[1].Class != -1 || us[0].Class != userclass.LTHU || us[1].Class != userclass.STWE {
		t.Errorf("sessions %v %v, users %v %v", ss[0].Class, ss[1].Class, us[0].Class, us[1].Class)
	}
	if us[0].X[userclass.FracBHP] != 0.5 || us[0].X[userclass.Pm] != 4 {
		t.Errorf("user 1: %%BHP %v, Pm %v; want 0.5 (one of two sessions), 4 (2 of 64 processors)", us[0].X[userclass.FracBHP], us[0].X[userclass.Pm])
	}
	if r, err := userclass.Labeled(tr, 32, func(int) sessionclass.Class { return 0 }, func(int32) userclass.Class { return 0 }); err != nil || r.Logs[0].Procs != 32 || r.UserRows()[0].X[userclass.Pm] != 8 {
		t.Errorf("32 processors: %v", err)
	}
}

// TestClassifyLogOption: with every clustering variable constant but J,
// k-means puts five users in four classes by merging the two nearest
// values of J's z-score. J = e^k − 1, k = 1..5: on log(1 + J) the values
// are 1..5 (sample variance 2.5), so any two neighbours are 1/sqrt(2.5)
// apart and the within-cluster sum of squares is (1/2.5)/2 = 0.2; on J
// itself the nearest are e − 1 and e² − 1, giving (e² − e)²/2 over J's
// sample variance.
func TestClassifyLogOption(t *testing.T) {
	var us []userclass.User
	var j []float64
	for k := 1; k <= 5; k++ {
		var u userclass.User
		u.ID = int32(k)
		u.X[userclass.J] = math.Exp(float64(k)) - 1
		u.X[userclass.Day], u.X[userclass.Work] = 0.5, 0.5
		us = append(us, u)
		j = append(j, u.X[userclass.J])
	}
	mean := 0.0
	for _, v := range j {
		mean += v / 5
	}
	ss := 0.0
	for _, v := range j {
		ss += (v - mean) * (v - mean)
	}
	d := j[1] - j[0]
	rawWant := d * d / 2 / (ss / 4)
	for _, c := range []struct {
		log  bool
		want float64
	}{{true, 0.2}, {false, rawWant}} {
		cl, err := userclass.Classify(us, sessionclass.ClassifyOptions{Seed: 1, Log: c.log})
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(cl.WithinSS-c.want) <= 1e-9) {
			t.Errorf("log %v: within SS %v, want %v", c.log, cl.WithinSS, c.want)
		}
	}
}

// TestComputeOrder: a user's jobs are taken in submit order, then job
// number, whatever the order of the sessions given and of their jobs, and
// of the job numbers. User 5 (job number, submit, runtime): 1 at 1000
// (100 s), 2 at 0 (50 s), 3 at 0 (10 s), 4 at 5000 (20 s), in sessions
// {2, 3, 1} and {4}, given as {4} and {1, 3, 2}. In order 2, 3, 1, 4 the
// inter-arrival times are 0, 1000 and 4000 s (median 1000, P95 - P5 =
// 4000 - 0) and the think times 0 - 50, 1000 - 10 and 5000 - 1100
// (median 990, interval 3900 + 50); the activity spans 0 to 5020.
func TestComputeOrder(t *testing.T) {
	tr := newTrace([]trace.Job{
		{User: 5, Submit: 1000, Runtime: 100, Wait: 0, Procs: 1},
		{User: 5, Submit: 0, Runtime: 50, Wait: 0, Procs: 1},
		{User: 5, Submit: 0, Runtime: 10, Wait: 0, Procs: 1},
		{User: 5, Submit: 5000, Runtime: 20, Wait: 0, Procs: 1},
	})
	ss := []sessionclass.Session{
		{User: 5, Jobs: []int32{3}, Class: sessionclass.IW},
		{User: 5, Jobs: []int32{0, 2, 1}, Class: sessionclass.IWD},
	}
	us, err := userclass.Compute(tr, 0, ss, 64)
	if err != nil || len(us) != 1 {
		t.Fatalf("%+v, %v", us, err)
	}
	x := us[0].X
	for v, want := range map[int]float64{
		userclass.J: 4, userclass.S: 2, userclass.Im: 1000, userclass.Ii: 4000,
		userclass.Tm: 990, userclass.Ti: 3950, userclass.Days: 5020.0 / 86400,
		userclass.FracIW: 0.5, userclass.FracIWD: 0.5,
	} {
		if !(math.Abs(x[v]-want) <= 1e-9) {
			t.Errorf("%s = %v, want %v", userclass.Names[v], x[v], want)
		}
	}
}

// TestClassifyEmptyClass: four users of two kinds (two of each) leave two
// of the four k-means classes empty: they have no users, a share of 0 and
// summaries of zeros, not NaN, which JSON could not encode.
func TestClassifyEmptyClass(t *testing.T) {
	all := users(1)
	us := []userclass.User{all[0], all[0], all[2], all[2]}
	cl, err := userclass.Classify(us, sessionclass.ClassifyOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	empty := 0
	for _, c := range cl.Classes {
		if c.Users != 0 {
			if c.Users != 2 || c.Share != 0.5 {
				t.Errorf("%s: %d users, share %v; want 2, 0.5", c.Class, c.Users, c.Share)
			}
			continue
		}
		empty++
		if c.Share != 0 {
			t.Errorf("empty %s: share %v", c.Class, c.Share)
		}
		for name, st := range c.Variables {
			if st != (userclass.Stats{}) {
				t.Errorf("empty %s: %s summary %+v, want zeros", c.Class, name, st)
			}
		}
	}
	if empty != 2 {
		t.Errorf("%d empty classes, want 2", empty)
	}
	if _, err := json.Marshal(cl); err != nil {
		t.Errorf("JSON: %v", err)
	}
}

// TestAnalyzeProcs: the online session classes take half the machine as
// the BHP threshold: the log's 64 processors, or the machine size given.
// Six users, each with three sessions of two jobs of varied sizes and
// runtimes on different days.
func TestAnalyzeProcs(t *testing.T) {
	var jobs []trace.Job
	for u := range 6 {
		for s := range 3 {
			at := int64(u*86400 + s*3*3600 + 8*3600 + u*s*600)
			for k := range 2 {
				jobs = append(jobs, trace.Job{User: int32(u + 1), Submit: at + int64(k*600), Wait: int64(u * 10),
					Runtime: int64(60 + 100*u + 300*s + 7*k), Procs: int32(1 << ((u + s + k) % 7))})
			}
		}
	}
	tr := newTrace(jobs)
	for _, tc := range []struct{ procs, machine, wide int }{{0, 64, 32}, {32, 32, 16}} {
		r, err := userclass.Analyze([]*trace.Trace{tr}, userclass.Options{Procs: tc.procs, Classify: sessionclass.ClassifyOptions{Seed: 1}})
		if err != nil {
			t.Fatalf("procs %d: %v", tc.procs, err)
		}
		l := r.Logs[0]
		if l.Procs != tc.machine || l.OnlineThresholds.WideProcs != tc.wide || l.Sessions != 18 || l.Users != 6 {
			t.Errorf("procs %d: %+v; want machine %d, BHP above %d processors, 18 sessions, 6 users", tc.procs, l, tc.machine, tc.wide)
		}
	}
}
