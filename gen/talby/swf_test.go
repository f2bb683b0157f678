package talby

import (
	"testing"
)

// Fields 17 and 18 link each job to the job of its session whose end
// released it; users with jobs are counted apart from those created.
func TestSWFSessionOrder(t *testing.T) {
	p := defaults(t)
	cfg := Config{Weeks: 12, Seed: 2}
	w, err := Generate(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	js := w.SWF()
	linked := 0
	users := map[int]bool{}
	for i, s := range js {
		j := w.Jobs[i]
		users[j.User] = true
		if s.Preceding == -1 {
			if s.ThinkTime != -1 {
				t.Fatalf("job %d: think time %d without a preceding job", s.ID, s.ThinkTime)
			}
			// No earlier job of its session has ended.
			for k := range i {
				if o := w.Jobs[k]; o.Session == j.Session && o.Submit+o.Runtime <= j.Submit {
					t.Fatalf("job %d: job %d of its session ended before it, none named", s.ID, k+1)
				}
			}
			continue
		}
		linked++
		k := int(s.Preceding - 1)
		if k < 0 || k >= i {
			t.Fatalf("job %d: preceding job %d is not an earlier job", s.ID, s.Preceding)
		}
		o := w.Jobs[k]
		if o.Session != j.Session || o.User != j.User {
			t.Fatalf("job %d: preceding job %d is of another session", s.ID, s.Preceding)
		}
		if s.ThinkTime != j.Submit-(o.Submit+o.Runtime) || s.ThinkTime < 0 {
			t.Fatalf("job %d: think time %d, want %d >= 0", s.ID, s.ThinkTime, j.Submit-(o.Submit+o.Runtime))
		}
		// It is the latest end of its session's earlier jobs.
		for m := range i {
			if q := w.Jobs[m]; q.Session == j.Session && q.Submit+q.Runtime <= j.Submit && q.Submit+q.Runtime > o.Submit+o.Runtime {
				t.Fatalf("job %d: job %d of its session ended later than job %d, before it", s.ID, m+1, k+1)
			}
		}
	}
	if linked == 0 || linked >= len(js)-w.Sessions+1 {
		t.Errorf("%d of %d jobs linked in %d sessions", linked, len(js), w.Sessions)
	}
	if w.UsersWithJobs != len(users) || w.UsersWithJobs > w.Users {
		t.Errorf("%d users with jobs counted, %d found, %d created", w.UsersWithJobs, len(users), w.Users)
	}
}

// Labels gives each session and user its generated class.
func TestLabels(t *testing.T) {
	p := defaults(t)
	cfg := Config{Weeks: 10, Seed: 4}
	w, err := Generate(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := w.Trace(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := w.Labels(tr, p)
	if err != nil {
		t.Fatal(err)
	}
	ss, _ := r.SessionRows()
	if len(ss) != w.Sessions || r.Users != w.UsersWithJobs {
		t.Fatalf("%d sessions and %d users, generated %d and %d", len(ss), r.Users, w.Sessions, w.UsersWithJobs)
	}
	var count [NumSessionClasses]int
	for _, s := range ss {
		count[s.Class]++
	}
	if count != w.SessionClasses {
		t.Errorf("session classes %v, generated %v", count, w.SessionClasses)
	}
	for _, u := range r.UserRows() {
		for _, j := range w.Jobs {
			if int32(j.User) == u.ID && j.UserClass != u.Class {
				t.Fatalf("user %d: class %v, generated %v", u.ID, u.Class, j.UserClass)
			}
		}
	}
}

// TestSessionLinksByHand checks fields 17 and 18 of a hand-made session
// (user 1, session 7) and a job of another session between its jobs:
//
//	job 1: submit 0, runtime 100, ends 100: first of its session, no link;
//	job 2: submit 50, runtime 50, ends 100: nothing of its session ended yet;
//	job 3: another session, submit 60, ends 70: not of session 7;
//	job 4: submit 100: jobs 1 and 2 both end at 100, the later one (2)
//	       released it, think time 0;
//	job 5: submit 300, runtime 10: job 4 (ends 400) has not ended, jobs 1
//	       and 2 did at 100: job 2, think time 200.
func TestSessionLinksByHand(t *testing.T) {
	w := &Workload{Jobs: []Job{
		{Submit: 0, Runtime: 100, Procs: 1, User: 1, Session: 7},
		{Submit: 50, Runtime: 50, Procs: 2, User: 1, Session: 7},
		{Submit: 60, Runtime: 10, Procs: 4, User: 2, Session: 8},
		{Submit: 100, Runtime: 300, Procs: 1, User: 1, Session: 7},
		{Submit: 300, Runtime: 10, Procs: 1, User: 1, Session: 7},
	}}
	want := [][2]int64{{-1, -1}, {-1, -1}, {-1, -1}, {2, 0}, {2, 200}}
	for i, r := range w.SWF() {
		if got := [2]int64{r.Preceding, r.ThinkTime}; r.ID != int64(i+1) || got != want[i] {
			t.Errorf("job %d: preceding job and think time %v, want %v", r.ID, got, want[i])
		}
	}
}
