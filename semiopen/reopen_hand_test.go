package semiopen

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hpcwl/hpcwl/trace"
)

// replay is a rand.Source that returns a fixed list of values in turn and
// fails the test if the simulation asks for more.
type replay struct {
	t    *testing.T
	vals []uint64
	next int
}

func (r *replay) Uint64() uint64 {
	if r.next >= len(r.vals) {
		r.t.Fatalf("random value %d asked for; only %d given", r.next+1, len(r.vals))
	}
	v := r.vals[r.next]
	r.next++
	return v
}

// Values of the replayed source. math/rand/v2's ExpFloat64 returns j·we[0]
// for a value whose low 32 bits j are below 0xe290a139 and whose bits 32-39
// are 0, so the value k<<28 gives k·c with c = 2^28·we[0] ≈ 0.5436; Float64
// returns the low 53 bits over 2^53.
const (
	goOn  = 0       // Float64 = 0: the user continues (0 < p)
	leave = 1 << 51 // Float64 = 0.25: the user leaves when p = 0.25 (0.25 < 0.25 is false)
)

func ek(k uint64) uint64 { return k << 28 }

// handModel is the model the replayed draws give whole numbers in: with
// λ = c, S = 1/(2c) and Z = 1/c an exponential draw of k·c is an arrival gap
// of k, a service time of k/2 and a think time of k, exactly (checked).
func handModel(t *testing.T, users int) Reopen {
	t.Helper()
	c := rand.New(&replay{t: t, vals: []uint64{ek(1)}}).ExpFloat64()
	m := Reopen{Lambda: c, Service: 1 / (2 * c), Think: 1 / c, Continue: Constant{0.25}, Users: users}
	for k := range uint64(8) {
		x := rand.New(&replay{t: t, vals: []uint64{ek(k)}}).ExpFloat64()
		if x/m.Lambda != float64(k) || x*m.Service != float64(k)/2 || x*m.Think != float64(k) {
			t.Fatalf("draw %d: gap %v, service %v, think %v; the hand computation needs %d, %d/2, %d", k,
				x/m.Lambda, x*m.Service, x*m.Think, k, k, k)
		}
	}
	if f := rand.New(&replay{t: t, vals: []uint64{leave}}).Float64(); f != 0.25 {
		t.Fatalf("Float64 of the leave value = %v, want 0.25", f)
	}
	return m
}

func simulateReplay(t *testing.T, m Reopen, vals []uint64) *ReopenResult {
	t.Helper()
	src := &replay{t: t, vals: vals}
	r, err := m.Simulate(context.Background(), rand.New(src))
	if err != nil {
		t.Fatal(err)
	}
	if src.next != len(vals) {
		t.Errorf("the run drew %d random values, want %d", src.next, len(vals))
	}
	return r
}

// TestReopenByHand follows one run of four users event by event. The draws
// are taken in this order: the first arrival gap; at each arrival the next
// user's gap (none after the last) and then the job's service time; at each
// completion the decision (Float64) and, if the user goes on, his think
// time. Simultaneous events: a completion comes before an arrival or a
// think-time end, an arrival before a think-time end.
//
//	t=1    u0 arrives (gap 1); u1 due at 3; J1 (u0) service 2, runs to 3
//	t=3    J1 ends, before u1's arrival at 3: response 2; u0 goes on, thinks 2 (to 5)
//	t=3    u1 arrives; u2 due at 5; J2 (u1) service 2.5, runs to 5.5
//	t=5    u2 arrives before u0's think end at 5; u3 due at 7; J3 (u2) service 1 waits
//	t=5    u0 submits J4, service 0.5, waits behind J3
//	t=5.5  J2 ends: response 2.5, u1 leaves; J3 runs to 6.5
//	t=6.5  J3 ends: response 1.5, wait 0.5, u2 leaves; J4 runs to 7
//	t=7    J4 ends before u3's arrival: response 2, wait 1.5, u0 leaves
//	t=7    u3 arrives, the last: the period is 7; J5 service 1, runs to 8
//	t=8    J5 ends: response 1, u3 leaves
//
// Over the period [0, 7]: 4 completions (the one at 7 counts), busy 6, jobs
// waiting 2 during [5, 5.5) and 1 during [5.5, 6.5): area 2, in system
// 6 + 2 = 8. All five jobs were submitted by 7 (J5 at 7): mean response
// 9/5, wait 2/5. Residences 6, 2.5, 1.5 and 1 (mean 2.75); jobs per
// residence 2/6, 1/2.5, 1/1.5, 1/1 (mean 0.6). u0 went on after J1
// (service 2) and the four others were last jobs (2.5, 1, 0.5, 1): one break
// job in four ran longer than the continue job.
func TestReopenByHand(t *testing.T) {
	m := handModel(t, 4)
	r := simulateReplay(t, m, []uint64{
		ek(1),        // u0's arrival gap
		ek(2), ek(4), // t=1: u1's gap, J1's service
		goOn, ek(2), // t=3: J1 ends, u0 goes on, think
		ek(2), ek(5), // t=3: u2's gap, J2's service
		ek(2), ek(2), // t=5: u3's gap, J3's service
		ek(1),               // t=5: J4's service
		leave, leave, leave, // t=5.5, 6.5, 7: J2, J3, J4 end
		ek(2), // t=7: J5's service
		leave, // t=8
	})
	if r.Users != 4 || r.Jobs != 5 {
		t.Errorf("users %d, jobs %d; want 4, 5", r.Users, r.Jobs)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"period", r.Period, 7},
		{"throughput", r.Throughput, 4.0 / 7},
		{"utilization", r.Utilization, 6.0 / 7},
		{"queue length", r.QueueLength, 2.0 / 7},
		{"in system", r.InSystem, 8.0 / 7},
		{"response", r.Response, 9.0 / 5},
		{"wait", r.Wait, 2.0 / 5},
		{"jobs per user", r.JobsPerUser, 5.0 / 4},
		{"continue fraction", r.ContinueFraction, 1.0 / 5},
		{"residence", r.Residence, 2.75},
		{"user throughput", r.UserThroughput, 0.6},
		{"continue mean", r.Bias.Continue.Mean, 2},
		{"break mean", r.Bias.Break.Mean, 5.0 / 4},
		{"dominance", r.Bias.Dominance, 0.25},
	} {
		near(t, c.name, c.got, c.want, 1e-12)
	}
	if r.Bias.Continue.N != 1 || r.Bias.Break.N != 4 {
		t.Errorf("continue/break jobs %d, %d; want 1, 4", r.Bias.Continue.N, r.Bias.Break.N)
	}
}

// TestReopenThinkTies: two think times end at the same instant; the user
// who started thinking first submits first. u0's J1 (service 2) ends at 3,
// he thinks 2; u1 arrives at 3 (the period), his J2 (service 1) ends at 4,
// he thinks 1. At 5 u0 submits J3 (service 1, to 6), then u1 J4 (service 3,
// waits to 6, ends at 9). Residences 6 - 1 = 5 and 9 - 3 = 6, two jobs
// each: jobs per residence (2/5 + 2/6)/2 = 11/30 (the other order gives
// (2/8 + 2/3)/2 = 11/24).
func TestReopenThinkTies(t *testing.T) {
	m := handModel(t, 2)
	r := simulateReplay(t, m, []uint64{
		ek(1),        // u0's arrival gap
		ek(2), ek(4), // t=1: u1's gap, J1's service
		goOn, ek(2), // t=3: J1 ends, u0 thinks 2
		ek(2),       // t=3: u1 arrives, J2's service
		goOn, ek(1), // t=4: J2 ends, u1 thinks 1
		ek(2), ek(6), // t=5: J3's and J4's services
		leave, leave, // t=6, 9
	})
	near(t, "user throughput", r.UserThroughput, 11.0/30, 1e-12)
	near(t, "residence", r.Residence, 5.5, 1e-12)
}

// TestReopenInstantRun: one user arriving at 0 (a gap of 0) whose job has
// service 0: the period and the residence are 0, and the rates and the
// throughput per user are 0, not 0/0.
func TestReopenInstantRun(t *testing.T) {
	m := handModel(t, 1)
	r := simulateReplay(t, m, []uint64{ek(0), ek(0), leave})
	if r.Period != 0 || r.Jobs != 1 {
		t.Fatalf("period %v, jobs %d; want 0, 1", r.Period, r.Jobs)
	}
	for name, v := range map[string]float64{"throughput": r.Throughput, "utilization": r.Utilization,
		"queue length": r.QueueLength, "in system": r.InSystem, "user throughput": r.UserThroughput,
		"residence": r.Residence, "response": r.Response} {
		if v != 0 {
			t.Errorf("%s = %v, want 0", name, v)
		}
	}
}

// countCtx counts the calls of Err.
type countCtx struct {
	context.Context
	calls atomic.Int64
}

func (c *countCtx) Err() error { c.calls.Add(1); return nil }

func (c *countCtx) Deadline() (time.Time, bool) { return time.Time{}, false }

// TestReopenContextChecks: with p = 0 each of 3,000 users makes one job:
// 6,000 events (an arrival and a completion each), numbered 0 to 5,999; the
// context is checked at events 0 and 4,096.
func TestReopenContextChecks(t *testing.T) {
	ctx := &countCtx{Context: context.Background()}
	r, err := Reopen{Lambda: 0.5, Service: 1, Users: 3000}.Simulate(ctx, rand.New(rand.NewPCG(1, 0)))
	if err != nil || r.Jobs != 3000 {
		t.Fatalf("%v, %+v", err, r)
	}
	if n := ctx.calls.Load(); n != 2 {
		t.Errorf("context checked %d times, want 2", n)
	}
}

// TestReopenAnalyticByHand: λ = 0.2, S = 2, p = 0.2: X = 0.2/0.8 = 0.25,
// U = 0.5, 1.25 jobs per user, R = 2/0.5 = 4, W = 2·0.5/0.5 = 2,
// Q = 0.25/0.5 = 0.5 and N = 0.5/0.5 = 1.
func TestReopenAnalyticByHand(t *testing.T) {
	a, err := Reopen{Lambda: 0.2, Service: 2, Continue: Constant{0.2}}.Analytic()
	if err != nil {
		t.Fatal(err)
	}
	want := ReopenAnalytic{Throughput: 0.25, Utilization: 0.5, JobsPerUser: 1.25, Response: 4, Wait: 2,
		QueueLength: 0.5, InSystem: 1}
	got := []float64{a.Throughput, a.Utilization, a.JobsPerUser, a.Response, a.Wait, a.QueueLength, a.InSystem}
	exp := []float64{want.Throughput, want.Utilization, want.JobsPerUser, want.Response, want.Wait, want.QueueLength, want.InSystem}
	for i := range got {
		near(t, "analytic field", got[i], exp[i], 1e-12)
	}
}

// TestAggregateByHand: the mean and sample SD of two runs (periods 1 and 3:
// mean 2, SD √2; users 10 and 20: 15), and SD 0 with one run.
func TestAggregateByHand(t *testing.T) {
	runs := []ReopenResult{{Users: 10, Jobs: 12, Period: 1}, {Users: 20, Jobs: 30, Period: 3}}
	runs[0].Bias.Continue.N, runs[1].Bias.Continue.N = 2, 4
	runs[0].Bias.Break.N, runs[1].Bias.Break.N = 10, 20
	mean, sd := aggregate(runs)
	near(t, "mean period", mean.Period, 2, 1e-15)
	near(t, "SD period", sd.Period, math.Sqrt2, 1e-15)
	if mean.Users != 15 || mean.Jobs != 21 || mean.Bias.Continue.N != 3 || mean.Bias.Break.N != 15 {
		t.Errorf("mean counts %d users, %d jobs, %d continue, %d break; want 15, 21, 3, 15",
			mean.Users, mean.Jobs, mean.Bias.Continue.N, mean.Bias.Break.N)
	}
	s, err := Reopen{Lambda: 0.5, Service: 1, Users: 5}.Replicate(context.Background(), 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range fields(&s.SD) {
		if *p != 0 {
			t.Errorf("one run: SD field %d = %v, want 0", i, *p)
		}
	}
}

// TestMixedWorkloadByHand: with every exponential draw c (the source
// replays one value), think time 2/c, service 2/c, arrival rate c/5, a unit
// of 1 s and a horizon of 10: closed user 1 thinks 2 s and runs 2 s jobs:
// submits at 2, 6 and 10 (the horizon included), 14 is past it; open users 2
// and 3 arrive at 5 and 10 (included), 15 is past it.
func TestMixedWorkloadByHand(t *testing.T) {
	c := rand.New(&replay{t: t, vals: []uint64{ek(1)}}).ExpFloat64()
	m := Mixed{Think: 2 / c, Service: 2 / c, Lambda: c / 5}
	tr, err := MixedWorkload(m, 1, WorkloadOptions{Unit: 1, Horizon: 10}, rand.New(&constSource{ek(1)}))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		submit int64
		user   int32
	}{{2, 1}, {5, 2}, {6, 1}, {10, 1}, {10, 3}}
	if len(tr.Jobs) != len(want) {
		t.Fatalf("%d jobs, want %d: %+v", len(tr.Jobs), len(want), tr.Jobs)
	}
	for i, w := range want {
		j := tr.Jobs[i]
		exp := trace.Job{ID: int64(i + 1), Submit: w.submit, Wait: 0, Runtime: 2, ReqTime: 2, ThinkTime: -1,
			AvgCPU: -1, UsedMem: -1, ReqMem: -1, Procs: 1, ReqProcs: 1, User: w.user, Group: -1, App: -1,
			Queue: -1, Partition: -1, Preceding: -1, Status: 1}
		if j != exp {
			t.Errorf("job %d = %+v, want %+v", i+1, j, exp)
		}
	}
}

type constSource struct{ v uint64 }

func (s *constSource) Uint64() uint64 { return s.v }

// TestWorkloadOptionBounds: the unit's and the horizon's ends are valid, one
// past them not; 0 closed users is valid.
func TestWorkloadOptionBounds(t *testing.T) {
	m := Mixed{Think: 1, Service: 1}
	for _, tc := range []struct {
		o    WorkloadOptions
		n    int
		want string // "" for valid
	}{
		{WorkloadOptions{Unit: 1, Horizon: 10}, 0, ""},
		{WorkloadOptions{Unit: 86400, Horizon: 1e7}, 0, ""},
		{WorkloadOptions{Unit: -1, Horizon: 10}, 0, "time unit -1 s"},
		{WorkloadOptions{Unit: 86401, Horizon: 10}, 0, "time unit 86401 s"},
		{WorkloadOptions{Unit: 1, Horizon: 9.5}, 0, "horizon 9.5 time units"},
		{WorkloadOptions{Unit: 1, Horizon: 1.5e7}, 0, "horizon 1.5e+07 time units"},
		{WorkloadOptions{Unit: 1, Horizon: 10}, -1, "closed users -1"},
	} {
		tr, err := MixedWorkload(m, tc.n, tc.o, rand.New(rand.NewPCG(1, 0)))
		switch {
		case tc.want == "" && (err != nil || len(tr.Jobs) != 0):
			t.Errorf("%+v, %d users: %v", tc.o, tc.n, err)
		case tc.want != "" && (!errors.Is(err, ErrParameter) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v, %d users: %v, want an error with %q", tc.o, tc.n, err, tc.want)
		}
	}
}

// TestReopenCompletionAtPeriodEnd: the one user arrives at 2 (the period's
// end) with a job of service 0, which ends at 2, after the arrival: it
// counts among the period's completions (throughput 1/2), with response 0
// and a residence of 0 (no jobs per residence to average).
func TestReopenCompletionAtPeriodEnd(t *testing.T) {
	m := handModel(t, 1)
	r := simulateReplay(t, m, []uint64{ek(2), ek(0), leave})
	near(t, "period", r.Period, 2, 0)
	near(t, "throughput", r.Throughput, 0.5, 0)
	near(t, "utilization", r.Utilization, 0, 0)
	near(t, "response", r.Response, 0, 0)
	near(t, "user throughput", r.UserThroughput, 0, 0)
}
