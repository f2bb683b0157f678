package feedback

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// tj is a hand-made job: user, submit, wait, runtime.
type tj struct {
	user             int32
	submit, wait, rt int64
}

func mkTrace(procs int, jobs ...tj) *trace.Trace {
	ts := make([]trace.Job, len(jobs))
	for i, j := range jobs {
		ts[i] = trace.Job{ID: int64(i + 1), Submit: j.submit, Wait: j.wait, Runtime: j.rt,
			Procs: 1, ReqProcs: 1, ReqTime: max(j.rt, 1), User: j.user, Status: 1,
			Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1}
	}
	return trace.New(swf.Header{}, ts, trace.Options{Procs: procs})
}

// smallLog: on one processor under FCFS, user 2's job 1 (0..300) delays
// user 1's job 2 (recorded 0..100) to 300..400. User 1 then submitted job 3
// 50 s after job 2 ended (at 150) and job 4 10 s after job 3 ended (at 170).
func smallLog() *trace.Trace {
	return mkTrace(1,
		tj{2, 0, 0, 300},
		tj{1, 0, 0, 100},
		tj{1, 150, 0, 10},
		tj{1, 170, 0, 10},
	)
}

func TestHandMadeReplayTimings(t *testing.T) {
	tr := smallLog()
	a0 := session.Options{Method: session.Interarrival}
	tests := []struct {
		name string
		fo   Options
		sub  []sim.Time
	}{
		// a0: every job a session; job 3 comes 50 s after job 2's
		// simulated end (400), job 4 10 s after job 3's (460).
		{"madon-a0", Options{Sessions: a0, SessionsSet: true}, []sim.Time{0, 0, 450, 470}},
		// a60: jobs 2-4 form one session that starts on time; jobs inside
		// a session keep their offsets.
		{"madon-a60", Options{}, []sim.Time{0, 0, 150, 170}},
		// Adjusted (Arrival 60 min): jobs 2, 3, 4 are three batches of one
		// session, each depending on the previous one (rule 1): released
		// by dependency with the recorded think times 50 and 10.
		{"adjusted", Options{Model: Adjusted}, []sim.Time{0, 0, 450, 470}},
		// Last finisher gives the same on a chain.
		{"madon-a0-last", Options{Sessions: a0, SessionsSet: true, StartRule: LastFinisher}, []sim.Time{0, 0, 450, 470}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run, err := Simulate(context.Background(), tr, sched.NewFCFS(), sim.Options{}, tc.fo)
			if err != nil {
				t.Fatal(err)
			}
			if got := run.Source.Submitted(); !slices.Equal(got, tc.sub) {
				t.Errorf("submits %v, want %v", got, tc.sub)
			}
		})
	}
}

// TestSessionStartsAfterAllPredecessors: a session with two predecessors
// starts at the latest of (predecessor end + think time).
func TestSessionStartsAfterAllPredecessors(t *testing.T) {
	// User 1: job 1 (0..100) and job 2 (50..60) are concurrent sessions
	// (a0); job 3 arrives at 200: think 100 after job 1, 140 after job 2.
	// On one processor job 2 waits for job 1 and runs 100..110.
	tr := mkTrace(1, tj{1, 0, 0, 100}, tj{1, 50, 0, 10}, tj{1, 200, 0, 10})
	for _, c := range []struct {
		rule StartRule
		want sim.Time
	}{
		// max(100 + 100, 110 + 140) = 250
		{MaxOverEdges, 250},
		// job 2 finished last (110): 110 + 140 = 250 as well
		{LastFinisher, 250},
	} {
		fo := Options{Sessions: session.Options{Method: session.Interarrival}, SessionsSet: true, StartRule: c.rule}
		run, err := Simulate(context.Background(), tr, sched.NewFCFS(), sim.Options{}, fo)
		if err != nil {
			t.Fatal(err)
		}
		if got := run.Source.Submitted()[2]; got != c.want {
			t.Errorf("rule %d: job 3 at %d, want %d", c.rule, got, c.want)
		}
	}
	// Speed 2 halves runtimes: job 1 runs 0..50, job 2 50..55. Max over
	// edges: max(50+100, 55+140) = 195; the last finisher is job 2: 195.
	fo := Options{Sessions: session.Options{Method: session.Interarrival}, SessionsSet: true}
	run, err := Simulate(context.Background(), tr, sched.NewFCFS(), sim.Options{PrepareOptions: sim.PrepareOptions{Machine: sim.Machine{Speed: 2}}}, fo)
	if err != nil {
		t.Fatal(err)
	}
	if got := run.Source.Submitted()[2]; got != 195 {
		t.Errorf("speed 2: job 3 at %d, want 195", got)
	}
}

func TestLateness(t *testing.T) {
	tr := smallLog()
	l := LatenessOf(tr, []sim.Time{0, 0, 450, 470})
	// lateness 0, 0, 300, 300: mean 150; span 170; n = 4.
	if l.Jobs != 4 || l.Mean != 150 || !(math.Abs(l.Relative-(1+150.0/170)) <= 1e-12) || l.Additional != 100 {
		t.Errorf("%+v", l)
	}
	// User 1: lateness 0, 300, 300 -> mean 200, additional 2*200/2 = 200.
	if l.UserAdditional.N != 1 || l.UserAdditional.P50 != 200 {
		t.Errorf("per-user additional %+v", l.UserAdditional)
	}
}

func TestRejectedJobsEndOnArrival(t *testing.T) {
	// Job 2 needs 4 processors on a machine of 2 and is dropped; job 3
	// followed it 10 s after its recorded end (100): it comes 10 s after
	// the rejection instead.
	tr := mkTrace(2, tj{1, 0, 0, 5}, tj{1, 50, 0, 50}, tj{1, 110, 0, 5})
	tr.Jobs[1].Procs, tr.Jobs[1].ReqProcs = 4, 4
	fo := Options{Sessions: session.Options{Method: session.Interarrival}, SessionsSet: true}
	run, err := Simulate(context.Background(), tr, sched.NewFCFS(), sim.Options{PrepareOptions: sim.PrepareOptions{Oversize: sim.OversizeDrop}}, fo)
	if err != nil {
		t.Fatal(err)
	}
	if got := run.Source.Submitted(); !slices.Equal(got, []sim.Time{0, 50, 60}) || run.Source.Rejected() != 1 {
		t.Errorf("submits %v, rejected %d", got, run.Source.Rejected())
	}
}

func TestNoUsers(t *testing.T) {
	tr := mkTrace(1, tj{-1, 0, 0, 5}, tj{-1, 10, 0, 5})
	_, err := Simulate(context.Background(), tr, sched.NewFCFS(), sim.Options{}, Options{})
	if !errors.Is(err, ErrNoUsers) {
		t.Fatalf("error %v, want ErrNoUsers", err)
	}
}

func TestStochasticModelsKTH(t *testing.T) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, fo := range []Options{{Model: Distribution, Seed: 7}, {Model: Fluid, Seed: 7}, {Model: Fluid, Fluid: FluidV2, Seed: 7}} {
		var subs [2][]sim.Time
		for k := range subs {
			s, _ := sched.New("easy")
			run, err := Simulate(context.Background(), tr, s, sim.Options{}, fo)
			if err != nil {
				t.Fatal(err)
			}
			subs[k] = slices.Clone(run.Source.Submitted())
			// Every user keeps the recorded order of submissions.
			for _, u := range tr.Users() {
				for i := 1; i < len(u.Jobs); i++ {
					if subs[k][u.Jobs[i]] < subs[k][u.Jobs[i-1]] {
						t.Fatalf("%v: user %d: job %d before job %d", fo.Model, u.ID, tr.Jobs[u.Jobs[i]].ID, tr.Jobs[u.Jobs[i-1]].ID)
					}
				}
			}
		}
		if !slices.Equal(subs[0], subs[1]) {
			t.Errorf("%v: two runs with the same seed differ", fo.Model)
		}
	}
}
