package scorecard_test

import (
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/locality"
	"github.com/hpcwl/hpcwl/scorecard"
	"github.com/hpcwl/hpcwl/trace"
)

// near reports whether got is within tol of want (false for NaN).
func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// TestJobFeatureFilters checks which jobs each per-job distribution keeps,
// on five jobs worked by hand: a runtime of 0 s is a runtime, a size or a
// requested time of 0 is unknown, a submit at 0 is a submit, and -1 is
// unknown everywhere.
func TestJobFeatureFilters(t *testing.T) {
	tr := &trace.Trace{Name: "five", Jobs: []trace.Job{
		{ID: 1, Submit: 0, Runtime: 0, Procs: 2, ReqProcs: 2, ReqTime: 0, User: 1, Wait: 0},
		{ID: 2, Submit: 10, Runtime: 5, Procs: 0, ReqProcs: 4, ReqTime: 100, User: 1, Wait: 0},
		{ID: 3, Submit: 30, Runtime: -1, Procs: 0, ReqProcs: 0, ReqTime: 1, User: 1, Wait: 0},
		{ID: 4, Submit: -1, Runtime: 7, Procs: 8, ReqProcs: 8, ReqTime: -1, User: 1, Wait: 0},
		{ID: 5, Submit: 70, Runtime: 9, Procs: 1, ReqProcs: 1, ReqTime: 200, User: 1, Wait: 0},
	}}
	c, err := scorecard.Compare(tr, tr, scorecard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := rows(c)
	// Lower medians: runtimes 0 5 7 9, sizes 1 2 4 8, gaps 10 20 40,
	// requests 1 100 200.
	for _, w := range []struct {
		feature string
		n       int
		median  string
	}{
		{"runtime", 4, "median 5s"}, {"size", 4, "median 2"},
		{"inter-arrival", 3, "median 20s"}, {"requested time", 3, "median 1.67m"},
	} {
		r := m[w.feature]
		if r.N != [2]int{w.n, w.n} || r.Reference != w.median || r.Candidate != w.median {
			t.Errorf("%s: n %v, %q and %q; want %d each and %q", w.feature, r.N, r.Reference, r.Candidate, w.n, w.median)
		}
		if r.Verdict != scorecard.Close || r.Note != "" {
			t.Errorf("%s against itself: %s, note %q; want close without a note", w.feature, r.Verdict, r.Note)
		}
	}
	// The cycles count the four known submits, the one at 0 included.
	for _, f := range []string{"daily cycle", "weekly cycle"} {
		if r := m[f]; r.N != [2]int{4, 4} || r.Verdict != scorecard.Close || r.Statistic != 0 {
			t.Errorf("%s: n %v, %s, statistic %v; want [4 4], close at 0", f, r.N, r.Verdict, r.Statistic)
		}
	}
	if r := m["daily cycle"]; r.Reference != "peak 00-01h" || r.Candidate != "peak 00-01h" {
		t.Errorf("daily cycle: %q, %q; want peak 00-01h", r.Reference, r.Candidate)
	}
	// Ten seconds of arrivals: too short for the Hurst parameter; no
	// machine size: no offered load.
	if r := m["Hurst parameter"]; r.Verdict != scorecard.NA || r.Note != "series too short for R/S" {
		t.Errorf("Hurst parameter: %s, %q; want n/a, series too short", r.Verdict, r.Note)
	}
	if r := m["offered load"]; r.Verdict != scorecard.NA || r.Reference != "" || r.Candidate != "" ||
		r.Note != "needs the machine size and two complete weeks in each" {
		t.Errorf("offered load: %s, %q, %q, %q; want n/a, no values, needs the machine size", r.Verdict, r.Reference, r.Candidate, r.Note)
	}
}

// TestNotesOfUnknownFeatures checks the note and the summaries of a
// feature known in one workload only, and in neither.
func TestNotesOfUnknownFeatures(t *testing.T) {
	k := loadKTH(t)
	anon := altered(k, "anonymous", func(j *trace.Job) { j.User, j.ReqTime = -1, -1 })
	for _, c := range []struct {
		ref, cand *trace.Trace
		note      string
		refText   bool
		candText  bool
	}{
		{k, anon, "unknown in the candidate", true, false},
		{anon, k, "unknown in the reference", false, true},
		{anon, anon, "unknown in both", false, false},
	} {
		card, err := scorecard.Compare(c.ref, c.cand, scorecard.Options{Shuffles: 2})
		if err != nil {
			t.Fatal(err)
		}
		m := rows(card)
		r := m["requested time"]
		if r.Verdict != scorecard.NA || r.Note != c.note || (r.Reference != "") != c.refText || (r.Candidate != "") != c.candText {
			t.Errorf("%s against %s: requested time %s, %q, %q, %q; want n/a, %q, text in the reference %v, in the candidate %v",
				c.cand.Name, c.ref.Name, r.Verdict, r.Note, r.Reference, r.Candidate, c.note, c.refText, c.candText)
		}
		for _, f := range []string{"jobs per user", "sessions per user", "session length"} {
			r := m[f]
			if r.Verdict != scorecard.NA || r.Note != "no user IDs" || (r.Reference != "") != c.refText || (r.Candidate != "") != c.candText {
				t.Errorf("%s against %s: %s %s, %q, %q, %q; want n/a, no user IDs", c.cand.Name, c.ref.Name, f, r.Verdict, r.Note, r.Reference, r.Candidate)
			}
		}
		if r := m["runtime"]; r.Note != "" || r.Verdict == scorecard.NA {
			t.Errorf("runtime: %s, note %q; want a verdict without a note", r.Verdict, r.Note)
		}
	}
	// Known user IDs: no note.
	card, err := scorecard.Compare(k, k, scorecard.Options{Shuffles: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r := rows(card)["jobs per user"]; r.Note != "" || r.Reference != r.Candidate || r.Reference == "" {
		t.Errorf("jobs per user of KTH against itself: note %q, %q and %q", r.Note, r.Reference, r.Candidate)
	}
}

func TestCount(t *testing.T) {
	c := &scorecard.Card{Rows: []scorecard.Row{
		{Verdict: scorecard.Close}, {Verdict: scorecard.Far}, {Verdict: scorecard.Close}, {Verdict: scorecard.NA},
	}}
	for v, want := range map[scorecard.Verdict]int{scorecard.Close: 2, scorecard.Far: 1, scorecard.NA: 1, scorecard.Differs: 0} {
		if got := c.Count(v); got != want {
			t.Errorf("Count(%s) = %d, want %d", v, got, want)
		}
	}
}

// TestLoadBoundsUnequal works Welch's interval out by hand for samples of
// unequal sizes and variances, where the degrees of freedom come out whole:
// {0, 2, 7} (variance 13) and {0, 2, 3, 5} (variance 13/3): squared
// standard errors sa = 13/3 and sb = 13/12, se² = 65/12,
// df = (65/12)² / ((13/3)²/2 + (13/12)²/3) = 3 exactly, t(0.975, 3) =
// 3.182446; the far bound is 1.959964 sqrt(13).
func TestLoadBoundsUnequal(t *testing.T) {
	a, b := []float64{0, 2, 7}, []float64{0, 2, 3, 5}
	closeB, farB := scorecard.LoadBounds(a, b)
	if want := 3.182446 * math.Sqrt(65.0/12); !near(closeB, want, 1e-5) {
		t.Errorf("close bound %v, want %v", closeB, want)
	}
	if want := 1.959964 * math.Sqrt(13); !near(farB, want, 1e-5) {
		t.Errorf("far bound %v, want %v", farB, want)
	}
}

// weeks returns a log of a 10-processor machine whose complete weeks have
// the offered loads tenths[w]/10: one job of tenths[w] processors for a week
// at the start of week w (a job of 0 s at time 0 marks the start), and a
// job that begins an incomplete last week.
func weeks(name string, tenths ...int32) *trace.Trace {
	const week = 7 * 86400
	tr := &trace.Trace{Name: name, Procs: 10, Jobs: []trace.Job{{ID: 1, Submit: 0, Runtime: 0, Procs: 1, ReqProcs: 1, User: 1, Wait: 0, ReqTime: 1}}}
	for w, p := range tenths {
		if p > 0 {
			tr.Jobs = append(tr.Jobs, trace.Job{ID: int64(len(tr.Jobs) + 1), Submit: int64(w) * week, Runtime: week, Procs: p, ReqProcs: p, User: 1, Wait: 0, ReqTime: week})
		}
	}
	tr.Jobs = append(tr.Jobs, trace.Job{ID: int64(len(tr.Jobs) + 1), Submit: int64(len(tenths)) * week, Runtime: week, Procs: 10, ReqProcs: 10, User: 1, Wait: 0, ReqTime: week})
	return tr
}

// TestLoadRow checks the offered-load row on the weekly loads of
// TestLoadBoundsUnequal divided by 10: means 0.3 and 0.25, difference
// -1/6 of the reference's, statistic 0.05 within the close bound.
func TestLoadRow(t *testing.T) {
	ref, cand := weeks("ref", 0, 2, 7), weeks("cand", 0, 2, 3, 5)
	if got := scorecard.WeeklyLoads(cand); len(got) != 4 || !near(got[3], 0.5, 1e-12) {
		t.Fatalf("weekly loads %v, want [0 0.2 0.3 0.5]", got)
	}
	c, err := scorecard.Compare(ref, cand, scorecard.Options{Shuffles: 2})
	if err != nil {
		t.Fatal(err)
	}
	r := rows(c)["offered load"]
	if r.N != [2]int{3, 4} || r.Reference != "0.300" || r.Candidate != "0.250" || r.Note != "means of complete weeks" {
		t.Errorf("n %v, %q, %q, %q; want [3 4], 0.300, 0.250, means of complete weeks", r.N, r.Reference, r.Candidate, r.Note)
	}
	if !near(r.Distance, -1.0/6, 1e-12) || !near(r.Statistic, 0.05, 1e-12) {
		t.Errorf("distance %v, statistic %v; want -1/6, 0.05", r.Distance, r.Statistic)
	}
	if want := 3.182446 * math.Sqrt(65.0/12) / 10; !near(r.CloseBound, want, 1e-6) {
		t.Errorf("close bound %v, want %v", r.CloseBound, want)
	}
	if want := 1.959964 * math.Sqrt(13) / 10; !near(r.FarBound, want, 1e-6) {
		t.Errorf("far bound %v, want %v", r.FarBound, want)
	}
	if r.Verdict != scorecard.Close {
		t.Errorf("verdict %s, want close", r.Verdict)
	}
	// Two complete weeks in each are enough: {0.1, 0.3} and {0.2, 0.4},
	// the weeks of TestLoadBounds.
	c, err = scorecard.Compare(weeks("two", 1, 3), weeks("two more", 2, 4), scorecard.Options{Shuffles: 2})
	if err != nil {
		t.Fatal(err)
	}
	r = rows(c)["offered load"]
	if want := 4.302653 * math.Sqrt(2) / 10; r.N != [2]int{2, 2} || r.Verdict != scorecard.Close || !near(r.Statistic, 0.1, 1e-12) || !near(r.CloseBound, want, 1e-6) {
		t.Errorf("two weeks each: n %v, %s, statistic %v, close bound %v; want [2 2], close, 0.1, %v", r.N, r.Verdict, r.Statistic, r.CloseBound, want)
	}
	// One complete week in the reference, none known in the candidate
	// (no machine size): the reference's value, no verdict.
	noSize := weeks("nosize", 2, 3)
	noSize.Procs = 0
	c, err = scorecard.Compare(weeks("one", 4), noSize, scorecard.Options{Shuffles: 2})
	if err != nil {
		t.Fatal(err)
	}
	r = rows(c)["offered load"]
	if r.N != [2]int{1, 0} || r.Reference != "0.400" || r.Candidate != "" || r.Verdict != scorecard.NA ||
		r.Note != "needs the machine size and two complete weeks in each" {
		t.Errorf("n %v, %q, %q, %s, %q; want [1 0], 0.400, none, n/a, needs two weeks", r.N, r.Reference, r.Candidate, r.Verdict, r.Note)
	}
}

// TestWeeklyLoadsBoundaries: weeks start at the first submit (here three
// weeks and 1,000 s after the log's start); a job submitted the second before a week's end counts in that week,
// one at its end in the next, and the last submit, exactly two weeks after
// the first, begins an incomplete week that is left out, as are jobs that
// cannot run.
func TestWeeklyLoadsBoundaries(t *testing.T) {
	const week = 7 * 86400
	job := func(submit, runtime int64, procs int32) trace.Job {
		return trace.Job{Submit: 3*week + 1000 + submit, Runtime: runtime, Procs: procs, ReqProcs: procs, User: 1, Wait: 0, ReqTime: runtime}
	}
	tr := &trace.Trace{Name: "b", Procs: 4, Jobs: []trace.Job{
		job(0, week, 1), job(week-1, week, 2), job(week, week, 1), job(2*week, week, 4),
		{Submit: 3*week + 1000 + 10, Runtime: -1, Procs: 4, ReqProcs: 4, User: 1, Wait: 0, ReqTime: 5},
	}}
	got := scorecard.WeeklyLoads(tr)
	if len(got) != 2 || !near(got[0], 0.75, 1e-12) || !near(got[1], 0.25, 1e-12) {
		t.Errorf("weekly loads %v, want [0.75 0.25]", got)
	}
}

// TestHurstRow checks the Hurst row against its definition: the two logs'
// H, the spreads of HurstNull with the card's seed and the next, and the
// distance of the reference from its own shuffles as the far bound; the
// unit of the note follows Options.HurstUnit, 1 hour by default.
func TestHurstRow(t *testing.T) {
	k := loadKTH(t)
	// Arrivals twice as fast: another series of counts per hour, another H.
	later := altered(k, "faster", func(j *trace.Job) { j.Submit /= 2 })
	c, err := scorecard.Compare(k, later, scorecard.Options{Seed: 3, Shuffles: 4})
	if err != nil {
		t.Fatal(err)
	}
	if c.Shuffles != 4 || c.Seed != 3 {
		t.Errorf("card shuffles %d, seed %d; want 4, 3", c.Shuffles, c.Seed)
	}
	r := rows(c)["Hurst parameter"]
	xa, xb := locality.Arrivals(k, 3600), locality.Arrivals(later, 3600)
	ha := locality.HurstSeries(xa, locality.HurstOptions{}).H
	hb := locality.HurstSeries(xb, locality.HurstOptions{}).H
	m0, sa := scorecard.HurstNull(xa, 4, 3)
	_, sb := scorecard.HurstNull(xb, 4, 4)
	if !(math.Abs(hb-ha) > 0.01) {
		t.Fatalf("H %v and %v: want different", ha, hb)
	}
	if r.N != [2]int{len(xa), len(xb)} || r.Note != "R/S pox plot of arrivals per 1h" {
		t.Errorf("n %v, note %q; want [%d %d], per 1h", r.N, r.Note, len(xa), len(xb))
	}
	if !near(r.Distance, (hb-ha)/ha, 1e-12) || !near(r.Statistic, math.Abs(hb-ha), 1e-12) {
		t.Errorf("distance %v, statistic %v; want %v, %v", r.Distance, r.Statistic, (hb-ha)/ha, math.Abs(hb-ha))
	}
	if want := 1.959964 * math.Sqrt(sa*sa+sb*sb); !near(r.CloseBound, want, 1e-6) {
		t.Errorf("close bound %v, want %v", r.CloseBound, want)
	}
	if want := math.Abs(ha - m0); !near(r.FarBound, want, 1e-12) {
		t.Errorf("far bound %v, want %v", r.FarBound, want)
	}
	c, err = scorecard.Compare(k, k, scorecard.Options{HurstUnit: 86400, Shuffles: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r := rows(c)["Hurst parameter"]; r.Note != "R/S pox plot of arrivals per 1d" || r.N[0] != len(locality.Arrivals(k, 86400)) {
		t.Errorf("daily: note %q, n %v", r.Note, r.N)
	}
	// The default number of shuffles.
	c, err = scorecard.Compare(weeks("a", 1, 2), weeks("b", 1, 2), scorecard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Shuffles != 30 {
		t.Errorf("default shuffles %d, want 30", c.Shuffles)
	}
}

// TestHurstNullNeedsTwo: the spread needs two shuffles whose H is defined.
func TestHurstNullNeedsTwo(t *testing.T) {
	x := locality.Arrivals(loadKTH(t), 3600)
	if m, s := scorecard.HurstNull(x, 1, 1); !math.IsNaN(m) || !math.IsNaN(s) {
		t.Errorf("one shuffle: %v ± %v, want NaN", m, s)
	}
	if m, s := scorecard.HurstNull(x, 2, 1); math.IsNaN(m) || !(s >= 0) {
		t.Errorf("two shuffles: %v ± %v, want numbers", m, s)
	}
}
