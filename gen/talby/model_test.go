package talby

import (
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/userclass"
)

func defaults(t testing.TB) Params {
	t.Helper()
	p, err := DefaultParams(128)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Talby (2006) section 12.2: P(inactive) from Eq. 14 and Table 32, values
// computed from the published coefficients.
func TestInactivityTable32(t *testing.T) {
	p := defaults(t)
	for _, c := range []struct {
		uc   userclass.Class
		woa  int
		want float64
	}{
		{userclass.LTLU, 1, 0}, {userclass.LTLU, 2, 0.427}, {userclass.LTLU, 3, 0.564}, {userclass.LTLU, 6, 0.682},
		{userclass.LTLU, 52, 0.829}, {userclass.LTLU, 100, 0.874},
		{userclass.LTHU, 2, 0.297}, {userclass.LTHU, 20, 0.683},
		{userclass.STWE, 5, 0.823}, {userclass.STWE, 52, 0.970}, {userclass.STWE, 100, 0.970},
		{userclass.STWD, 10, 0.875}, {userclass.STWD, 100, 0.933},
	} {
		if got := p.Inactive(c.woa, c.uc); !(math.Abs(got-c.want) <= 0.0015) {
			t.Errorf("P0(%d, %s) = %.4f, want %.3f", c.woa, c.uc, got, c.want)
		}
	}
}

// Discrete means E[max(1, round(X))] of the sessions per week (Tables 33
// and 34), computed from the published parameters.
func TestSessionCountMeans(t *testing.T) {
	p := defaults(t)
	mean := func(p Params, woa int, uc userclass.Class) float64 {
		var m float64
		for n, q := range p.SessionCountPMF(woa, uc) {
			m += float64(n) * q
		}
		return m
	}
	first := []float64{3.66, 3.61, 2.29, 3.06}
	week10 := []float64{5.83, 3.82, 3.45, 2.84}
	for u := range NumUserClasses {
		uc := userclass.Class(u)
		if got := mean(p, 1, uc); !(math.Abs(got-first[u]) <= 0.03*first[u]) {
			t.Errorf("%s week 1 mean %.3f, want %.2f (Table 34)", uc, got, first[u])
		}
		if got := mean(p, 10, uc); !(math.Abs(got-week10[u]) <= 0.03*week10[u]) {
			t.Errorf("%s week 10 mean %.3f, want %.2f (Table 33)", uc, got, week10[u])
		}
	}
	q := p
	q.SessionsPerWeek.FirstWeek = false
	if got := mean(q, 1, userclass.LTLU); !(math.Abs(got-5.92) <= 0.03*5.92) {
		t.Errorf("LTLU week 1 by Table 33: mean %.3f, want 5.92", got)
	}
}

// Section 12.4, Eqs. 16-17: the start-up week of activity.
func TestStartupWoA(t *testing.T) {
	p := defaults(t)
	for _, c := range []struct {
		uc         userclass.Class
		p1, p52, m float64
	}{
		{userclass.LTLU, 0.0205, 0.0181, 25.98},
		{userclass.LTHU, 0.0197, 0.0187, 26.28},
		{userclass.STWE, 0.0483, 0.0148, 22.01},
		{userclass.STWD, 0.0268, 0.0170, 25.17},
	} {
		pm := p.StartupWoA(c.uc)
		var m float64
		for w, q := range pm {
			m += float64(w) * q
		}
		if !(math.Abs(pm[1]-c.p1) <= 0.0005) || !(math.Abs(pm[52]-c.p52) <= 0.0005) || !(math.Abs(m-c.m) <= 0.05) {
			t.Errorf("%s: P(1) %.4f P(52) %.4f mean %.2f, want %.4f %.4f %.2f", c.uc, pm[1], pm[52], m, c.p1, c.p52, c.m)
		}
	}
}

// Table 30 at the thesis' reference points.
func TestUserClassShares(t *testing.T) {
	p := defaults(t)
	for _, c := range []struct {
		cm, cl float64
		want   [4]float64 // LTLU, LTHU, STWE, STWD
	}{
		{25, 0.45, [4]float64{0.6998, 0.1207, 0.0529, 0.1265}},
		{600, 0.65, [4]float64{0.4429, 0.2456, 0.1587, 0.1528}},
		{300, 0.60, [4]float64{0.5481, 0.2050, 0.0987, 0.1481}},
	} {
		p.Machine.Cm, p.Machine.CL = c.cm, c.cl
		got := p.UserClassShares()
		for u := range got {
			if !(math.Abs(got[u]-c.want[u]) <= 0.0005) {
				t.Errorf("Cm %g CL %g: %s share %.4f, want %.4f", c.cm, c.cl, userclass.Class(u), got[u], c.want[u])
			}
		}
	}
	// Far outside the data, LTLU goes negative and is clipped.
	p.Machine.Cm, p.Machine.CL = 5000, 0.6
	if s := p.UserClassShares(); s[userclass.LTLU] != 0 || !(math.Abs(sum(s[:])-1) <= 1e-12) {
		t.Errorf("Cm 5000: shares %v, want LTLU clipped to 0 and a sum of 1", s)
	}
}

// Eq. 18's worked example: an LTLU user in week 10 whose previous session
// was IW starts an IWD session with probability
// −0.0022·10 + 0.5107 + (0.46 − 0.43) = 51.87%. With P(IWD) from the Table
// 35a counts (0.4317, not 0.43) the sum is 51.70%; the BHD entry
// (0.0163 + 0.01 − 0.0293) is negative, and clipping it renormalizes IWD
// to 51.54%.
func TestEq18Example(t *testing.T) {
	p := defaults(t)
	w := p.WoAClassShares(10)
	raw := w[sessionclass.IWD] + 0.46 - 0.43
	if !(math.Abs(raw-0.5187) <= 1e-4) {
		t.Errorf("Eq. 18 with the thesis' rounding: %.4f, want 0.5187", raw)
	}
	got := p.SessionClassProbs(10, userclass.LTLU, sessionclass.IW)
	if !(math.Abs(got[sessionclass.IWD]-0.5154) <= 0.0005) || got[sessionclass.BHD] != 0 {
		t.Errorf("P(IWD | WoA 10, LTLU, after IW) = %.4f and P(BHD) = %.4f, want 0.5154 and 0 (clipped)", got[sessionclass.IWD], got[sessionclass.BHD])
	}
	// Class 0 (IWD) as the previous session uses its chain row, not the
	// stationary distribution of a first session.
	if after, first := p.SessionClassProbs(10, userclass.LTLU, sessionclass.IWD), p.SessionClassProbs(10, userclass.LTLU, -1); after == first {
		t.Errorf("after IWD and first session alike: %v", after)
	}
}

// The stationary distributions of the Table 35 chains.
func TestStationary(t *testing.T) {
	p := defaults(t)
	// IW, BHP, IWN, BHD, IWD.
	want := map[userclass.Class][5]float64{
		userclass.LTLU: {0.208, 0.032, 0.240, 0.016, 0.504},
		userclass.LTHU: {0.199, 0.072, 0.380, 0.091, 0.257},
		userclass.STWE: {0.328, 0.016, 0.268, 0.020, 0.368},
		userclass.STWD: {0.219, 0.013, 0.475, 0.014, 0.279},
	}
	for uc, w := range want {
		pi := p.Stationary(uc)
		for i, c := range tableOrder {
			if !(math.Abs(pi[c]-w[i]) <= 0.0015) {
				t.Errorf("%s stationary %s = %.4f, want %.3f", uc, c, pi[c], w[i])
			}
		}
	}
}

// Table 36 at weeks 1, 52 and 100.
func TestWoAShares(t *testing.T) {
	p := defaults(t)
	for woa, w := range map[int][5]float64{ // IWD, IWN, IW, BHP, BHD
		1:   {0.5085, 0.2448, 0.2161, 0.0188, 0.0118},
		52:  {0.3963, 0.3009, 0.2161, 0.0494, 0.0373},
		100: {0.2907, 0.3537, 0.2161, 0.0782, 0.0613},
	} {
		s := p.WoAClassShares(woa)
		for c := range s {
			if !(math.Abs(s[c]-w[c]) <= 1e-4) {
				t.Errorf("WoA %d: %s %.4f, want %.4f", woa, sessionclass.Class(c), s[c], w[c])
			}
		}
	}
}

func TestDefaultJobsMeanJobs(t *testing.T) {
	for c, j := range DefaultJobs() {
		if m := zipfMean(j.Jobs.A, j.Jobs.Max); !(math.Abs(m-table21[c].jobs) <= 0.01) {
			t.Errorf("%s: mean jobs per session %.3f, want %.1f (Table 21)", sessionclass.Class(c), m, table21[c].jobs)
		}
		if got := sum(j.Days[:5]); !(math.Abs(got-table21[c].workday) <= 1e-9) {
			t.Errorf("%s: workday share %.3f, want %.2f", sessionclass.Class(c), got, table21[c].workday)
		}
	}
}

// TestLogSD checks the spread of ln x from a median m and an interval i by
// hand: asinh(i/(2m))/1.645, so i = 2m·sinh(1.645) gives 1; a median or an
// interval of 0 or less gives 0.
func TestLogSD(t *testing.T) {
	if got := logSD(3, 6*math.Sinh(1.645)); math.Abs(got-1) > 1e-12 {
		t.Errorf("logSD(3, 6 sinh 1.645) = %v, want 1", got)
	}
	for _, c := range [][2]float64{{0, 5}, {-1, 5}, {3, 0}, {3, -2}} {
		if got := logSD(c[0], c[1]); got != 0 {
			t.Errorf("logSD(%v, %v) = %v, want 0", c[0], c[1], got)
		}
	}
}

// TestGPDByHand checks the generalized Pareto functions on values worked
// by hand: with shape 0 the exponential, whose median is μ + σ ln 2; at the
// upper end of a negative shape (1 + k z = 0) the distribution function is
// 1; the quantile function inverts it for shapes 0.3, 0 and −0.2; and the
// rounded session counts of Params.SessionCountPMF add up to 1, the last
// one taking the whole tail above Max − ½. normalize makes an all-zero
// vector uniform.
func TestGPDByHand(t *testing.T) {
	const mu, s = 0.6, 2.0
	if got := gpdCDF(mu+s*math.Ln2, 0, s, mu); math.Abs(got-0.5) > 1e-15 {
		t.Errorf("exponential median: F = %v, want 0.5", got)
	}
	if got := gpdQuantile(0.5, 0, s, mu); math.Abs(got-(mu+s*math.Ln2)) > 1e-15 {
		t.Errorf("exponential median: %v, want %v", got, mu+s*math.Ln2)
	}
	if got := gpdCDF(mu+2*s, -0.5, s, mu); got != 1 {
		t.Errorf("upper end of shape -0.5: F = %v, want 1", got)
	}
	if got := gpdCDF(mu, 0.3, s, mu); got != 0 {
		t.Errorf("at the location: F = %v, want 0", got)
	}
	for _, k := range []float64{0.3, 0, -0.2} {
		for _, u := range []float64{0.1, 0.5, 0.9} {
			if got := gpdCDF(gpdQuantile(u, k, s, mu), k, s, mu); math.Abs(got-u) > 1e-12 {
				t.Errorf("k %v: F(Q(%v)) = %v", k, u, got)
			}
		}
	}
	p := defaults(t)
	pmf := p.SessionCountPMF(3, 0)
	k, sg := p.GPD(3, 0)
	m := p.SessionsPerWeek.Max
	if want := 1 - gpdCDF(float64(m)-0.5, k, sg, p.SessionsPerWeek.Mu); math.Abs(pmf[m]-want) > 1e-15 || math.Abs(sum(pmf)-1) > 1e-12 {
		t.Errorf("P(Max) = %v, want %v; sum %v, want 1", pmf[m], want, sum(pmf))
	}
	xs := []float64{0, 0, 0, 0}
	if normalize(xs); xs[0] != 0.25 || xs[3] != 0.25 {
		t.Errorf("all zero normalized: %v, want uniform", xs)
	}
}
