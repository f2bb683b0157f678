package semiopen

import (
	"errors"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol) { // a NaN fails too
		t.Errorf("%s = %.6f, want %.6f (tolerance %g)", what, got, want, tol)
	}
}

// TestMVAHandComputed pins the MVA recursion against values worked out by
// hand as exact fractions, S = 1, Z = 5 (the setting of Zakay's thesis,
// chapter 6, Fig. 3).
func TestMVAHandComputed(t *testing.T) {
	tests := []struct {
		lambda float64
		n      int
		r, x   float64 // closed response time and throughput
		ro     float64 // open response time
	}{
		// λ = 0: R(1) = 1, X(1) = 1/6, Q(1) = 1/6; R(2) = 7/6, X(2) =
		// 2/(5+7/6) = 12/37, Q(2) = 14/37; R(3) = 51/37, X(3) = 111/236.
		{0, 1, 1, 1.0 / 6, 7.0 / 6},
		{0, 2, 7.0 / 6, 12.0 / 37, 51.0 / 37},
		{0, 3, 51.0 / 37, 111.0 / 236, 1 + (111.0/236)*(51.0/37)},
		// λ = 0.3: S_c = 10/7; R(1) = 10/7, X(1) = 7/45, Q(1) = 2/9,
		// R_o(1) = (10/7)(11/9) = 110/63; R(2) = 110/63, X(2) = 126/425,
		// Q(2) = 44/85, R_o(2) = (10/7)(129/85) = 258/119.
		{0.3, 1, 10.0 / 7, 7.0 / 45, 110.0 / 63},
		{0.3, 2, 110.0 / 63, 126.0 / 425, 258.0 / 119},
	}
	for _, tc := range tests {
		m := Mixed{Lambda: tc.lambda, Think: 5, Service: 1}
		pts, err := m.MVA(tc.n)
		if err != nil {
			t.Fatal(err)
		}
		p := pts[tc.n-1]
		if p.N != tc.n {
			t.Errorf("point N = %d, want %d", p.N, tc.n)
		}
		near(t, "R_c", p.ClosedResponse, tc.r, 1e-12)
		near(t, "X_c", p.ClosedThroughput, tc.x, 1e-12)
		near(t, "R_o", p.OpenResponse, tc.ro, 1e-12)
		near(t, "X", p.Throughput, tc.lambda+tc.x, 1e-12)
		near(t, "U", p.Utilization, tc.lambda+tc.x, 1e-12)
		// Little's law for the open class: Q_o = λ R_o.
		near(t, "Q_o", p.OpenQueue, tc.lambda*tc.ro, 1e-12)
	}
}

// TestMVAFig3 checks the shape of Zakay's thesis, chapter 6, Fig. 3 (µ = 1,
// Z = 5): response time and throughput grow with N; the throughput
// saturates at the capacity and the response time becomes linear in N with
// slope 1/(µ-λ), on the full-utilization law R_c = N/(µ-λ) - Z.
func TestMVAFig3(t *testing.T) {
	for _, lambda := range []float64{0, 0.3} {
		m := Mixed{Lambda: lambda, Think: 5, Service: 1}
		pts, err := m.MVA(40)
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k < len(pts); k++ {
			if pts[k].ClosedResponse <= pts[k-1].ClosedResponse || pts[k].Throughput < pts[k-1].Throughput-1e-12 {
				t.Fatalf("λ=%v: R or X falls or R does not grow from N=%d to %d", lambda, k, k+1)
			}
		}
		last := pts[39]
		near(t, "X(40)", last.Throughput, 1, 1e-9)
		near(t, "R(40)-R(39)", last.ClosedResponse-pts[38].ClosedResponse, 1/(1-lambda), 1e-9)
		near(t, "R(40) against N/(µ-λ)-Z", last.ClosedResponse, m.FullUtilizationResponse(40), 1e-9)
	}
	// N = 20, λ = 0.3: R_c = 20/0.7 - 5 = 23.571 (section III-C).
	pts, _ := Mixed{Lambda: 0.3, Think: 5, Service: 1}.MVA(20)
	near(t, "R_c(20), λ=0.3", pts[19].ClosedResponse, 20/0.7-5, 1e-3)
}

// TestMixedOperationalLaws checks the laws every MVA point must obey, on
// random parameters: the interactive response time law X_c = N/(R_c + Z),
// conservation of the closed users (those at the server plus those
// thinking, Q_c + X_c Z = N), the utilization law U = S X, the phase bounds
// R_c >= N/(µ-λ) - Z and X <= the asymptotic bound, and R_o >= R_c.
func TestMixedOperationalLaws(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.Float64Range(0.01, 100).Draw(t, "S")
		m := Mixed{Service: s,
			Think:  rapid.Float64Range(0, 1000).Draw(t, "Z"),
			Lambda: rapid.Float64Range(0, 0.99).Draw(t, "rho") / s}
		n := rapid.IntRange(1, 200).Draw(t, "N")
		pts, err := m.MVA(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pts {
			k := float64(p.N)
			tol := 1e-9 * (1 + k + m.Think)
			if d := p.ClosedThroughput*(p.ClosedResponse+m.Think) - k; !(math.Abs(d) <= tol) {
				t.Fatalf("N=%d: X_c (R_c+Z) - N = %g", p.N, d)
			}
			if d := p.ClosedQueue + p.ClosedThroughput*m.Think - k; !(math.Abs(d) <= tol) {
				t.Fatalf("N=%d: Q_c + X_c Z - N = %g", p.N, d)
			}
			if d := p.Utilization - s*p.Throughput; !(math.Abs(d) <= 1e-12) {
				t.Fatalf("N=%d: U - S X = %g", p.N, d)
			}
			if p.ClosedResponse < m.FullUtilizationResponse(p.N)-tol {
				t.Fatalf("N=%d: R_c %g below N/(µ-λ)-Z = %g", p.N, p.ClosedResponse, m.FullUtilizationResponse(p.N))
			}
			if p.Throughput > m.ThroughputBound(p.N)*(1+1e-12) || p.Utilization > 1+1e-12 {
				t.Fatalf("N=%d: X %g above its bound %g", p.N, p.Throughput, m.ThroughputBound(p.N))
			}
			if p.OpenResponse < p.ClosedResponse {
				t.Fatalf("N=%d: R_o %g below R_c %g", p.N, p.OpenResponse, p.ClosedResponse)
			}
			r, err := m.ClosedResponseAt(p.N, p.Throughput)
			if err != nil || !(math.Abs(r-p.ClosedResponse) <= 1e-6*(1+r)) {
				t.Fatalf("N=%d: R_c from X = %g (%v), MVA %g", p.N, r, err, p.ClosedResponse)
			}
		}
	})
}

func TestMixedPhaseAndKnee(t *testing.T) {
	m := Mixed{Lambda: 0.3, Think: 5, Service: 1}
	// N* = (1 - 0.3)(5 + 10/7) = 4.5.
	near(t, "knee", m.Knee(), 4.5, 1e-12)
	if m.Phase(4) != Partial || m.Phase(5) != Full {
		t.Errorf("phases at 4 and 5: %v, %v; want partial, full", m.Phase(4), m.Phase(5))
	}
	if Full.String() != "full" || Partial.String() != "partial" {
		t.Error("phase names")
	}
	o, err := m.Open()
	if err != nil {
		t.Fatal(err)
	}
	near(t, "open M/M/1 response", o.OpenResponse, 1/0.7, 1e-12)
	near(t, "open throughput", o.Throughput, 0.3, 0)
	if _, err := m.ClosedResponseAt(3, 0.3); !errors.Is(err, ErrParameter) {
		t.Errorf("throughput at λ accepted: %v", err)
	}
}

func TestMixedValidate(t *testing.T) {
	tests := []struct {
		m    Mixed
		n    int
		want string
	}{
		{Mixed{Lambda: 0.3, Think: 5, Service: 0}, 1, "service demand 0; valid: a finite number > 0"},
		{Mixed{Lambda: 0.3, Think: -1, Service: 1}, 1, "think time -1; valid: a finite number >= 0"},
		{Mixed{Lambda: 1, Think: 5, Service: 1}, 1, "open arrival rate 1; valid: 0 <= lambda < 1/service = 1"},
		{Mixed{Lambda: 0.2, Think: 5, Service: 5}, 1, "open arrival rate 0.2; valid: 0 <= lambda < 1/service = 0.2"},
		{Mixed{Lambda: math.NaN(), Think: 5, Service: 1}, 1, "open arrival rate NaN"},
		{Mixed{Lambda: 0.3, Think: 5, Service: 1}, -1, "closed users -1; valid: >= 0"},
	}
	for _, tc := range tests {
		_, err := tc.m.MVA(tc.n)
		if !errors.Is(err, ErrParameter) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v N=%d: error %v, want one containing %q", tc.m, tc.n, err, tc.want)
		}
	}
	if pts, err := (Mixed{Service: 1}).MVA(0); err != nil || len(pts) != 0 {
		t.Errorf("N=0: %v, %v", pts, err)
	}
}
