package semiopen

import (
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// TestOpenByHand: the pure open queue of service 2 and rate 0.25 is an
// M/M/1 queue at utilization 0.25 · 2 = 0.5: R_o = 2/(1 - 0.5) = 4 and, by
// Little's law, Q_o = 0.25 · 4 = 1.
func TestOpenByHand(t *testing.T) {
	p, err := Mixed{Service: 2, Think: 4, Lambda: 0.25}.Open()
	if err != nil {
		t.Fatal(err)
	}
	near(t, "R_o", p.OpenResponse, 4, 1e-12)
	near(t, "Q_o", p.OpenQueue, 1, 1e-12)
	near(t, "X", p.Throughput, 0.25, 1e-12)
	near(t, "U", p.Utilization, 0.5, 1e-12)
	if p.Phase != Partial {
		t.Errorf("phase %v, want %v", p.Phase, Partial)
	}
}

// TestMeasureMixedByHand measures a hand-made run of two closed users (1
// and 2) and open users (3) with a 10 s time unit and a horizon of 100
// units: the window runs from 100 s (Warmup = 10 % of the horizon) to
// 1,000 s, 90 units. Jobs count as completions when they end in (100 s,
// 1,000 s], and as responses when they are submitted in [100 s, 1,000 s).
//
//	1: user 1, submit 0, start 0, end 100: ends at the window's start, out
//	2: user 2, submit 0, start 0, end 300: a closed completion, busy 200 s
//	3: user 3, submit 100, start 400, end 1000: an open completion at the
//	   window's end, busy 600 s, response 90 units
//	4: user 1, submit 950, start 1000, end 1200: response 25 units, no
//	   completion, no busy time in the window
//	5: user 1, submit 500, never started: ignored
//	6: user 2, submit 1000, start 1000, end 1010: after the window
//
// Throughputs 1/90 each, utilization 800 s / 10 / 90 = 8/9.
func TestMeasureMixedByHand(t *testing.T) {
	job := func(id int64, user int32, submit, start, end sim.Time) sim.Outcome {
		return sim.Outcome{Job: sim.Job{ID: id, User: user, Submit: submit, Procs: 1}, Start: start, End: end}
	}
	res := &sim.Result{Procs: 1, Jobs: []sim.Outcome{
		job(1, 1, 0, 0, 100),
		job(2, 2, 0, 0, 300),
		job(3, 3, 100, 400, 1000),
		job(4, 1, 950, 1000, 1200),
		job(5, 1, 500, -1, -1),
		job(6, 2, 1000, 1000, 1010),
	}}
	m := measureMixed(res, 2, WorkloadOptions{Unit: 10, Horizon: 100})
	if m.N != 2 || m.Jobs != 6 || m.ClosedJobs != 1 || m.OpenJobs != 1 {
		t.Errorf("N %d, jobs %d, closed %d, open %d; want 2, 6, 1, 1", m.N, m.Jobs, m.ClosedJobs, m.OpenJobs)
	}
	near(t, "window", m.Window, 90, 1e-12)
	near(t, "closed throughput", m.ClosedThroughput, 1.0/90, 1e-12)
	near(t, "open throughput", m.OpenThroughput, 1.0/90, 1e-12)
	near(t, "throughput", m.Throughput, 2.0/90, 1e-12)
	near(t, "utilization", m.Utilization, 8.0/9, 1e-12)
	near(t, "closed response", m.ClosedResponse, 25, 1e-12)
	near(t, "open response", m.OpenResponse, 90, 1e-12)
}

// TestShmueliString: a scale other than the thesis's 10 is written back
// in full, so that ParseContinuation reads the same function.
func TestShmueliString(t *testing.T) {
	for _, scale := range []float64{2.5, 0.125, 37} {
		s := Shmueli{Scale: scale}.String()
		if !strings.HasPrefix(s, "shmueli:") {
			t.Fatalf("String() = %q", s)
		}
		c, err := ParseContinuation(s)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := c.(Shmueli); !ok || got.Scale != scale {
			t.Errorf("ParseContinuation(%q) = %#v, want scale %v", s, c, scale)
		}
	}
}

// TestKneeAndBoundByHand: with S = 1, λ = 0.5 and Z = 2 the inflated
// service is S_c = 1/(1 - 0.5) = 2 and the knee N* = (µ - λ)(Z + S_c) =
// 0.5 · 4 = 2 users: 2 users are still in the partial phase, 3 in the full
// one. The throughput bound is λ + min(N/(Z + S_c), µ - λ): 0.75 for one
// user, 1 = µ for 100.
func TestKneeAndBoundByHand(t *testing.T) {
	m := Mixed{Service: 1, Lambda: 0.5, Think: 2}
	near(t, "knee", m.Knee(), 2, 0)
	if got := m.Phase(2); got != Partial {
		t.Errorf("phase of 2 users %v, want %v", got, Partial)
	}
	if got := m.Phase(3); got != Full {
		t.Errorf("phase of 3 users %v, want %v", got, Full)
	}
	near(t, "bound, 1 user", m.ThroughputBound(1), 0.75, 1e-15)
	near(t, "bound, 100 users", m.ThroughputBound(100), 1, 1e-15)
}

// TestMeasureMixedEmpty: a window without any submitted job reports
// response times of 0, not NaN.
func TestMeasureMixedEmpty(t *testing.T) {
	res := &sim.Result{Procs: 1, Jobs: []sim.Outcome{
		{Job: sim.Job{ID: 1, User: 1, Procs: 1}, Start: 0, End: 300},
	}}
	m := measureMixed(res, 2, WorkloadOptions{Unit: 10, Horizon: 100})
	if m.ClosedResponse != 0 || m.OpenResponse != 0 || m.ClosedJobs != 0 || m.OpenJobs != 0 {
		t.Errorf("responses %v, %v over %d and %d jobs; want 0, 0, 0, 0", m.ClosedResponse, m.OpenResponse, m.ClosedJobs, m.OpenJobs)
	}
}
