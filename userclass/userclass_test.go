package userclass_test

import (
	"math"
	"os"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/hpcwl/hpcwl/userclass"
)

func TestMain(m *testing.M) { os.Exit(testdata.Main(m)) }

func newTrace(jobs []trace.Job) *trace.Trace {
	var h swf.Header
	h.Add("UnixStartTime", "946857600") // Monday 2000-01-03 00:00 UTC
	h.Add("TimeZoneString", "UTC")
	h.Add("MaxProcs", "64")
	for i := range jobs {
		jobs[i].ID = int64(i + 1)
		jobs[i].ReqProcs, jobs[i].AvgCPU, jobs[i].ReqTime = -1, -1, -1
	}
	return trace.New(h, jobs, trace.Options{})
}

func TestCompute(t *testing.T) {
	h := int64(3600)
	tr := newTrace([]trace.Job{
		{User: 7, Submit: 9 * h, Runtime: 600, Procs: 8},
		{User: 7, Submit: 9*h + 700, Runtime: 60, Procs: 16},       // think 100 s: same session
		{User: 7, Submit: 5*24*h + 20*h, Runtime: 3600, Procs: 8},  // Saturday night: new session
		{User: 7, Submit: 14*24*h + 10*h, Runtime: 1200, Procs: 8}, // two weeks later
		{User: -1, Submit: 11 * h, Runtime: 10, Procs: 1},          // no user: not a user
	})
	ss, _, err := sessionclass.Compute(tr, 0, sessionclass.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range ss {
		ss[i].Class = sessionclass.IWD
	}
	ss[2].Class = sessionclass.IW
	us, err := userclass.Compute(tr, 0, ss, 64)
	if err != nil {
		t.Fatal(err)
	}
	if len(us) != 1 || us[0].ID != 7 || us[0].Class != -1 {
		t.Fatalf("%+v", us)
	}
	x := us[0].X
	span := float64(14*24*h + 10*h + 1200 - 9*h)
	want := map[int]float64{
		userclass.J: 4, userclass.S: 3,
		userclass.Rm: 600, userclass.Ri: 3600 - 60,
		userclass.Pm: 8 * 2, userclass.Pi: 8 * 2,
		userclass.Im:  float64(5*24*h + 20*h - 9*h - 700), // the middle of 700 s, 5d11h-700 s and 8d14h
		userclass.Day: 0.75, userclass.Work: 0.75,
		userclass.FracIWD: 2.0 / 3, userclass.FracIW: 1.0 / 3, userclass.FracBHD: 0,
		userclass.Days: span / 86400, userclass.JW: 4 / (span / (7 * 86400)),
	}
	for v, w := range want {
		if !(math.Abs(x[v]-w) <= 1e-9) {
			t.Errorf("%s = %v, want %v", userclass.Names[v], x[v], w)
		}
	}
	if _, err := userclass.Compute(tr, 1, ss, 64); err == nil {
		t.Error("sessions of another log accepted")
	}
}

// The pooled analysis of the six logs we share with Talby's chapter 9
// (docs/validation.md, "Sessions and users as observations"), pinned at
// seed 1.
func TestAnalyzePooledLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("reads six logs")
	}
	var traces []*trace.Trace
	for _, f := range []string{"SDSC-Par-1996-3.1-cln.swf.gz", "KTH-SP2-1996-2.1-cln.swf.gz", "CTC-SP2-1996-3.1-cln.swf.gz",
		"SDSC-SP2-1998-4.2-cln.swf.gz", "LANL-CM5-1994-4.1-cln.swf.gz", "SDSC-BLUE-2000-4.2-cln.swf.gz"} {
		tr, err := trace.Load(testdata.Path(t, f), trace.Options{})
		if err != nil {
			t.Fatal(err)
		}
		traces = append(traces, tr)
	}
	r, err := userclass.Analyze(traces, userclass.Options{Classify: sessionclass.ClassifyOptions{Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Sessions != pinnedSessions || r.Users != pinnedUsers {
		t.Errorf("%d sessions, %d users; pinned %d, %d", r.Sessions, r.Users, pinnedSessions, pinnedUsers)
	}
	for i, c := range r.SessionClasses.Classes {
		if c.Sessions != pinnedSessionClasses[i] {
			t.Errorf("session class %s: %d, pinned %d", c.Class, c.Sessions, pinnedSessionClasses[i])
		}
	}
	for i, c := range r.UserClasses.Classes {
		if c.Users != pinnedUserClasses[i] {
			t.Errorf("user class %s: %d, pinned %d", c.Class, c.Users, pinnedUserClasses[i])
		}
	}
	if got := r.SessionPCA.Cumulative[8]; !(math.Abs(got-pinnedSessionCum9) <= 1e-6) {
		t.Errorf("session PCA, 9 components: %.6f, pinned %.6f", got, pinnedSessionCum9)
	}
	if got := r.UserPCA.Cumulative[8]; !(math.Abs(got-pinnedUserCum9) <= 1e-6) {
		t.Errorf("user PCA, 9 components: %.6f, pinned %.6f", got, pinnedUserCum9)
	}
	// Talby's Table 20: 9 components explain 85% of the session variance;
	// Table 22: 83% of the user variance.
	if !(math.Abs(r.SessionPCA.Cumulative[8]-0.85) <= 0.05) || !(math.Abs(r.UserPCA.Cumulative[8]-0.83) <= 0.06) {
		t.Errorf("9 components: sessions %.3f, users %.3f", r.SessionPCA.Cumulative[8], r.UserPCA.Cumulative[8])
	}
	// Table 21's order of class sizes: IWD > IWN > IW > BHP > BHD.
	cs := r.SessionClasses.Classes
	for i := 1; i < len(cs); i++ {
		if cs[i].Sessions >= cs[i-1].Sessions {
			t.Errorf("class %s (%d) not smaller than %s (%d)", cs[i].Class, cs[i].Sessions, cs[i-1].Class, cs[i-1].Sessions)
		}
	}
	// Without clipping, two users far out take a class of their own;
	// clipped at 3 standard deviations, every class holds at least 5% of
	// the users and LTLU is the largest, as in Table 23 (55% LTLU).
	if c := r.UserClasses.Classes[0]; c.Class != "LTLU" || c.Users != 2 {
		t.Errorf("unclipped: first class %s of %d users, want LTLU of 2", c.Class, c.Users)
	}
	clipped, err := userclass.Classify(r.UserRows(), sessionclass.ClassifyOptions{Seed: 1, Clip: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range clipped.Classes {
		if c.Users != pinnedClippedUserClasses[i] {
			t.Errorf("clipped user class %s: %d, pinned %d", c.Class, c.Users, pinnedClippedUserClasses[i])
		}
		if c.Users < r.Users/20 || (c.Class != "LTLU" && c.Users >= clipped.Classes[0].Users) {
			t.Errorf("clipped user class %s: %d of %d users", c.Class, c.Users, r.Users)
		}
	}
}

// pinnedClippedUserClasses are the sizes of the user classes LTLU, LTHU,
// STWE and STWD with z-scores clipped at 3 (docs/validation.md).
var pinnedClippedUserClasses = [4]int{1063, 146, 520, 342}

func BenchmarkAnalyzeBLUE(b *testing.B) {
	tr, err := trace.Load(testdata.Path(b, "SDSC-BLUE-2000-4.2-cln.swf.gz"), trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := userclass.Analyze([]*trace.Trace{tr}, userclass.Options{Classify: sessionclass.ClassifyOptions{Seed: 1}}); err != nil {
			b.Fatal(err)
		}
	}
}
