package talby

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/hpcwl/hpcwl/userclass"
)

// The estimators recover the parameters they are fitted to from samples of
// the model itself. Each tolerance is 4 standard deviations of the
// estimate, measured over 20 other seeds (100-119) with the same sample
// sizes.

func TestFitLogLogisticRecovers(t *testing.T) {
	p := defaults(t)
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]int, 3000)
	for i := range xs {
		xs[i] = p.drawNewUsers(r)
	}
	got := fitLogLogistic(xs, LogLogistic{Mu: 0, Sigma: 0.5})
	if !(math.Abs(got.Mu-1.25) <= 0.03) || !(math.Abs(got.Sigma-0.2214) <= 0.013) {
		t.Errorf("fitted %+v, want mu 1.25 sigma 0.2214", got)
	}
}

func TestFitRepeatRecovers(t *testing.T) {
	share := [NumUserClasses]float64{0.55, 0.2, 0.1, 0.15}
	r := rand.New(rand.NewPCG(3, 4))
	seq := make([]userclass.Class, 5000)
	for i := range seq {
		if i > 0 && r.Float64() < 0.3 {
			seq[i] = seq[i-1]
		} else {
			seq[i] = userclass.Class(draw(r, share[:], 1))
		}
	}
	if got := fitRepeat(seq, share); !(math.Abs(got-0.3) <= 0.05) {
		t.Errorf("repeat %.3f, want 0.3", got)
	}
}

func TestFitInactivityRecovers(t *testing.T) {
	p := defaults(t)
	r := rand.New(rand.NewPCG(5, 6))
	obs := map[int][2]int{}
	for woa := 2; woa <= 80; woa++ {
		for range 400 {
			v := obs[woa]
			v[0]++
			if r.Float64() < p.Inactive(woa, userclass.LTHU) {
				v[1]++
			}
			obs[woa] = v
		}
	}
	l, ok := fitInactivity(obs, p.Inactivity)
	if !ok || !(math.Abs(l.A-0.0895) <= 0.015) || !(math.Abs(l.B-0.4149) <= 0.05) {
		t.Errorf("fitted %+v (%v), want a 0.0895 b 0.4149", l, ok)
	}
}

func TestFitGPDRecovers(t *testing.T) {
	p := defaults(t)
	r := rand.New(rand.NewPCG(7, 8))
	counts := map[[2]int]int{}
	for woa := 1; woa <= 40; woa++ {
		for range 500 {
			counts[[2]int{woa, p.drawSessions(r, woa, userclass.LTLU)}]++
		}
	}
	var obs []gpdObs
	for k, m := range counts {
		obs = append(obs, gpdObs{woa: k[0], n: k[1], count: m})
	}
	sortObs(obs)
	start := GPDLine{KIntercept: 0.3, SigmaIntercept: 2, FirstK: 0.3, FirstSigma: 1}
	got := fitGPD(obs, p.SessionsPerWeek, start)
	want := p.SessionsPerWeek.Class[userclass.LTLU]
	if !(math.Abs(got.FirstK-want.FirstK) <= 0.25) || !(math.Abs(got.FirstSigma-want.FirstSigma) <= 0.76) {
		t.Errorf("week 1: k %.3f sigma %.3f, want %.3f %.3f", got.FirstK, got.FirstSigma, want.FirstK, want.FirstSigma)
	}
	// Compare the lines where the data are: at weeks 2 and 40.
	for _, w := range []float64{2, 40} {
		gk, wk := got.KIntercept+got.KSlope*w, want.KIntercept+want.KSlope*w
		gs, ws := got.SigmaIntercept+got.SigmaSlope*w, want.SigmaIntercept+want.SigmaSlope*w
		if !(math.Abs(gk-wk) <= 0.07) || !(math.Abs(gs-ws) <= 0.42) {
			t.Errorf("week %g: k %.3f sigma %.3f, want %.3f %.3f", w, gk, gs, wk, ws)
		}
	}
}

func TestFitZipfRecovers(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	cum := make([]float64, 200)
	var s float64
	for n := 1; n <= 200; n++ {
		s += math.Pow(float64(n), -1.8)
		cum[n-1] = s
	}
	xs := make([]int, 5000)
	for i := range xs {
		u := r.Float64() * s
		k := 0
		for cum[k] < u {
			k++
		}
		xs[i] = k + 1
	}
	if got := fitZipf(xs, 200); !(math.Abs(got-1.8) <= 0.05) {
		t.Errorf("Zipf exponent %.3f, want 1.8", got)
	}
}

// tooShortLog builds a log of users users on a machine of 64 processors,
// each with one job a day for days days (a session each), of runtime
// run(u) for user u; user IDs count from first, or are all -1 when first
// is -1.
func tooShortLog(t *testing.T, users, days int, run func(u int) int64, first int64) *trace.Trace {
	h := swf.Header{}
	h.Add("MaxProcs", "64")
	var jobs []trace.Job
	for d := range days {
		for u := range users {
			j := swf.NewJob()
			j.ID, j.Submit, j.Runtime, j.Procs, j.Status, j.User = int64(len(jobs)+1), int64(d*86400+u*60), run(u), 4, 1, first+int64(u)
			if first == -1 {
				j.User = -1
			}
			tj, err := trace.FromSWF(&j)
			if err != nil {
				t.Fatal(err)
			}
			jobs = append(jobs, tj)
		}
	}
	return trace.New(h, jobs, trace.Options{})
}

// A log too short names the layer that cannot be fitted, and why; each
// threshold is checked at its edge (50 sessions, 20 users: the log one
// short of it is refused by that layer, the log at it gets past;
// TestFitMachineSize fits a log of exactly 20 full weeks).
func TestFitTooShort(t *testing.T) {
	t.Parallel()
	constRun := func(r int64) func(int) int64 { return func(int) int64 { return r } }
	mk := func(users, days int, run int64, anonymous bool) *trace.Trace {
		first := int64(1)
		if anonymous {
			first = -1
		}
		return tooShortLog(t, users, days, constRun(run), first)
	}
	// Users 0-30 run nothing, 31-59 a day each: the median CPU work is 0
	// while the load is not.
	halfIdle := func(u int) int64 {
		if u < 31 {
			return 0
		}
		return 86000
	}
	for _, tc := range []struct {
		name string
		tr   *trace.Trace
		opt  FitOptions
		want []string
	}{
		{"five weeks", mk(20, 35, 100, false), FitOptions{}, []string{"user layer", "4 full weeks", "need at least 20"}},
		{"20 jobs", mk(20, 1, 100, false), FitOptions{}, []string{"session layer", "20 sessions", "at least 50"}},
		{"49 sessions", mk(7, 7, 100, false), FitOptions{}, []string{"session layer", "49 sessions", "at least 50"}},
		{"50 sessions", mk(10, 5, 100, false), FitOptions{}, []string{"user layer", "10 users", "at least 20"}},
		{"19 users", mk(19, 5, 100, false), FitOptions{}, []string{"user layer", "19 users", "at least 20"}},
		{"20 users", mk(20, 5, 100, false), FitOptions{}, []string{"user layer", "the log has 0 full weeks"}},
		{"no user IDs", mk(60, 200, 100, true), FitOptions{}, []string{"user layer", "no user IDs (field 12"}},
		{"user 0 only", tooShortLog(t, 1, 60, constRun(100), 0), FitOptions{}, []string{"user layer", "1 users", "at least 20"}},
		{"no CPU work", mk(60, 200, 0, false), FitOptions{}, []string{"machine layer", "median CPU work (0 s)"}},
		{"median CPU work 0", tooShortLog(t, 60, 200, halfIdle, 1), FitOptions{}, []string{"machine layer", "median CPU work (0 s)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Fit(tc.tr, tc.opt)
			if !errors.Is(err, ErrTooShort) {
				t.Fatalf("got %v, want ErrTooShort", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got %q, want it to say %q", err, w)
				}
			}
		})
	}
}

// The machine size comes from the header or the options; without either
// the fit stops at once. A machine so large that Table 28 gives it no
// positive load still fits (the log's Cm and CL replace the table's), on
// a log of exactly MinWeeks full weeks.
func TestFitMachineSize(t *testing.T) {
	t.Parallel()
	tr := tooShortLog(t, 20, 145, func(int) int64 { return 100 }, 1)
	tr.Procs = 0
	_, _, err := Fit(tr, FitOptions{})
	if err == nil || !strings.Contains(err.Error(), "machine size unknown") {
		t.Errorf("no machine size: got %v", err)
	}
	p, rep, err := Fit(tr, FitOptions{Procs: 400000})
	if err != nil || rep.Weeks != MinWeeks {
		t.Fatalf("400,000 processors: %v, %d full weeks (want %d)", err, rep.Weeks, MinWeeks)
	}
	if p.Machine.Procs != 400000 || p.NewUsers.Mu == 0 || p.Validate() != nil {
		t.Errorf("400,000 processors: machine %+v, new users %+v, %v", p.Machine, p.NewUsers, p.Validate())
	}
}

// Fitted parameters, extensions included, survive their JSON file.
func TestFitParamsRoundTrip(t *testing.T) {
	t.Parallel()
	for _, thesis := range []bool{false, true} {
		p, _ := fitKTH(t, thesis)
		if p.StartupFitted() == thesis || (p.Placement.Redraw == PlacementStarts) == thesis || p.StartupUsers.Inactivity == nil || len(p.Jobs[0].Runtime.Quantiles) != runtimeQuantiles {
			t.Errorf("thesis rules %v: activity %q, placement %q", thesis, p.StartupUsers.Activity, p.Placement.Redraw)
		}
		var b strings.Builder
		if err := WriteParams(&b, p); err != nil {
			t.Fatal(err)
		}
		q, err := ReadParams(strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Errorf("thesis rules %v: parameters changed through JSON", thesis)
		}
	}
}

// TestFitSingleSessions fits a log whose 120 users have one session each,
// one every 36 hours (about 25 full weeks): no session has a predecessor
// and every session of a user with a known first week is in its first
// week of activity, so neither P(SC) nor Table 36's trend in WoA can be
// fitted, and both keep the published values, saying so.
func TestFitSingleSessions(t *testing.T) {
	t.Parallel()
	h := swf.Header{}
	h.Add("MaxProcs", "64")
	var jobs []trace.Job
	for u := range 120 {
		j := swf.NewJob()
		j.ID, j.Submit, j.Runtime, j.Procs, j.Status, j.User = int64(u+1), int64(u)*36*3600, 600+int64(u)*60, 1+int64(u%8), 1, int64(u+1)
		tj, err := trace.FromSWF(&j)
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, tj)
	}
	p, rep, err := Fit(trace.New(h, jobs, trace.Options{}), FitOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	def, err := DefaultParams(64)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sessions != 120 || p.SessionClasses.Global != def.SessionClasses.Global || p.SessionClasses.WoA != def.SessionClasses.WoA {
		t.Errorf("%d sessions; P(SC) %v, WoA %v; want 120 and the published %v, %v", rep.Sessions, p.SessionClasses.Global, p.SessionClasses.WoA, def.SessionClasses.Global, def.SessionClasses.WoA)
	}
	for _, want := range []string{"too few sessions with a predecessor: published P(SC) kept", "published Table 36 kept"} {
		if !slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, want) }) {
			t.Errorf("no note saying %q in %q", want, p.Notes)
		}
	}
}

// TestFitHelpersByHand checks the small estimators on inputs worked by
// hand. fitRepeat: two users of the same class give the largest repeat
// probability (0.999, the likelihood grows with r); shares ½, ½ and the
// classes A, A, B give a derivative of 0 at r = 0 ((1 − ½)/½ + (0 − ½)/½),
// so r = 0. fitInactivity: three weeks are enough for a line, two are
// not. gpdLogLik: a count at the cap Max takes the whole tail above Max −
// ½. fitGPD: without first-week observations the first-week shape and
// scale stay as given, bit for bit, and likewise the line of the later
// weeks without later weeks; two later weeks fit the levels of the line
// but no slope.
func TestFitHelpersByHand(t *testing.T) {
	share := [NumUserClasses]float64{0.5, 0.5, 0, 0}
	if r := fitRepeat([]userclass.Class{0, 0}, share); r != 0.999 {
		t.Errorf("A, A: repeat %v, want 0.999", r)
	}
	if r := fitRepeat([]userclass.Class{0, 0, 1}, share); r != 0 {
		t.Errorf("A, A, B: repeat %v, want 0", r)
	}
	in := Inactivity{Week2: 0.1, Weeks3to5: 0.05}
	// Weeks 2, 3, 6: inactive shares 0.3, 0.25, 0.2; after the offsets
	// 0.2, 0.2, 0.2: a flat line, A = 0, B = 0.2.
	l, ok := fitInactivity(map[int][2]int{2: {10, 3}, 3: {20, 5}, 6: {5, 1}}, in)
	if !ok || math.Abs(l.A) > 1e-12 || math.Abs(l.B-0.2) > 1e-12 {
		t.Errorf("three weeks: %+v, %v; want A 0, B 0.2", l, ok)
	}
	if _, ok := fitInactivity(map[int][2]int{2: {10, 3}, 3: {20, 5}, 7: {0, 0}}, in); ok {
		t.Error("two weeks with users: fitted")
	}
	sp := SessionsPerWeek{Mu: 0.6, SigmaFloor: 0.1, Max: 5}
	line := GPDLine{KIntercept: 0.2, SigmaIntercept: 2}
	k, s := 0.2, 2.0
	want := 3 * math.Log(1-gpdCDF(4.5, k, s, 0.6))
	if got := gpdLogLik([]gpdObs{{woa: 2, n: 5, count: 3}}, sp, line); math.Abs(got-want) > 1e-12 {
		t.Errorf("count at the cap: log-likelihood %v, want %v", got, want)
	}
	start := GPDLine{KIntercept: 0.3, SigmaIntercept: 1.7, FirstK: 0.123456789, FirstSigma: 2.3456789}
	sp.FirstWeek = true
	got := fitGPD([]gpdObs{{woa: 2, n: 1, count: 5}, {woa: 3, n: 2, count: 3}}, sp, start)
	if got.FirstK != start.FirstK || got.FirstSigma != start.FirstSigma {
		t.Errorf("no first-week data: first week %v, %v; want %v, %v", got.FirstK, got.FirstSigma, start.FirstK, start.FirstSigma)
	}
	// Three later weeks are enough for the line: the counts grow with the
	// week, and so does a slope; with two weeks only the levels move.
	three := []gpdObs{{woa: 2, n: 1, count: 20}, {woa: 3, n: 2, count: 20}, {woa: 4, n: 4, count: 20}}
	if got := fitGPD(three, sp, start); got.KSlope == 0 && got.SigmaSlope == 0 {
		t.Errorf("three later weeks: no slope fitted: %+v", got)
	}
	two := fitGPD(three[:2], sp, start)
	if two.KSlope != 0 || two.SigmaSlope != 0 {
		t.Errorf("two later weeks: slopes fitted: %+v", two)
	}
	// The levels are fitted: they raise the likelihood above the start's.
	if l0, l1 := gpdLogLik(three[:2], sp, start), gpdLogLik(three[:2], sp, two); !(l1 > l0+1e-3) || two.KIntercept == start.KIntercept {
		t.Errorf("two later weeks: log-likelihood %v at %+v, %v at the start: levels not fitted", l1, two, l0)
	}
	got = fitGPD([]gpdObs{{woa: 1, n: 1, count: 5}, {woa: 1, n: 3, count: 2}}, sp, start)
	if got.KIntercept != start.KIntercept || got.SigmaIntercept != start.SigmaIntercept || got.KSlope != 0 || got.SigmaSlope != 0 {
		t.Errorf("no later weeks: line %+v, want %+v", got, start)
	}
}

// jobClassOf fits the job layer of sessions whose jobs have the given
// sizes (one session per slice; jobs gap seconds apart, runtime 100 s) on
// a machine of 128 processors, where a size's normalized value is itself.
func jobClassOf(t *testing.T, gap int64, sessions ...[]int64) JobClass {
	t.Helper()
	h := swf.Header{}
	h.Add("MaxProcs", "128")
	var jobs []trace.Job
	var ss []*sessionclass.Session
	for i, sizes := range sessions {
		s := &sessionclass.Session{User: 1, First: int64(i) * 86400}
		for k, n := range sizes {
			j := swf.NewJob()
			j.ID, j.Submit, j.Runtime, j.Procs, j.Status, j.User = int64(len(jobs)+1), s.First+int64(k)*gap, 100, n, 1, 1
			tj, err := trace.FromSWF(&j)
			if err != nil {
				t.Fatal(err)
			}
			s.Jobs = append(s.Jobs, int32(len(jobs)))
			jobs = append(jobs, tj)
		}
		ss = append(ss, s)
	}
	return FitJobClass(trace.New(h, jobs, trace.Options{}), ss, 128)
}

// TestFitJobClassSizes checks the size table of FitJobClass by hand: at
// most 128 sizes, the most frequent, ties going to the smaller size; and
// the repeat probability, 0 when it cannot be estimated (one size only,
// or no session of two jobs).
func TestFitJobClassSizes(t *testing.T) {
	t.Parallel()
	sizesOf := func(j JobClass) (norms []float64, ps []float64) {
		for _, s := range j.Sizes {
			norms, ps = append(norms, s.Norm), append(ps, s.P)
		}
		return norms, ps
	}
	seq := func(lo, hi int64) []float64 {
		var out []float64
		for n := lo; n <= hi; n++ {
			out = append(out, float64(n))
		}
		return out
	}
	// Sizes 1 and 2 once, 3 to 130 twice: the 128 frequent ones stay.
	var a []int64
	for n := int64(1); n <= 130; n++ {
		a = append(a, n)
		if n >= 3 {
			a = append(a, n)
		}
	}
	norms, ps := sizesOf(jobClassOf(t, 10, a))
	if want := seq(3, 130); !slices.Equal(norms, want) {
		t.Errorf("frequent sizes: %v, want %v", norms, want)
	}
	for _, p := range ps {
		if p != 1.0/128 {
			t.Fatalf("frequent sizes: probabilities %v, want 1/128 each", ps)
		}
	}
	// Sizes 1 to 130 once each: ties, the 128 smallest stay.
	var b []int64
	for n := int64(130); n >= 1; n-- {
		b = append(b, n)
	}
	if norms, _ := sizesOf(jobClassOf(t, 10, b)); !slices.Equal(norms, seq(1, 128)) {
		t.Errorf("tied sizes: %v, want 1 to 128", norms)
	}
	if j := jobClassOf(t, 10, []int64{4, 4, 4}, []int64{4, 4}); j.Repeat != 0 || len(j.Sizes) != 1 {
		t.Errorf("one size: repeat %v, sizes %v; want 0 and one size", j.Repeat, j.Sizes)
	}
	if j := jobClassOf(t, 10, []int64{4}, []int64{8}, []int64{16}); j.Repeat != 0 || len(j.Sizes) != 3 || j.Jobs.Max != 1 {
		t.Errorf("sessions of one job: repeat %v, sizes %v, jobs %+v; want 0, three sizes, max 1", j.Repeat, j.Sizes, j.Jobs)
	}
	// The maximum-likelihood Zipf of sessions of one job each on 1..1 is
	// flat: a = 0 exactly (the score is already met at a = 0).
	if a := fitZipf([]int{1, 1, 1}, 1); a != 0 {
		t.Errorf("fitZipf of ones: %v, want 0", a)
	}
}

// TestFitJobClassOneSession checks the variance components and the submit
// gaps of FitJobClass where they have too few data to be estimated: one
// session of equal runtimes has every spread 0 (not NaN); jobs submitted
// together have only zero gaps (share 1, μ and σ 0); one positive gap of
// 10 s gives μ = ln 10 and σ 0.
func TestFitJobClassOneSession(t *testing.T) {
	t.Parallel()
	j := jobClassOf(t, 10, []int64{4, 4, 8})
	if r := j.Runtime; r.Session != 0 || r.Sequence != 0 || r.Job != 0 || r.Mu != math.Log(100) {
		t.Errorf("one session: runtime %+v, want spreads 0 and mu ln 100", r)
	}
	if g := jobClassOf(t, 0, []int64{4, 4, 4}).Gap; g != (Gap{Zero: 1}) {
		t.Errorf("jobs submitted together: gap %+v, want zero 1, mu 0, sigma 0", g)
	}
	if g := jobClassOf(t, 10, []int64{4, 4}).Gap; g != (Gap{Zero: 0, Mu: math.Log(10), Sigma: 0}) {
		t.Errorf("one gap of 10 s: gap %+v, want mu ln 10, sigma 0", g)
	}
}
