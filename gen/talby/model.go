package talby

import (
	"math"
	"math/rand/v2"

	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/userclass"
)

// UserClassShares returns the share of each user class (LTLU, LTHU, STWE,
// STWD) at the parameters' Cm and CL (Talby (2006), Table 30): negative
// values are clipped to 0 and the rest renormalized, as the linear fit can
// leave [0, 1] outside the data's range.
func (p Params) UserClassShares() [NumUserClasses]float64 {
	var s [NumUserClasses]float64
	for c, l := range p.UserClasses.Share {
		s[c] = math.Max(0, l.Cm*p.Machine.Cm+l.CL*p.Machine.CL+l.Intercept)
	}
	normalize(s[:])
	return s
}

// normalize scales xs to sum 1; all zero becomes uniform.
func normalize(xs []float64) {
	t := sum(xs)
	for i := range xs {
		if t > 0 {
			xs[i] /= t
		} else {
			xs[i] = 1 / float64(len(xs))
		}
	}
}

// MeanStartupUsers is the expected number of users active at start-up
// before rounding (Talby (2006), Eq. 13 without its noise).
func (p Params) MeanStartupUsers() float64 {
	return p.StartupUsers.Slope*p.Machine.CL + p.StartupUsers.Intercept
}

// Inactive returns P(no session in week of activity woa) for a user of
// class uc (Talby (2006), section 12.2, Eq. 14 and Table 32), clipped to
// [0, Max].
func (p Params) Inactive(woa int, uc userclass.Class) float64 {
	if woa <= 1 {
		return 0
	}
	l := p.Inactivity.Class[uc]
	v := l.A*math.Log(float64(woa)) + l.B
	switch {
	case woa == 2:
		v += p.Inactivity.Week2
	case woa <= 5:
		v += p.Inactivity.Weeks3to5
	}
	return math.Min(math.Max(v, 0), p.Inactivity.Max)
}

// GPD returns the generalized Pareto shape and scale of the sessions per
// active week of a user of class uc in week of activity woa (Talby (2006),
// Tables 33 and 34), the scale at least SigmaFloor.
func (p Params) GPD(woa int, uc userclass.Class) (k, sigma float64) {
	g := p.SessionsPerWeek.Class[uc]
	if woa <= 1 && p.SessionsPerWeek.FirstWeek {
		k, sigma = g.FirstK, g.FirstSigma
	} else {
		w := float64(woa)
		k, sigma = g.KSlope*w+g.KIntercept, g.SigmaSlope*w+g.SigmaIntercept
	}
	return k, math.Max(sigma, p.SessionsPerWeek.SigmaFloor)
}

// gpdCDF is the generalized Pareto distribution function of location mu.
func gpdCDF(x, k, sigma, mu float64) float64 {
	z := (x - mu) / sigma
	if z <= 0 {
		return 0
	}
	if math.Abs(k) < 1e-9 {
		return -math.Expm1(-z)
	}
	b := 1 + k*z
	if b <= 0 {
		return 1
	}
	return 1 - math.Pow(b, -1/k)
}

// gpdQuantile is the inverse of gpdCDF at u in [0, 1).
func gpdQuantile(u, k, sigma, mu float64) float64 {
	if math.Abs(k) < 1e-9 {
		return mu - sigma*math.Log1p(-u)
	}
	return mu + sigma/k*(math.Pow(1-u, -k)-1)
}

// SessionCountPMF returns P(n sessions) for n = 1..Max of an active user of
// class uc in week of activity woa: the generalized Pareto rounded to the
// nearest integer, at least 1 and at most Max (Talby (2006), section 12.3).
// Index 0 is unused.
func (p Params) SessionCountPMF(woa int, uc userclass.Class) []float64 {
	k, s := p.GPD(woa, uc)
	mu, m := p.SessionsPerWeek.Mu, p.SessionsPerWeek.Max
	pmf := make([]float64, m+1)
	prev := 0.0
	for n := 1; n < m; n++ {
		c := gpdCDF(float64(n)+0.5, k, s, mu)
		pmf[n] = c - prev
		prev = c
	}
	pmf[m] = 1 - prev
	return pmf
}

// drawSessions draws the number of sessions of an active user.
func (p Params) drawSessions(r *rand.Rand, woa int, uc userclass.Class) int {
	k, s := p.GPD(woa, uc)
	return p.drawCount(r, k, s)
}

// drawNewUsers draws the number of new users of a week (Talby (2006),
// section 11.2): ln N logistic, rounded.
func (p Params) drawNewUsers(r *rand.Rand) int {
	u := r.Float64()
	for u == 0 {
		u = r.Float64()
	}
	x := math.Exp(p.NewUsers.Mu + p.NewUsers.Sigma*math.Log(u/(1-u)))
	return int(math.Min(math.Round(x), 1e6))
}

// drawStartupUsers draws the users active at start-up (Talby (2006), Eq.
// 13), rounded and clipped at 0.
func (p Params) drawStartupUsers(r *rand.Rand) int {
	v := p.MeanStartupUsers() + p.StartupUsers.Noise*(2*r.Float64()-1)
	return int(math.Max(0, math.Round(v)))
}

// StartupWoA returns P(WoA = w) for w = 1..MaxWoA of a user of class uc
// active at start-up (Talby (2006), section 12.4, Eqs. 16 and 17): the
// probability of some session in the 12 weeks from w, normalized over
// w <= MaxWoA. Index 0 is unused.
func (p Params) StartupWoA(uc userclass.Class) []float64 {
	m := p.StartupUsers.MaxWoA
	pmf := make([]float64, m+1)
	for w := 1; w <= m; w++ {
		prod := 1.0
		for x := w; x < w+12; x++ {
			prod *= p.Inactive(x, uc)
		}
		pmf[w] = 1 - prod
	}
	normalize(pmf[1:])
	return pmf
}

// WoAClassShares returns P(SC | WoA) of Talby's Table 36.
func (p Params) WoAClassShares(woa int) [NumSessionClasses]float64 {
	var s [NumSessionClasses]float64
	for c, l := range p.SessionClasses.WoA {
		s[c] = l.Slope*float64(woa) + l.Intercept
	}
	return s
}

// chainRow returns the normalized row prev of user class uc's chain.
func (p Params) chainRow(uc userclass.Class, prev sessionclass.Class) [NumSessionClasses]float64 {
	row := p.SessionClasses.Chain[uc][prev]
	normalize(row[:])
	return row
}

// Stationary returns the stationary distribution of user class uc's chain
// of session classes (by power iteration from the uniform distribution).
func (p Params) Stationary(uc userclass.Class) [NumSessionClasses]float64 {
	var rows [NumSessionClasses][NumSessionClasses]float64
	for c := range NumSessionClasses {
		rows[c] = p.chainRow(uc, sessionclass.Class(c))
	}
	var pi [NumSessionClasses]float64
	for c := range pi {
		pi[c] = 1 / float64(NumSessionClasses)
	}
	for range 1000 {
		var next [NumSessionClasses]float64
		for i := range pi {
			for j := range pi {
				next[j] += pi[i] * rows[i][j]
			}
		}
		pi = next
	}
	return pi
}

// SessionClassProbs returns the distribution of the class of a session of
// a user of class uc in week of activity woa whose previous session had
// class prev (prev < 0 for the user's first session), by Talby's Eq. 18:
// P(SC | WoA) + P(SC | UC, PSC) − P(SC), negative values clipped and the
// rest renormalized. A first session uses the stationary distribution of
// the user class's chain for P(SC | UC, PSC).
func (p Params) SessionClassProbs(woa int, uc userclass.Class, prev sessionclass.Class) [NumSessionClasses]float64 {
	var cond [NumSessionClasses]float64
	if prev < 0 {
		cond = p.Stationary(uc)
	} else {
		cond = p.chainRow(uc, prev)
	}
	g := p.SessionClasses.Global
	normalize(g[:])
	s := p.WoAClassShares(woa)
	for c := range s {
		s[c] = math.Max(0, s[c]+cond[c]-g[c])
	}
	normalize(s[:])
	return s
}

// draw returns an index drawn from the weights w (their sum is total).
func draw(r *rand.Rand, w []float64, total float64) int {
	u := r.Float64() * total
	for i, x := range w {
		if u < x {
			return i
		}
		u -= x
	}
	for i := len(w) - 1; i >= 0; i-- {
		if w[i] > 0 {
			return i
		}
	}
	return len(w) - 1
}

// StartupFitted reports whether start-up users follow the fitted activity
// of StartupUsers (StartupFitted) rather than the thesis' Eqs. 16-17.
func (p Params) StartupFitted() bool { return p.StartupUsers.Activity == StartupFitted }

// StartupInactive returns P(no session in model week x) of a start-up
// user of class uc under StartupFitted (x = 1 for the first week),
// clipped to [0, Inactivity.Max].
func (p Params) StartupInactive(x int, uc userclass.Class) float64 {
	l := p.StartupUsers.Inactivity[uc]
	v := l.A*math.Log(float64(max(x, 1))) + l.B
	return math.Min(math.Max(v, 0), p.Inactivity.Max)
}

// startupGPD returns the generalized Pareto shape and scale of the
// sessions of an active start-up user of class uc in model week x under
// StartupFitted.
func (p Params) startupGPD(x int, uc userclass.Class) (k, sigma float64) {
	g := p.StartupUsers.Sessions[uc]
	w := float64(x)
	return g.KSlope*w + g.KIntercept, math.Max(g.SigmaSlope*w+g.SigmaIntercept, p.SessionsPerWeek.SigmaFloor)
}

// drawCount draws a rounded generalized Pareto count in 1..Max.
func (p Params) drawCount(r *rand.Rand, k, s float64) int {
	x := gpdQuantile(r.Float64(), k, s, p.SessionsPerWeek.Mu)
	n := math.Round(x)
	if !(n >= 1) {
		n = 1
	}
	return int(math.Min(n, float64(p.SessionsPerWeek.Max)))
}
