package scorecard_test

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/hpcwl/hpcwl/scorecard"
	"github.com/hpcwl/hpcwl/stats"
	"github.com/hpcwl/hpcwl/trace"
)

var kth = sync.OnceValues(func() (*trace.Trace, error) {
	return trace.Load("builtin:KTH-SP2", trace.Options{})
})

func loadKTH(t *testing.T) *trace.Trace {
	t.Helper()
	tr, err := kth()
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// altered returns a copy of t with f applied to every job.
func altered(t *trace.Trace, name string, f func(j *trace.Job)) *trace.Trace {
	c := *t
	c.Name = name
	c.Jobs = append([]trace.Job(nil), t.Jobs...)
	for i := range c.Jobs {
		f(&c.Jobs[i])
	}
	return &c
}

func rows(c *scorecard.Card) map[string]scorecard.Row {
	m := map[string]scorecard.Row{}
	for _, r := range c.Rows {
		m[r.Feature] = r
	}
	return m
}

func TestSelfIsClose(t *testing.T) {
	k := loadKTH(t)
	c, err := scorecard.Compare(k, k, scorecard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) != 11 {
		t.Fatalf("%d features, want 11", len(c.Rows))
	}
	for _, r := range c.Rows {
		if r.Verdict != scorecard.Close || r.Statistic != 0 {
			t.Errorf("%s: verdict %s, statistic %v against itself; want close at 0", r.Feature, r.Verdict, r.Statistic)
		}
		if !(r.CloseBound > 0) || !(r.FarBound > 0) {
			t.Errorf("%s: bounds %v, %v; want positive", r.Feature, r.CloseBound, r.FarBound)
		}
	}
}

func TestDifferentWorkloadIsFar(t *testing.T) {
	k := loadKTH(t)
	// Runtimes 8 times longer and every job submitted 12 hours later: the
	// runtime distribution, the daily cycle and the load move; sizes and
	// inter-arrival times stay.
	d := altered(k, "altered", func(j *trace.Job) {
		j.Runtime *= 8
		j.Submit += 12 * 3600
	})
	c, err := scorecard.Compare(k, d, scorecard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := rows(c)
	for feature, want := range map[string]scorecard.Verdict{
		"runtime": scorecard.Far, "daily cycle": scorecard.Far, "offered load": scorecard.Far,
		"size": scorecard.Close, "inter-arrival": scorecard.Close, "requested time": scorecard.Close,
		"jobs per user": scorecard.Close,
	} {
		if got := m[feature].Verdict; got != want {
			t.Errorf("%s: %s (statistic %v, bounds %v, %v), want %s", feature, got, m[feature].Statistic,
				m[feature].CloseBound, m[feature].FarBound, want)
		}
	}
	if c.Count(scorecard.Far) < 3 {
		t.Errorf("%d features far, want at least 3", c.Count(scorecard.Far))
	}
}

func TestUnknownFeaturesAreNA(t *testing.T) {
	k := loadKTH(t)
	d := altered(k, "anonymous", func(j *trace.Job) { j.User, j.ReqTime = -1, -1 })
	c, err := scorecard.Compare(k, d, scorecard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := rows(c)
	for _, f := range []string{"requested time", "jobs per user", "sessions per user", "session length"} {
		if m[f].Verdict != scorecard.NA || m[f].Note == "" {
			t.Errorf("%s: %s (%q), want n/a with a note", f, m[f].Verdict, m[f].Note)
		}
	}
	if m["runtime"].Verdict != scorecard.Close {
		t.Errorf("runtime: %s, want close", m["runtime"].Verdict)
	}
}

func TestEmptyWorkload(t *testing.T) {
	k := loadKTH(t)
	if _, err := scorecard.Compare(k, &trace.Trace{Name: "empty"}, scorecard.Options{}); err == nil {
		t.Fatal("no error for a workload without jobs")
	}
}

// TestKSEdges places the KS distance on each side of both bounds: two
// samples of the integers 0..n-1, the second shifted by s, are at D = s/n.
func TestKSEdges(t *testing.T) {
	const n = 2000
	closeB, farB := scorecard.KSBounds(n, n)
	if !(closeB < farB) {
		t.Fatalf("bounds %v, %v: want close < far at n = %d", closeB, farB, n)
	}
	a := make([]float64, n)
	for i := range a {
		a[i] = float64(i)
	}
	shifted := func(s int) *trace.Trace {
		tr := &trace.Trace{Name: "shifted"}
		for i := range n {
			tr.Jobs = append(tr.Jobs, trace.Job{Submit: int64(i), Runtime: int64(i + s), Procs: 1, ReqProcs: 1, User: 1, ReqTime: -1, Wait: -1})
		}
		return tr
	}
	ref := shifted(0)
	sClose, sFar := int(math.Floor(closeB*n)), int(math.Floor(farB*n))
	for _, c := range []struct {
		s    int
		want scorecard.Verdict
	}{{0, scorecard.Close}, {sClose, scorecard.Close}, {sClose + 1, scorecard.Differs},
		{sFar, scorecard.Differs}, {sFar + 1, scorecard.Far}} {
		card, err := scorecard.Compare(ref, shifted(c.s), scorecard.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := rows(card)["runtime"]
		if !(math.Abs(r.Distance-float64(c.s)/n) <= 1e-12) {
			t.Errorf("shift %d: D = %v, want %v", c.s, r.Distance, float64(c.s)/n)
		}
		if r.Verdict != c.want {
			t.Errorf("shift %d: D = %v, bounds %v, %v: %s, want %s", c.s, r.Distance, r.CloseBound, r.FarBound, r.Verdict, c.want)
		}
	}
}

func TestKSBounds(t *testing.T) {
	// Large samples: 1.36/sqrt(ne), the usual 5% critical value.
	closeB, farB := scorecard.KSBounds(100000, 100000)
	if want := 1.358 / math.Sqrt(50000); !(math.Abs(closeB-want) <= 0.001*want) {
		t.Errorf("close bound %v, want %v", closeB, want)
	}
	if want := stats.KSCritical(scorecard.SubsampleSize, scorecard.Alpha); farB != want {
		t.Errorf("far bound %v, want %v", farB, want)
	}
	// Small samples: the far bound falls below the close one.
	if closeB, farB := scorecard.KSBounds(100, 100); !(farB < closeB) {
		t.Errorf("n = 100: bounds %v, %v; want far < close", closeB, farB)
	}
}

// TestCohenW checks that ne·w² is the chi-square statistic of homogeneity
// of the 2 x bins table, computed from its expected counts.
func TestCohenW(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		bins := 2 + rng.IntN(30)
		a, b := make([]float64, bins), make([]float64, bins)
		for i := range a {
			a[i], b[i] = float64(rng.IntN(100)), float64(rng.IntN(300))
		}
		a[0]++ // no empty row
		var n, m float64
		for i := range a {
			n, m = n+a[i], m+b[i]
		}
		obs := append(append([]float64(nil), a...), b...)
		exp := make([]float64, 2*bins)
		for i := range a {
			r := (a[i] + b[i]) / (n + m)
			exp[i], exp[bins+i] = n*r, m*r
		}
		chi := stats.ChiSquare(obs, exp, 0).Stat
		w, tv := scorecard.CohenW(a, b)
		if got := n * m / (n + m) * w * w; !(math.Abs(got-chi) <= 1e-9*chi) {
			t.Fatalf("ne w^2 = %v, chi-square %v", got, chi)
		}
		if !(tv >= 0 && tv <= 1) {
			t.Fatalf("total variation %v", tv)
		}
	}
}

func TestCycleBounds(t *testing.T) {
	// A statistic exactly at the close bound is the 95% quantile of
	// chi-square with bins-1 degrees of freedom.
	closeB, farB := scorecard.CycleBounds(24, 1000, 1000)
	ne := 500.0
	if p := 1 - chi2CDF(ne*closeB*closeB, 23); !(math.Abs(p-scorecard.Alpha) <= 1e-9) {
		t.Errorf("p-value at the close bound %v, want %v", p, scorecard.Alpha)
	}
	if closeB != farB {
		t.Errorf("ne = %v: bounds %v and %v, want equal", ne, closeB, farB)
	}
}

func chi2CDF(x float64, df int) float64 {
	return distuv.ChiSquared{K: float64(df)}.CDF(x)
}
