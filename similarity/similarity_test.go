package similarity_test

import (
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/similarity"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

func TestMain(m *testing.M) { os.Exit(testdata.Main(m)) }

func TestSimilar(t *testing.T) {
	for _, c := range []struct{ a, b, want float64 }{
		{4, 4, 1}, {2, 8, 0.25}, {8, 2, 0.25}, {0, 0, 1}, {0, 5, 0}, {5, 0, 0},
	} {
		if got := similarity.Similar(c.a, c.b); got != c.want {
			t.Errorf("Similar(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func newTrace(jobs []trace.Job) *trace.Trace {
	var h swf.Header
	h.Add("MaxProcs", "64")
	for i := range jobs {
		jobs[i].ID = int64(i + 1)
		jobs[i].ReqProcs, jobs[i].AvgCPU = -1, -1
	}
	return trace.New(h, jobs, trace.Options{})
}

// One user, three sessions (Arrival, 60 minutes): {4, 4}, {8}, {2}
// processors; estimates {100, 100}, {100}, {50}; runtimes {10, 20}, {40},
// {-1}.
func userTrace() *trace.Trace {
	h := int64(3600)
	return newTrace([]trace.Job{
		{User: 1, Submit: 0, Procs: 4, ReqTime: 100, Runtime: 10},
		{User: 1, Submit: 60, Procs: 4, ReqTime: 100, Runtime: 20},
		{User: 1, Submit: 3 * h, Procs: 8, ReqTime: 100, Runtime: 40},
		{User: 1, Submit: 6 * h, Procs: 2, ReqTime: 50, Runtime: -1},
	})
}

func TestAnalyze(t *testing.T) {
	r, err := similarity.Analyze(userTrace(), similarity.Options{MaxDistance: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		pairs [3]int64
		mean  [3]float64
		same  [3]float64
	}{
		// d=0: the pair of session 0: procs 1, estimate 1, runtime 0.5.
		{[3]int64{1, 1, 1}, [3]float64{1, 1, 0.5}, [3]float64{1, 1, 0}},
		// d=1: (4,8) twice, (8,2): procs (0.5+0.5+0.25)/3; estimate
		// (1+1+0.5)/3; runtime (10/40, 20/40), session 2's runtime unknown.
		{[3]int64{3, 3, 2}, [3]float64{1.25 / 3, 2.5 / 3, 0.375}, [3]float64{0, 2.0 / 3, 0}},
		// d=2: (4,2) twice; estimates (100,50) twice.
		{[3]int64{2, 2, 0}, [3]float64{0.5, 0.5, math.NaN()}, [3]float64{0, 0, math.NaN()}},
	}
	for d, w := range want {
		got := r.Distances[d]
		for a := range 3 {
			if got.Pairs[a] != w.pairs[a] || !near(got.Mean[a], w.mean[a]) || !near(got.Identical[a], w.same[a]) {
				t.Errorf("distance %d attribute %d: %d pairs mean %v identical %v; want %d, %v, %v", d, a,
					got.Pairs[a], got.Mean[a], got.Identical[a], w.pairs[a], w.mean[a], w.same[a])
			}
		}
	}
	if m := r.Distances[0].Median[0]; !(math.Abs(m-1) <= 1e-4) {
		t.Errorf("median %v", m)
	}
	// The one user is more similar at distance 0 than 1 in every
	// attribute, and at 1 than 2 in processors (0.417 < 0.5: longer).
	for _, d := range r.Dominance {
		switch {
		case d.Near == 0 && (d.Users != 1 || d.Shorter != 1):
			t.Errorf("%+v", d)
		case d.Near == 1 && d.Attribute == "procs" && d.Longer != 1:
			t.Errorf("%+v", d)
		case d.Near == 1 && d.Attribute == "runtime" && d.Users != 0:
			t.Errorf("no runtime pairs at distance 2, yet %+v", d)
		}
	}
	if _, err := similarity.Analyze(userTrace(), similarity.Options{MaxDistance: 1}); err == nil {
		t.Error("max distance 1 accepted")
	}
}

func near(a, b float64) bool {
	if math.IsNaN(b) {
		return math.IsNaN(a)
	}
	return math.Abs(a-b) < 1e-12
}

func TestRandomize(t *testing.T) {
	tr, err := trace.Load(testdata.Path(t, "KTH-SP2-1996-2.1-cln.swf.gz"), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := similarity.Randomize(tr, similarity.Options{}, 20, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := similarity.Randomize(tr, similarity.Options{}, 20, 3, 4)
	if !reflect.DeepEqual(a, b) {
		t.Error("result depends on the workers")
	}
	// Zakay: the same-session similarity is far above every shuffle.
	for at := range similarity.NumAttributes {
		if a.Above[at] != 0 || a.Original[at] < 1.1*slicesMax(a.Shuffled[at]) {
			t.Errorf("%s: original %.3f, shuffled up to %.3f", at, a.Original[at], slicesMax(a.Shuffled[at]))
		}
	}
	// Pinned: KTH-SP2's same-session similarity (docs/validation.md).
	for at, want := range []float64{0.700335, 0.798788, 0.562615} {
		if !(math.Abs(a.Original[at]-want) <= 1e-6) {
			t.Errorf("attribute %d: %.6f, pinned %.6f", at, a.Original[at], want)
		}
	}
}

func slicesMax(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

// TestDominanceRealLogs pins our Tables II-IV for KTH-SP2 and SDSC-BLUE
// (docs/validation.md) and checks Zakay's headline: most users are more
// similar within a session than across consecutive ones.
func TestDominanceRealLogs(t *testing.T) {
	pins := map[string][6]float64{ // 0-vs-1 "shorter larger" of procs, estimate, runtime; then 1-vs-2
		"KTH-SP2-1996-2.1-cln.swf.gz":   {0.699387, 0.809816, 0.797546, 0.587879, 0.745455, 0.763636},
		"SDSC-BLUE-2000-4.2-cln.swf.gz": {0.816193, 0.940919, 0.916484, 0.716157, 0.816594, 0.792123},
	}
	for file, pin := range pins {
		tr, err := trace.Load(testdata.Path(t, file), trace.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := similarity.Analyze(tr, similarity.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[[2]int]float64{}
		for _, d := range r.Dominance {
			a := map[string]int{"procs": 0, "estimate": 1, "runtime": 2}[d.Attribute]
			got[[2]int{d.Near, a}] = d.Shorter
			if d.Near == 0 && d.Shorter < 0.6 {
				t.Errorf("%s %s: %.3f of users more similar in one session", file, d.Attribute, d.Shorter)
			}
		}
		for i, w := range pin {
			if g := got[[2]int{i / 3, i % 3}]; !(math.Abs(g-w) <= 1e-6) {
				t.Errorf("%s cell %d: %.6f, pinned %.6f", file, i, g, w)
			}
		}
	}
}

func BenchmarkAnalyzeBLUE(b *testing.B) {
	tr, err := trace.Load(testdata.Path(b, "SDSC-BLUE-2000-4.2-cln.swf.gz"), trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := similarity.Analyze(tr, similarity.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRandomizeBLUE: the 1000-shuffle randomization check of
// SDSC-BLUE on every core.
func BenchmarkRandomizeBLUE(b *testing.B) {
	tr, err := trace.Load(testdata.Path(b, "SDSC-BLUE-2000-4.2-cln.swf.gz"), trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := similarity.Randomize(tr, similarity.Options{}, 1000, 1, 0); err != nil {
			b.Fatal(err)
		}
	}
}
