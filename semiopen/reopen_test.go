package semiopen

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func replicate(t *testing.T, m Reopen) ReopenResult {
	t.Helper()
	s, err := m.Replicate(context.Background(), 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	return s.Mean
}

// TestReopenConstantAgainstMM1 compares the simulation with a constant p
// with its M/M/1 solution (Zakay's thesis, chapter 6, section IV-A),
// λ = 0.5, µ = 1, Z = 1, 3 runs of 10,000 users. The tolerance grows with
// the load: the run is finite (about 20,000 time units) and near
// saturation the queue's relaxation time is long (p = 0.47, U = 0.94).
func TestReopenConstantAgainstMM1(t *testing.T) {
	for _, tc := range []struct {
		p, tolX, tolR float64 // relative tolerances
	}{
		{0, 0.01, 0.03}, {0.2, 0.01, 0.04}, {0.36, 0.01, 0.06}, {0.47, 0.02, 0.20},
	} {
		m := Reopen{Lambda: 0.5, Think: 1, Service: 1, Continue: Constant{tc.p}, Users: 10000}
		a, err := m.Analytic()
		if err != nil {
			t.Fatal(err)
		}
		s := replicate(t, m)
		near(t, "X", s.Throughput, a.Throughput, tc.tolX*a.Throughput)
		near(t, "U", s.Utilization, a.Utilization, tc.tolX*a.Utilization)
		near(t, "jobs/user", s.JobsPerUser, a.JobsPerUser, tc.tolX*a.JobsPerUser)
		near(t, "R", s.Response, a.Response, tc.tolR*a.Response)
		// With a constant p the decision ignores the runtime: no bias.
		if tc.p > 0 {
			near(t, "dominance", s.Bias.Dominance, 0.5, 0.02)
		}
	}
}

// TestReopenThinkTimeIrrelevant is S16's first half (Fig. 4): with a
// constant p the think time changes nothing away from saturation.
func TestReopenThinkTimeIrrelevant(t *testing.T) {
	a, _ := Reopen{Lambda: 0.5, Service: 1, Continue: Constant{0.36}}.Analytic()
	for _, z := range []float64{0.1, 1, 10, 100} {
		s := replicate(t, Reopen{Lambda: 0.5, Think: z, Service: 1, Continue: Constant{0.36}, Users: 10000})
		near(t, "X", s.Throughput, a.Throughput, 0.015*a.Throughput)
		near(t, "R", s.Response, a.Response, 0.08*a.Response)
	}
}

// TestReopenResponseDependent is S16's second half (Fig. 7, µ = 1, Z = 1):
// with p(r) = e^-r or Shmueli's 0.8/(0.5r + 1), repeat jobs lift the
// throughput above λ, it grows with λ towards 1 without saturating, users
// submit fewer jobs as λ grows, and Shmueli's model gets closer to 1 at
// every λ with longer waits. S17 (Fig. 8): break jobs ran longer than
// continue jobs, less so at high λ.
func TestReopenResponseDependent(t *testing.T) {
	lambdas := []float64{0.1, 0.3, 0.5, 0.7, 0.9}
	runs := map[string][]ReopenResult{}
	for _, c := range []Continuation{Exponential{}, Shmueli{}} {
		for _, l := range lambdas {
			s := replicate(t, Reopen{Lambda: l, Think: 1, Service: 1, Continue: c, Users: 10000})
			runs[c.String()] = append(runs[c.String()], s)
			if s.Throughput <= l || s.Throughput >= 1 || s.Utilization >= 1 {
				t.Errorf("%v λ=%v: X = %.3f, U = %.3f; want λ < X, U < 1", c, l, s.Throughput, s.Utilization)
			}
			if s.Bias.Dominance <= 0.5 || s.Bias.Break.Mean <= s.Bias.Continue.Mean || s.Bias.Reverse > 0.02 {
				t.Errorf("%v λ=%v: no runtime bias: %+v", c, l, s.Bias)
			}
		}
	}
	for name, rs := range runs {
		for i := 1; i < len(rs); i++ {
			if rs[i].Throughput <= rs[i-1].Throughput || rs[i].JobsPerUser >= rs[i-1].JobsPerUser ||
				rs[i].UserThroughput >= rs[i-1].UserThroughput || rs[i].Bias.Dominance >= rs[i-1].Bias.Dominance {
				t.Errorf("%s: from λ=%v to %v, X, jobs/user, throughput per user or bias moved the wrong way", name, lambdas[i-1], lambdas[i])
			}
		}
	}
	for i, l := range lambdas {
		e, s := runs["exp"][i], runs["shmueli"][i]
		if s.Throughput <= e.Throughput || s.JobsPerUser <= e.JobsPerUser || s.Wait <= e.Wait {
			t.Errorf("λ=%v: Shmueli X %.3f, jobs/user %.2f, wait %.2f; exp %.3f, %.2f, %.2f", l,
				s.Throughput, s.JobsPerUser, s.Wait, e.Throughput, e.JobsPerUser, e.Wait)
		}
	}
	if x := runs["shmueli"][4].Throughput; x < 0.98 {
		t.Errorf("Shmueli λ=0.9: X = %.3f, want it within 2%% of the capacity", x)
	}
}

// TestReopenPinned pins one run at seed 1, stream 0 (to 4 significant
// digits), so that a change of the simulator's random stream or of its
// accounting shows.
func TestReopenPinned(t *testing.T) {
	m := Reopen{Lambda: 0.5, Think: 1, Service: 1, Continue: Shmueli{}, Users: 10000}
	r, err := m.Simulate(context.Background(), rand.New(rand.NewPCG(1, 0)))
	if err != nil {
		t.Fatal(err)
	}
	got := []float64{float64(r.Jobs), r.Throughput, r.Response, r.Bias.Dominance}
	want := []float64{16371, 0.818498, 3.29634, 0.593149}
	for i := range got {
		if !(math.Abs(got[i]-want[i]) <= 5e-4*math.Abs(want[i])) {
			t.Errorf("pinned value %d = %.6g, want %.6g", i, got[i], want[i])
		}
	}
	r2, _ := m.Simulate(context.Background(), rand.New(rand.NewPCG(1, 0)))
	if !reflect.DeepEqual(r, r2) {
		t.Error("the same seed gave two results")
	}
}

func TestReopenValidate(t *testing.T) {
	ok := Reopen{Lambda: 0.5, Think: 1, Service: 1, Users: 10}
	tests := []struct {
		edit func(*Reopen)
		want string
	}{
		{func(m *Reopen) { m.Lambda = 0 }, "user arrival rate 0; valid: 0 < lambda < 1/service = 1"},
		{func(m *Reopen) { m.Lambda = 1 }, "user arrival rate 1; valid"},
		{func(m *Reopen) { m.Service = -1 }, "service time -1; valid: a finite number > 0"},
		{func(m *Reopen) { m.Think = math.Inf(1) }, "think time +Inf; valid"},
		{func(m *Reopen) { m.Users = 0 }, "users 0; valid: >= 1"},
		{func(m *Reopen) { m.Continue = Constant{0.5} }, "p < 1 - lambda*service = 0.5"},
		{func(m *Reopen) { m.Continue = Constant{1.5} }, "continuation probability 1.5; valid: 0 <= p < 1"},
		{func(m *Reopen) { m.Continue = Constant{1} }, "continuation probability 1; valid: 0 <= p < 1"},
		// λS = 1.6 (λ/S would be 0.4): the bound names 1/S = 0.5.
		{func(m *Reopen) { m.Lambda, m.Service = 0.8, 2 }, "user arrival rate 0.8; valid: 0 < lambda < 1/service = 0.5"},
		{func(m *Reopen) { m.Service = 0 }, "service time 0; valid: a finite number > 0"},
		// λS = 0.25 · 2 = 0.5 saturates the server with p = 0.5.
		{func(m *Reopen) { m.Lambda, m.Service, m.Continue = 0.25, 2, Constant{0.5} }, "p < 1 - lambda*service = 0.5"},
	}
	for _, tc := range tests {
		m := ok
		tc.edit(&m)
		_, err := m.Simulate(context.Background(), rand.New(rand.NewPCG(1, 0)))
		if !errors.Is(err, ErrParameter) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error containing %q", m, err, tc.want)
		}
	}
	if _, err := (Reopen{Lambda: 0.5, Service: 1, Continue: Exponential{}}).Analytic(); !errors.Is(err, ErrParameter) {
		t.Errorf("analytic solution of p(r) = e^-r: %v", err)
	}
	if _, err := ok.Replicate(context.Background(), 1, 0); !errors.Is(err, ErrParameter) {
		t.Errorf("0 runs: %v", err)
	}
}

func TestReopenCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Reopen{Lambda: 0.5, Service: 1, Users: 10}.Simulate(ctx, rand.New(rand.NewPCG(1, 0)))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("canceled run: %v", err)
	}
}

func TestParseContinuation(t *testing.T) {
	tests := []struct {
		in   string
		want Continuation
		p1   float64 // Prob(1)
	}{
		{"0", Constant{0}, 0},
		{"0.36", Constant{0.36}, 0.36},
		{"exp", Exponential{}, math.Exp(-1)},
		{"Shmueli", Shmueli{}, 0.8 / 1.5},
		{"shmueli:1", Shmueli{Scale: 1}, 0.8 / 1.05},
	}
	for _, tc := range tests {
		c, err := ParseContinuation(tc.in)
		if err != nil || c != tc.want {
			t.Errorf("%q: %v, %v", tc.in, c, err)
			continue
		}
		near(t, tc.in+" at r=1", c.Prob(1), tc.p1, 1e-15)
		if back, _ := ParseContinuation(c.String()); back != c {
			t.Errorf("%q: String %q does not parse back", tc.in, c.String())
		}
	}
	for _, bad := range []string{"1", "-0.1", "x", "shmueli:0", "shmueli:", "NaN"} {
		if _, err := ParseContinuation(bad); !errors.Is(err, ErrParameter) || !strings.Contains(err.Error(), "valid: a probability") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestBiasHandComputed: continue runtimes {1, 2, 3}, break {2, 4}. Of the 6
// pairs, break is longer in 4 (2>1, 4>1, 4>2, 4>3) and tied in 1: dominance
// 4.5/6. F_continue - F_break is 1/3, 1/6, 1/2, 0 at 1, 2, 3, 4: KS 1/2 and
// no reverse.
func TestBiasHandComputed(t *testing.T) {
	b := biasOf([]float64{3, 1, 2}, []float64{4, 2})
	near(t, "dominance", b.Dominance, 0.75, 1e-15)
	near(t, "KS", b.KS, 0.5, 1e-15)
	near(t, "reverse", b.Reverse, 0, 0)
	near(t, "continue mean", b.Continue.Mean, 2, 1e-15)
	near(t, "break median", b.Break.Median, 2, 0)
	// Swapped, the reverse is the KS distance and dominance 1 - 0.75.
	b = biasOf([]float64{4, 2}, []float64{3, 1, 2})
	near(t, "swapped dominance", b.Dominance, 0.25, 1e-15)
	near(t, "swapped reverse", b.Reverse, 0.5, 1e-15)
	if b := biasOf(nil, []float64{1}); b.KS != 0 || b.Break.N != 1 {
		t.Errorf("empty continue sample: %+v", b)
	}
}
