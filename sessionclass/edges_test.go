package sessionclass_test

import (
	"math"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/trace"
)

// TestOnlineEdges classifies first jobs at the edges of each rule, on the
// clock of newTrace (Monday 2000-01-03 00:00 UTC is time 0): a requested
// time or size equal to its threshold is not above it; daytime runs from
// 07:30:00 to 17:30:00 inclusive; Friday is a workday, Saturday is not.
func TestOnlineEdges(t *testing.T) {
	h, d := int64(3600), int64(86400)
	tr := newTrace(nil)
	c := tr.Clock()
	opt := sessionclass.OnlineOptions{LongRuntime: 1000, WideProcs: 32}
	for _, k := range []struct {
		name string
		j    trace.Job
		want sessionclass.Class
	}{
		{"long", trace.Job{Submit: 9 * h, ReqTime: 1001, Procs: 1}, sessionclass.BHD},
		{"at the long limit", trace.Job{Submit: 9 * h, ReqTime: 1000, Procs: 1}, sessionclass.IWD},
		{"wide, requested", trace.Job{Submit: 9 * h, ReqTime: -1, ReqProcs: 33, Procs: 1}, sessionclass.BHP},
		{"wide, allocated", trace.Job{Submit: 9 * h, ReqTime: -1, ReqProcs: -1, Procs: 33}, sessionclass.BHP},
		{"requested 0: allocated", trace.Job{Submit: 9 * h, ReqTime: -1, ReqProcs: 0, Procs: 33}, sessionclass.BHP},
		{"requested before allocated", trace.Job{Submit: 9 * h, ReqTime: -1, ReqProcs: 2, Procs: 64}, sessionclass.IWD},
		{"at the wide limit", trace.Job{Submit: 9 * h, ReqTime: -1, ReqProcs: 32, Procs: 32}, sessionclass.IWD},
		{"07:29:59", trace.Job{Submit: 7*h + 1799, Procs: 1}, sessionclass.IWN},
		{"07:30:00", trace.Job{Submit: 7*h + 1800, Procs: 1}, sessionclass.IWD},
		{"17:30:00", trace.Job{Submit: 17*h + 1800, Procs: 1}, sessionclass.IWD},
		{"17:30:01", trace.Job{Submit: 17*h + 1801, Procs: 1}, sessionclass.IWN},
		{"Friday", trace.Job{Submit: 4*d + 12*h, Procs: 1}, sessionclass.IWD},
		{"Saturday night", trace.Job{Submit: 5*d + 2*h, Procs: 1}, sessionclass.IW},
		{"Sunday noon", trace.Job{Submit: 6*d + 12*h, Procs: 1}, sessionclass.IW},
	} {
		if got := sessionclass.Online(c, &k.j, opt); got != k.want {
			t.Errorf("%s: %s, want %s", k.name, got, k.want)
		}
	}
	// Thresholds of 0 judge nothing by size or requested time.
	if got := sessionclass.Online(c, &trace.Job{Submit: 9 * h, ReqTime: 1 << 40, Procs: 1 << 20}, sessionclass.OnlineOptions{}); got != sessionclass.IWD {
		t.Errorf("no thresholds: %s, want IWD", got)
	}
}

// TestDefaultOnline: half the header's MaxRuntime, else half the largest
// requested time; half the machine.
func TestDefaultOnline(t *testing.T) {
	tr := newTrace([]trace.Job{{Submit: 0, ReqTime: 500, Procs: 1}, {Submit: 1, ReqTime: 301, Procs: 1}})
	tr.Jobs[0].ReqTime, tr.Jobs[1].ReqTime = 500, 301
	o, err := sessionclass.DefaultOnline(tr)
	if err != nil || o.LongRuntime != 250 || o.WideProcs != 32 {
		t.Errorf("%+v, %v; want 250 s and 32 processors", o, err)
	}
	tr.Header.Add("MaxRuntime", "7200")
	if o, _ := sessionclass.DefaultOnline(tr); o.LongRuntime != 3600 {
		t.Errorf("with MaxRuntime 7200: %+v, want 3600 s", o)
	}
	// A MaxRuntime of 0 is no maximum.
	tr.Header = newTrace(nil).Header
	tr.Header.Add("MaxRuntime", "0")
	if o, _ := sessionclass.DefaultOnline(tr); o.LongRuntime != 250 {
		t.Errorf("with MaxRuntime 0: %+v, want 250 s", o)
	}
	tr.Procs = 0
	if _, err := sessionclass.DefaultOnline(tr); err == nil {
		t.Error("no machine size accepted")
	}
}

// TestAgree: sessions without a class on either side are left out.
func TestAgree(t *testing.T) {
	ss := []sessionclass.Session{{Class: sessionclass.IWD}, {Class: sessionclass.BHP}, {Class: -1}, {Class: sessionclass.IW}}
	on := []sessionclass.Class{sessionclass.IWD, sessionclass.BHD, sessionclass.IWD, -1}
	a := sessionclass.Agree(ss, on)
	if a.Fraction != 0.5 || a.Counts[sessionclass.IWD][sessionclass.IWD] != 1 || a.Counts[sessionclass.BHP][sessionclass.BHD] != 1 {
		t.Errorf("%+v: want 1 of 2 agreeing", a)
	}
	if a := sessionclass.Agree(ss[2:3], on[2:3]); a.Fraction != 0 {
		t.Errorf("nothing classified: %+v", a)
	}
}

func TestClassStringAndTransform(t *testing.T) {
	for c, want := range map[sessionclass.Class]string{sessionclass.IWD: "IWD", sessionclass.BHD: "BHD", -1: "-", sessionclass.NumClasses: "-"} {
		if got := c.String(); got != want {
			t.Errorf("%d: %q, want %q", int(c), got, want)
		}
	}
	for _, c := range []struct{ v, want float64 }{{-2, -2}, {0, 0}, {math.E - 1, 1}} {
		if got := sessionclass.Transform(c.v); !(math.Abs(got-c.want) <= 1e-15) {
			t.Errorf("Transform(%v) = %v, want %v", c.v, got, c.want)
		}
	}
	ss := []sessionclass.Session{{}, {}}
	ss[1].X[sessionclass.Pi] = 7
	if m := sessionclass.Matrix(ss, nil); len(m) != 2 || len(m[1]) != sessionclass.NumVariables || m[1][sessionclass.Pi] != 7 {
		t.Errorf("Matrix of every variable: %v", m)
	}
}

// TestComputeEdges: Talby's session ends at a think time of 20 minutes or
// more (1,199 s continues it, 1,200 s ends it); runtimes within 5% of the
// smallest of their group are one value, just above it another; processor
// counts are normalized by Options.Procs; unknown runtimes and sizes are
// left out; a negative threshold is refused.
func TestComputeEdges(t *testing.T) {
	jobs := []trace.Job{
		job(1, 0, 0, 100, 8),     // ends at 100
		job(1, 1299, 0, 105, 16), // think 1199: same session; 105 = 100 * 1.05
		job(1, 1404, 0, 106, 0),  // think 0; 106 > 105: a new runtime; size unknown
		job(1, 1510, 0, -1, 8),   // runtime unknown: ends at its submit
		job(1, 2710, 0, 50, 8),   // think 1200: new session
		job(2, 9000, 0, 0, 8),    // a runtime of 0 is a runtime
		job(2, 9010, 0, 10, 8),
	}
	ss, _, err := sessionclass.Compute(newTrace(jobs), 0, sessionclass.Options{Procs: 256})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 3 || len(ss[0].Jobs) != 4 {
		t.Fatalf("%d sessions, first of %d jobs; want 3, 4", len(ss), len(ss[0].Jobs))
	}
	if x := ss[2].X; x[sessionclass.Rm] != 0 || x[sessionclass.UR] != 2 || x[sessionclass.Ri] != 10 {
		t.Errorf("runtimes 0 and 10: Rm %v, UR %v, Ri %v; want 0, 2, 10", x[sessionclass.Rm], x[sessionclass.UR], x[sessionclass.Ri])
	}
	x := ss[0].X
	for v, want := range map[int]float64{
		sessionclass.UR: 2, sessionclass.UP: 2, sessionclass.Rm: 105, sessionclass.Pm: 4, sessionclass.Pi: 4,
		sessionclass.D: 1510, sessionclass.Im: 106, sessionclass.Tm: 0,
	} {
		if x[v] != want {
			t.Errorf("%s = %v, want %v", sessionclass.Names[v], x[v], want)
		}
	}
	if _, _, err := sessionclass.Compute(newTrace(jobs), 0, sessionclass.Options{Threshold: -1}); err == nil || !strings.Contains(err.Error(), "negative threshold") {
		t.Errorf("negative threshold: %v", err)
	}
	tr := newTrace(jobs)
	tr.Procs = 0
	if _, _, err := sessionclass.Compute(tr, 0, sessionclass.Options{}); err == nil {
		t.Error("no machine size accepted")
	}
}

// TestClassSummaries checks the summaries of the classes of classTrace,
// whose sessions are built alike within each class: every BHP session is
// one job of 64 processors on a 64-processor machine (Pm 128 after
// normalizing to 128), every IWD session two jobs, every BHD session
// twelve; shares are the sessions' fractions. Clustering on log(1 + v)
// finds the same classes.
func TestClassSummaries(t *testing.T) {
	for _, log := range []bool{false, true} {
		ss, _, err := sessionclass.Compute(classTrace(), 0, sessionclass.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cl, err := sessionclass.Classify(ss, sessionclass.ClassifyOptions{Seed: 1, Log: log})
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]sessionclass.ClassSummary{}
		for _, c := range cl.Classes {
			byName[c.Class] = c
			if want := float64(c.Sessions) / float64(len(ss)); c.Share != want {
				t.Errorf("log %v, %s: share %v, want %v", log, c.Class, c.Share, want)
			}
		}
		for _, c := range []struct {
			class, v string
			want     float64
		}{{"BHP", "Pm", 128}, {"IWD", "J", 2}, {"BHD", "J", 12}, {"IWN", "J", 1}} {
			s := byName[c.class]
			if st := s.Variables[c.v]; st.Mean != c.want || st.Median != c.want || st.Interval != 0 {
				t.Errorf("log %v, %s: %s %+v, want mean and median %v, interval 0", log, c.class, c.v, st, c.want)
			}
		}
		if got := byName["BHP"].Centre["Pm"]; !(math.Abs(got-128) <= 1e-9) {
			t.Errorf("log %v: BHP centre Pm %v, want 128", log, got)
		}
		if s := byName["BHD"]; s.Sessions != 8 || !(math.Abs(s.Centre["%W"]-byName["BHD"].Variables["%W"].Mean) <= 1e-12) {
			t.Errorf("log %v: BHD %d sessions, centre %%W %v against the mean %v", log, s.Sessions, s.Centre["%W"], s.Variables["%W"].Mean)
		}
	}
}

// TestClassifyFiveSessions: five sessions are enough for five classes.
func TestClassifyFiveSessions(t *testing.T) {
	ss, _, err := sessionclass.Compute(classTrace(), 0, sessionclass.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := sessionclass.Classify(ss[:5], sessionclass.ClassifyOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cl.Classes {
		n += c.Sessions
	}
	if n != 5 {
		t.Errorf("%d sessions classified, want 5", n)
	}
}

// TestZeroLengthSession: a session of one job of 0 s has no span; its %D
// and %W are ?D and ?W.
func TestZeroLengthSession(t *testing.T) {
	h := int64(3600)
	ss, _, err := sessionclass.Compute(newTrace([]trace.Job{job(1, 9*h, 0, 0, 1), job(2, 5*24*h+3*h, 0, 0, 1)}), 0, sessionclass.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][2]float64{{1, 1}, {0, 0}} { // Monday 09:00; Saturday 03:00
		if x := ss[i].X; x[sessionclass.Day] != want[0] || x[sessionclass.Work] != want[1] || x[sessionclass.D] != 0 {
			t.Errorf("session %d: %%D %v, %%W %v, D %v; want %v, %v, 0", i, x[sessionclass.Day], x[sessionclass.Work], x[sessionclass.D], want[0], want[1])
		}
	}
}
