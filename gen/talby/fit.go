package talby

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/summary"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/hpcwl/hpcwl/userclass"
	"gonum.org/v1/gonum/optimize"
)

// ErrTooShort reports a log with too little data to fit a layer of the
// model; the message names the layer and what it lacks.
var ErrTooShort = errors.New("log too short to fit")

// Steady-state and data thresholds of the fit (Talby (2006), sections 11.1
// and 12.1): the steady state starts at week 12, so users whose first
// week is 12 or later have a known week of activity.
const (
	// SteadyWeek is the first week of the steady state.
	SteadyWeek = 12
	// MinWeeks is the fewest full weeks the user layer needs: the 11
	// start-up weeks and at least 9 weeks of steady state.
	MinWeeks = 20
	// MinClassSessions is the fewest sessions of a class whose job layer
	// is fitted; classes with fewer keep the default job layer.
	MinClassSessions = 10
	// MinClassUsers is the fewest users of a class with a known first week
	// whose inactivity and sessions per week are fitted; classes with
	// fewer keep the published values.
	MinClassUsers = 5
)

// FitOptions control Fit.
type FitOptions struct {
	// Procs overrides the log's machine size when > 0.
	Procs int
	// Seed seeds the k-means of the session and user classes.
	Seed uint64
	// SessionClip and Clip limit the z-scores of the sessions and of the
	// users before k-means (sessionclass.ClassifyOptions.Clip); 0 means
	// no limit.
	SessionClip, Clip float64
	// ThesisRules keeps the thesis' rules where our extensions differ:
	// start-up users by Eqs. 16-17 (StartupThesis) and placement by
	// Listing 5 (PlacementSessions). Without it the fitted parameters
	// select StartupFitted and PlacementStarts. The start-up users'
	// activity is fitted either way, so either rule can be chosen later.
	ThesisRules bool
}

// FitReport describes what a fit used.
type FitReport struct {
	// Weeks is the number of full weeks of the log (week 1 is its first
	// full week, from Monday 00:00 local time).
	Weeks int `json:"weeks"`
	Jobs  int `json:"jobs"`
	// Sessions and Users counted by Talby's rules (think time 20 minutes).
	Sessions int `json:"sessions"`
	Users    int `json:"users"`
	// UserClasses and SessionClasses count the users and sessions of each
	// class found by k-means.
	UserClasses    [NumUserClasses]int    `json:"user_classes"`
	SessionClasses [NumSessionClasses]int `json:"session_classes"`
	// NewUsers are the new users of each steady-state week.
	NewUsers []int `json:"new_users"`
	// StartupUsers are the users first seen before week 12 beyond the
	// steady-state rate of new users.
	StartupUsers float64 `json:"startup_users"`
	// KnownUsers counts, per class, the users whose first week is known
	// (week 12 or later), those the session layer is fitted on.
	KnownUsers [NumUserClasses]int `json:"known_users"`
	// Vars are the log's workload variables (Talby's Tables 2 and 3).
	Vars summary.Variables `json:"variables"`
}

// Fit estimates the parameters of Talby's model from a log: sessions and
// users are found and classified as in chapter 9 (packages sessionclass
// and userclass); the machine's Cm and CL are the log's; then each layer
// is fitted as sections 11-13 describe, with these choices of ours where a
// single log cannot tell or the thesis is silent:
//   - new users per week: maximum likelihood of the rounded log-logistic
//     on the weeks from week 12;
//   - users at start-up: one log cannot give Eq. 13's slope in CL, so the
//     published slope and noise are kept and the intercept makes the mean
//     the log's count; likewise the user-class shares keep Table 30's
//     slopes and their intercepts give the log's shares at its Cm and CL;
//     the repeat probability is the maximum-likelihood one;
//   - inactivity: weighted least squares of Eq. 14 (with its published
//     week 2-5 offsets) on users whose first week is known;
//   - sessions per active week: maximum likelihood of the rounded
//     generalized Pareto (location 0.6), week 1 apart (Table 34) and the
//     linear Table 33 on the other weeks, all weeks pooled;
//   - session classes: the chains of Table 35 counted per user class,
//     Table 36 by least squares on the sessions of users whose first week
//     is known, P(SC) from the sessions with a predecessor;
//   - the job layer of each session class from its sessions (FitJobClass).
//
// Two extensions of ours are fitted and, unless opt.ThesisRules, selected,
// because the thesis' rules do not give a fitted log back (on KTH-SP2,
// 39 % fewer sessions and a third of the median runtime; docs/validation.md):
//   - the start-up users' activity (StartupFitted, fitStartupActivity) from
//     the users first seen before week 12, and Eq. 13's noise set to 0
//     (it is the thesis' spread between logs; one log has no residual);
//   - placement by start times (PlacementStarts).
//
// Parts without enough data keep the published values; Params.Notes says
// which. A log too short for a whole layer is an error wrapping
// ErrTooShort that names the layer.
func Fit(t *trace.Trace, opt FitOptions) (Params, *FitReport, error) {
	procs := t.Procs
	if opt.Procs > 0 {
		procs = opt.Procs
	}
	if procs <= 0 {
		return Params{}, nil, fmt.Errorf("machine size unknown: the header has no MaxProcs or MaxNodes; give it")
	}
	p, err := DefaultParams(procs)
	if err != nil {
		// Table 28 does not matter here: Cm and CL are the log's.
		p, _ = DefaultParams(DefaultProcs)
		p.Machine.Procs = procs
	}
	rep := &FitReport{Jobs: t.Len()}
	st := t
	if t.Procs != procs {
		// summary reads the machine size (for CL) from the trace.
		c := *t
		c.Procs = procs
		st = &c
	}
	rep.Vars = summary.Of(st).Talby
	p.Machine.Cm = rep.Vars.Cm
	p.Machine.CL = float64(rep.Vars.CL)
	if !(p.Machine.Cm > 0) || !(p.Machine.CL > 0) {
		return p, rep, fmt.Errorf("%w: machine layer: the log's median CPU work (%g s) and CPU load (%g) must be positive", ErrTooShort, p.Machine.Cm, p.Machine.CL)
	}
	anonymous := true
	for i := range t.Jobs {
		if t.Jobs[i].User >= 0 {
			anonymous = false
			break
		}
	}
	if anonymous {
		return p, rep, fmt.Errorf("%w: user layer: the log has no user IDs (field 12 is -1 for every job); users, their sessions and classes need them", ErrTooShort)
	}
	ss, _, err := sessionclass.Compute(t, 0, sessionclass.Options{Procs: procs})
	if err != nil {
		return p, rep, err
	}
	rep.Sessions = len(ss)
	if len(ss) < 5*MinClassSessions {
		return p, rep, fmt.Errorf("%w: session layer: %d sessions; classifying them into five classes needs at least %d", ErrTooShort, len(ss), 5*MinClassSessions)
	}
	copt := sessionclass.ClassifyOptions{Seed: opt.Seed, Clip: opt.SessionClip}
	if _, err := sessionclass.Classify(ss, copt); err != nil {
		return p, rep, fmt.Errorf("session layer: %w", err)
	}
	us, err := userclass.Compute(t, 0, ss, procs)
	if err != nil {
		return p, rep, err
	}
	rep.Users = len(us)
	if len(us) < 4*MinClassUsers {
		return p, rep, fmt.Errorf("%w: user layer: %d users; classifying them into four classes needs at least %d", ErrTooShort, len(us), 4*MinClassUsers)
	}
	copt.Clip = opt.Clip
	if _, err := userclass.Classify(us, copt); err != nil {
		return p, rep, fmt.Errorf("user layer: %w", err)
	}
	for _, s := range ss {
		rep.SessionClasses[s.Class]++
	}
	for _, u := range us {
		rep.UserClasses[u.Class]++
	}
	clock := t.Clock()
	first, last := t.Span()
	w0 := clock.Week(first) + 1 // week 1: the first full week
	rep.Weeks = clock.Week(last) - w0
	if rep.Weeks < MinWeeks {
		return p, rep, fmt.Errorf("%w: user layer: the log has %d full weeks; new users per week need at least %d (the steady state starts at week %d)", ErrTooShort, rep.Weeks, MinWeeks, SteadyWeek)
	}
	week := func(s int64) int { return clock.Week(s) - w0 + 1 }

	// Users: first week, class, sessions in time order.
	type fu struct {
		id    int32
		first int64
		week  int
		class userclass.Class
		ss    []*sessionclass.Session
	}
	byID := map[int32]*fu{}
	for _, u := range us {
		byID[u.ID] = &fu{id: u.ID, class: u.Class, first: math.MaxInt64}
	}
	for i := range ss {
		s := &ss[i]
		u := byID[s.User]
		if u == nil {
			continue
		}
		u.ss = append(u.ss, s)
		u.first = min(u.first, s.First)
	}
	users := make([]*fu, 0, len(byID))
	for _, u := range byID {
		if len(u.ss) == 0 {
			continue
		}
		slices.SortFunc(u.ss, func(a, b *sessionclass.Session) int { return cmpInt64(a.First, b.First) })
		u.week = week(u.first)
		users = append(users, u)
	}
	slices.SortFunc(users, func(a, b *fu) int {
		if c := cmpInt64(a.first, b.first); c != 0 {
			return c
		}
		return int(a.id) - int(b.id)
	})

	// New users per week (section 11.2) and users at start-up (Eq. 13).
	rep.NewUsers = make([]int, rep.Weeks-SteadyWeek+1)
	early := 0
	for _, u := range users {
		switch {
		case u.week < SteadyWeek:
			early++
		case u.week <= rep.Weeks:
			rep.NewUsers[u.week-SteadyWeek]++
		}
	}
	p.NewUsers = fitLogLogistic(rep.NewUsers, p.NewUsers)
	var mean float64
	for _, n := range rep.NewUsers {
		mean += float64(n)
	}
	mean /= float64(len(rep.NewUsers))
	rep.StartupUsers = float64(early) - float64(SteadyWeek-1)*mean
	p.StartupUsers.Intercept = rep.StartupUsers - p.StartupUsers.Slope*p.Machine.CL
	p.StartupUsers.Noise = 0

	// User classes (Table 30 intercepts at the log's Cm and CL; Table 31's
	// repeat probability).
	var shares [NumUserClasses]float64
	seq := make([]userclass.Class, len(users))
	for i, u := range users {
		shares[u.class]++
		seq[i] = u.class
	}
	normalize(shares[:])
	for c := range shares {
		l := &p.UserClasses.Share[c]
		l.Intercept = shares[c] - l.Cm*p.Machine.Cm - l.CL*p.Machine.CL
	}
	p.UserClasses.Repeat = fitRepeat(seq, shares)

	// Session layer on users whose first week is known.
	type cell struct{ woa, n int }
	var inact [NumUserClasses]map[int][2]int // woa -> (users, inactive)
	var counts [NumUserClasses]map[cell]int
	for c := range NumUserClasses {
		inact[c] = map[int][2]int{}
		counts[c] = map[cell]int{}
	}
	var woaN [NumSessionClasses]float64
	var sw, sw2, n float64
	var sy [NumSessionClasses]float64
	for _, u := range users {
		if u.week < SteadyWeek || u.week > rep.Weeks {
			continue
		}
		rep.KnownUsers[u.class]++
		per := map[int]int{}
		for _, s := range u.ss {
			woa := week(s.First) - u.week + 1
			per[woa]++
			if week(s.First) <= rep.Weeks {
				x := float64(woa)
				sw += x
				sw2 += x * x
				n++
				woaN[s.Class]++
				sy[s.Class] += x
			}
		}
		for woa := 1; u.week+woa-1 <= rep.Weeks; woa++ {
			k := per[woa]
			if woa > 1 {
				v := inact[u.class][woa]
				v[0]++
				if k == 0 {
					v[1]++
				}
				inact[u.class][woa] = v
			}
			if k > 0 {
				counts[u.class][cell{woa, k}]++
			}
		}
	}
	for c := range NumUserClasses {
		uc := userclass.Class(c)
		if rep.KnownUsers[c] < MinClassUsers {
			p.Notes = append(p.Notes, fmt.Sprintf("session layer: %d %s users arrive from week %d on (fewer than %d): published inactivity and sessions per week kept", rep.KnownUsers[c], uc, SteadyWeek, MinClassUsers))
			continue
		}
		if l, ok := fitInactivity(inact[c], p.Inactivity); ok && l.A >= -1 && l.A <= 1 && l.B >= -1 && l.B <= 2 {
			p.Inactivity.Class[c] = l
		} else {
			p.Notes = append(p.Notes, fmt.Sprintf("session layer: too few weeks of activity observed for %s users: published inactivity kept", uc))
		}
		var obs []gpdObs
		for k, m := range counts[c] {
			obs = append(obs, gpdObs{woa: k.woa, n: k.n, count: m})
		}
		sortObs(obs)
		q := p
		q.SessionsPerWeek.Class[c] = fitGPD(obs, p.SessionsPerWeek, p.SessionsPerWeek.Class[c])
		if err := q.Validate(); err != nil {
			p.Notes = append(p.Notes, fmt.Sprintf("session layer: the sessions per week of %s users fit out of range (%v): published values kept", uc, err))
		} else {
			p = q
		}
	}

	// Start-up users' activity (our extension, StartupFitted).
	var startup []startupUser
	for _, u := range users {
		if u.week >= SteadyWeek {
			continue
		}
		su := startupUser{class: u.class, per: map[int]int{}}
		for _, s := range u.ss {
			su.per[week(s.First)]++
		}
		startup = append(startup, su)
	}
	var known [NumUserClasses]float64
	for c, k := range rep.KnownUsers {
		known[c] = float64(k)
	}
	if sum(known[:]) == 0 {
		known = shares
	}
	normalize(known[:])
	if in, sl, notes, ok := fitStartupActivity(p, startup, rep.Weeks, mean, known); ok {
		q := p
		q.StartupUsers.Inactivity, q.StartupUsers.Sessions = &in, &sl
		if !opt.ThesisRules {
			q.StartupUsers.Activity = StartupFitted
		}
		if err := q.Validate(); err != nil {
			p.Notes = append(p.Notes, fmt.Sprintf("start-up users: their fitted activity is out of range (%v): the thesis' start-up activity (Eqs. 16-17) kept", err))
		} else {
			p = q
			p.Notes = append(p.Notes, notes...)
		}
	} else {
		p.Notes = append(p.Notes, notes...)
	}

	// Session classes: chains per user class, WoA trend, global shares.
	var chain [NumUserClasses][NumSessionClasses][NumSessionClasses]float64
	var global [NumSessionClasses]float64
	for _, u := range users {
		for i := 1; i < len(u.ss); i++ {
			chain[u.class][u.ss[i-1].Class][u.ss[i].Class]++
			global[u.ss[i].Class]++
		}
	}
	for uc := range NumUserClasses {
		for prev := range NumSessionClasses {
			row := chain[uc][prev]
			if sum(row[:]) < MinClassSessions {
				p.Notes = append(p.Notes, fmt.Sprintf("session layer: %g %s sessions of a user follow one of class %s (fewer than %d): the published chain row kept",
					sum(row[:]), userclass.Class(uc), sessionclass.Class(prev), MinClassSessions))
				continue
			}
			normalize(row[:])
			p.SessionClasses.Chain[uc][prev] = row
		}
	}
	if sum(global[:]) >= 5*MinClassSessions {
		normalize(global[:])
		p.SessionClasses.Global = global
	} else {
		p.Notes = append(p.Notes, "session layer: too few sessions with a predecessor: published P(SC) kept")
	}
	if n >= 5*MinClassSessions && sw2-sw*sw/n > 0 {
		mx := sw / n
		sxx := sw2 - sw*sw/n
		for c := range NumSessionClasses {
			// Least squares of the class indicator on WoA.
			my := woaN[c] / n
			sxy := sy[c] - mx*woaN[c]
			b := sxy / sxx
			p.SessionClasses.WoA[c] = WoALine{Slope: b, Intercept: my - b*mx}
		}
	} else {
		p.Notes = append(p.Notes, "session layer: too few sessions of users with a known first week: published Table 36 kept")
	}

	if !opt.ThesisRules {
		p.Placement.Redraw = PlacementStarts
	}

	// Job layer.
	var byClass [NumSessionClasses][]*sessionclass.Session
	for i := range ss {
		byClass[ss[i].Class] = append(byClass[ss[i].Class], &ss[i])
	}
	for c := range NumSessionClasses {
		if len(byClass[c]) < MinClassSessions {
			p.Notes = append(p.Notes, fmt.Sprintf("job layer: %d %s sessions (fewer than %d): the default job layer kept", len(byClass[c]), sessionclass.Class(c), MinClassSessions))
			continue
		}
		p.Jobs[c] = FitJobClass(t, byClass[c], procs)
	}
	return p, rep, p.Validate()
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// fitLogLogistic returns the maximum-likelihood log-logistic of weekly
// counts rounded to integers: P(N = n) = F(n + ½) − F(n − ½), F the
// logistic distribution function of ln x.
func fitLogLogistic(xs []int, start LogLogistic) LogLogistic {
	cdf := func(x, mu, s float64) float64 {
		if x <= 0 {
			return 0
		}
		return 1 / (1 + math.Exp(-(math.Log(x)-mu)/s))
	}
	hist := map[int]int{}
	for _, x := range xs {
		hist[x]++
	}
	keys := make([]int, 0, len(hist))
	for k := range hist {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	f := func(v []float64) float64 {
		mu, s := v[0], math.Exp(v[1])
		var ll float64
		for _, k := range keys {
			q := cdf(float64(k)+0.5, mu, s) - cdf(float64(k)-0.5, mu, s)
			if !(q > 1e-300) {
				return 1e300
			}
			ll += float64(hist[k]) * math.Log(q)
		}
		return -ll
	}
	x0 := []float64{start.Mu, math.Log(start.Sigma)}
	var m float64
	for _, x := range xs {
		m += float64(x)
	}
	if m /= float64(len(xs)); m > 0 {
		x0[0] = math.Log(m)
	}
	res, err := optimize.Minimize(optimize.Problem{Func: f}, x0, nil, &optimize.NelderMead{})
	if err != nil || res == nil || math.IsNaN(res.F) {
		return start
	}
	return LogLogistic{Mu: res.X[0], Sigma: math.Min(math.Exp(res.X[1]), 1)}
}

// fitRepeat returns the maximum-likelihood probability r that a user's
// class repeats the previous user's: P(c | prev) = r·[c = prev] +
// (1 − r)·share(c), the likelihood being concave in r (bisection on its
// derivative).
func fitRepeat(seq []userclass.Class, share [NumUserClasses]float64) float64 {
	d := func(r float64) float64 {
		var g float64
		for i := 1; i < len(seq); i++ {
			same := 0.0
			if seq[i] == seq[i-1] {
				same = 1
			}
			q := r*same + (1-r)*share[seq[i]]
			g += (same - share[seq[i]]) / q
		}
		return g
	}
	if len(seq) < 2 || d(0) <= 0 {
		return 0
	}
	lo, hi := 0.0, 0.999
	if d(hi) > 0 {
		return hi
	}
	for range 60 {
		mid := (lo + hi) / 2
		if d(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// fitInactivity fits A and B of Eq. 14 by least squares weighted by the
// users observed in each week of activity (2 and later), after removing the
// published offsets of weeks 2-5. It needs at least 3 weeks with users.
func fitInactivity(obs map[int][2]int, in Inactivity) (InactivityLine, bool) {
	var sw, sx, sy, sxx, sxy float64
	weeks := 0
	for woa, v := range obs {
		if v[0] == 0 {
			continue
		}
		weeks++
		w := float64(v[0])
		y := float64(v[1]) / w
		switch {
		case woa == 2:
			y -= in.Week2
		case woa <= 5:
			y -= in.Weeks3to5
		}
		x := math.Log(float64(woa))
		sw += w
		sx += w * x
		sy += w * y
		sxx += w * x * x
		sxy += w * x * y
	}
	den := sw*sxx - sx*sx
	if weeks < 3 || den <= 0 {
		return InactivityLine{}, false
	}
	a := (sw*sxy - sx*sy) / den
	return InactivityLine{A: a, B: (sy - a*sx) / sw}, true
}

// gpdObs counts the user-weeks of week of activity woa with n sessions.
type gpdObs struct{ woa, n, count int }

// sortObs sorts observations by week, then count, so that fits do not
// depend on map order.
func sortObs(obs []gpdObs) {
	slices.SortFunc(obs, func(a, b gpdObs) int {
		if a.woa != b.woa {
			return a.woa - b.woa
		}
		return a.n - b.n
	})
}

// gpdLogLik is the log-likelihood of the rounded, capped generalized
// Pareto of sessions per week.
func gpdLogLik(obs []gpdObs, sp SessionsPerWeek, line GPDLine) float64 {
	p := Params{SessionsPerWeek: sp}
	p.SessionsPerWeek.Class[0] = line
	var ll float64
	for _, o := range obs {
		k, s := p.GPD(o.woa, 0)
		var q float64
		if o.n >= sp.Max {
			q = 1 - gpdCDF(float64(sp.Max)-0.5, k, s, sp.Mu)
		} else {
			lo := 0.0
			if o.n > 1 {
				lo = gpdCDF(float64(o.n)-0.5, k, s, sp.Mu)
			}
			q = gpdCDF(float64(o.n)+0.5, k, s, sp.Mu) - lo
		}
		if !(q > 1e-300) {
			return math.Inf(-1)
		}
		ll += float64(o.count) * math.Log(q)
	}
	return ll
}

// fitGPD fits the week-1 shape and scale (Table 34) and the linear shape
// and scale of the later weeks (Table 33) by maximum likelihood, each part
// starting from start and kept when its data are missing.
func fitGPD(obs []gpdObs, sp SessionsPerWeek, start GPDLine) GPDLine {
	var w1, rest []gpdObs
	for _, o := range obs {
		if o.woa == 1 && sp.FirstWeek {
			w1 = append(w1, o)
		} else {
			rest = append(rest, o)
		}
	}
	line := start
	settings := &optimize.Settings{FuncEvaluations: 4000}
	if len(w1) > 0 {
		f := func(v []float64) float64 {
			l := line
			l.FirstK, l.FirstSigma = v[0], math.Exp(v[1])
			ll := gpdLogLik(w1, sp, l)
			if math.IsInf(ll, -1) {
				return 1e300
			}
			return -ll
		}
		res, err := optimize.Minimize(optimize.Problem{Func: f}, []float64{start.FirstK, math.Log(start.FirstSigma)}, settings, &optimize.NelderMead{})
		if err == nil && res.F < 1e300 {
			line.FirstK, line.FirstSigma = res.X[0], math.Exp(res.X[1])
		}
	}
	if len(rest) > 0 {
		weeks := map[int]bool{}
		for _, o := range rest {
			weeks[o.woa] = true
		}
		f := func(v []float64) float64 {
			l := line
			l.KIntercept, l.KSlope, l.SigmaIntercept, l.SigmaSlope = v[0], v[1]/100, v[2], v[3]/100
			ll := gpdLogLik(rest, sp, l)
			if math.IsInf(ll, -1) {
				return 1e300
			}
			return -ll
		}
		// Slopes are scaled by 100 so that all four move alike.
		x0 := []float64{start.KIntercept, 100 * start.KSlope, start.SigmaIntercept, 100 * start.SigmaSlope}
		if len(weeks) < 3 {
			// One or two weeks cannot give a slope: fit levels only.
			f2 := func(v []float64) float64 { return f([]float64{v[0], 0, v[1], 0}) }
			res, err := optimize.Minimize(optimize.Problem{Func: f2}, []float64{start.KIntercept, start.SigmaIntercept}, settings, &optimize.NelderMead{})
			if err == nil && res.F < 1e300 {
				line.KIntercept, line.KSlope, line.SigmaIntercept, line.SigmaSlope = res.X[0], 0, res.X[1], 0
			}
			return line
		}
		if f(x0) >= 1e300 {
			// The published line can give data zero likelihood (a finite
			// tail below an observed count): start from an exponential.
			x0 = []float64{0.1, 0, start.SigmaIntercept, 0}
		}
		res, err := optimize.Minimize(optimize.Problem{Func: f}, x0, settings, &optimize.NelderMead{})
		if err == nil && res.F < 1e300 {
			line.KIntercept, line.KSlope, line.SigmaIntercept, line.SigmaSlope = res.X[0], res.X[1]/100, res.X[2], res.X[3]/100
		}
	}
	return line
}
