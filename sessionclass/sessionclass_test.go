package sessionclass_test

import (
	"math"
	"os"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

func TestMain(m *testing.M) { os.Exit(testdata.Main(m)) }

func newTrace(jobs []trace.Job) *trace.Trace {
	var h swf.Header
	h.Add("UnixStartTime", "946857600") // 2000-01-03 00:00 UTC, a Monday
	h.Add("TimeZoneString", "UTC")
	h.Add("MaxProcs", "64")
	for i := range jobs {
		jobs[i].ID = int64(i + 1)
		jobs[i].ReqProcs, jobs[i].AvgCPU, jobs[i].ReqTime = -1, -1, -1
	}
	return trace.New(h, jobs, trace.Options{})
}

func job(user int32, submit, wait, run int64, procs int32) trace.Job {
	return trace.Job{User: user, Submit: submit, Wait: wait, Runtime: run, Procs: procs}
}

func TestCompute(t *testing.T) {
	h := int64(3600)
	jobs := []trace.Job{
		// User 1, Monday: 09:00 (runs 10 min), 09:15 (think 5 min, runs
		// 100 s on 32), 09:20 (think -... submitted while the previous
		// one runs: think = 09:20 - 09:16:40 = 200 s).
		job(1, 9*h, 0, 600, 16),
		job(1, 9*h+900, 0, 100, 32),
		job(1, 9*h+1200, 60, 630, 16),
		// User 1 again at 10:00: think 09:20+60+630 = 09:31:30 -> 28.5 min >= 20: new session.
		job(1, 10*h, 0, 3600, 64),
		// User 2, Saturday 16:30 to 18:30 (one job of 2 hours).
		job(2, 5*24*h+16*h+1800, 0, 2*h, 8),
	}
	tr := newTrace(jobs)
	ss, _, err := sessionclass.Compute(tr, 3, sessionclass.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 3 {
		t.Fatalf("%d sessions", len(ss))
	}
	s := ss[0]
	want := map[int]float64{
		sessionclass.J:      3,
		sessionclass.D:      1200 + 60 + 630, // 09:00 to 09:31:30
		sessionclass.Rm:     600,             // lower median of 100, 600, 630
		sessionclass.Ri:     630 - 100,
		sessionclass.Im:     300, // 900 and 300
		sessionclass.Tm:     200, // 300 and 200
		sessionclass.Ti:     100,
		sessionclass.UP:     2, // 16, 16, 32
		sessionclass.UR:     2, // 100; 600 and 630 within 5%
		sessionclass.Pm:     16 * 2,
		sessionclass.Pi:     16 * 2,
		sessionclass.IsDay:  1,
		sessionclass.Day:    1,
		sessionclass.IsWork: 1,
		sessionclass.Work:   1,
	}
	for v, w := range want {
		if !(math.Abs(s.X[v]-w) <= 1e-9) {
			t.Errorf("session 0 %s = %v, want %v", sessionclass.Names[v], s.X[v], w)
		}
	}
	if s.Log != 3 || s.User != 1 || len(s.Jobs) != 3 || s.Class != -1 {
		t.Errorf("%+v", s)
	}
	one := ss[1]
	if one.X[sessionclass.J] != 1 || one.X[sessionclass.Tm] != 0 || one.X[sessionclass.Im] != 0 || one.X[sessionclass.Ri] != 0 {
		t.Errorf("single-job session %v", one.X)
	}
	// Saturday 16:30-18:30: starts in daytime, one hour of two in daytime,
	// none on a workday.
	we := ss[2]
	if we.X[sessionclass.IsDay] != 1 || we.X[sessionclass.Day] != 0.5 || we.X[sessionclass.IsWork] != 0 || we.X[sessionclass.Work] != 0 {
		t.Errorf("weekend session %v", we.X)
	}
	// A 15-minute threshold splits nothing more; 1 minute splits all.
	ss, _, _ = sessionclass.Compute(tr, 0, sessionclass.Options{Threshold: 60})
	if len(ss) != 5 {
		t.Errorf("1-minute threshold: %d sessions", len(ss))
	}
}

func TestComputeSpansDays(t *testing.T) {
	// Friday 17:00 to Monday 08:00 (63 h): daytime 30 min Friday, 10 h on
	// Saturday and on Sunday, 30 min Monday (07:30-08:00); workday 7 h
	// Friday + 8 h Monday.
	h := int64(3600)
	tr := newTrace([]trace.Job{job(1, 4*24*h+17*h, 0, 63*h, 1)})
	ss, _, err := sessionclass.Compute(tr, 0, sessionclass.Options{})
	if err != nil {
		t.Fatal(err)
	}
	x := ss[0].X
	if !(math.Abs(x[sessionclass.Day]-21.0/63) <= 1e-12) || !(math.Abs(x[sessionclass.Work]-15.0/63) <= 1e-12) {
		t.Errorf("%%D %v, %%W %v", x[sessionclass.Day], x[sessionclass.Work])
	}
}

// classTrace builds sessions of five kinds whose k-means classes are
// clear: daytime workday, night workday, weekend, highly parallel and long
// batch sessions.
func classTrace() *trace.Trace {
	h := int64(3600)
	var jobs []trace.Job
	user := int32(0)
	for week := range int64(8) {
		base := week * 7 * 24 * h
		for d := range int64(5) {
			day := base + d*24*h
			for k := range int64(6) {
				user++
				jobs = append(jobs, job(user, day+9*h+k*600, 0, 300, 2), job(user, day+9*h+k*600+400, 0, 300, 2))
				user++
				jobs = append(jobs, job(user, day+21*h+k*300, 0, 4000, 4))
			}
			user++
			jobs = append(jobs, job(user, day+12*h, 0, 7200, 64))
		}
		for k := range int64(10) {
			user++
			jobs = append(jobs, job(user, base+5*24*h+10*h+k*3600, 0, 900, 2))
		}
		user++
		for k := range int64(12) {
			jobs = append(jobs, job(user, base+k*1800, 0, 5*24*h, 8))
		}
	}
	sortJobs(jobs)
	return newTrace(jobs)
}

func sortJobs(j []trace.Job) {
	for i := 1; i < len(j); i++ {
		for k := i; k > 0 && j[k].Submit < j[k-1].Submit; k-- {
			j[k], j[k-1] = j[k-1], j[k]
		}
	}
}

func TestClassify(t *testing.T) {
	tr := classTrace()
	ss, _, err := sessionclass.Compute(tr, 0, sessionclass.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := sessionclass.Classify(ss, sessionclass.ClassifyOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"IWD": 8 * 5 * 6, "IWN": 8 * 5 * 6, "IW": 8 * 10, "BHP": 8 * 5, "BHD": 8}
	for _, c := range cl.Classes {
		if c.Sessions != want[c.Class] {
			t.Errorf("%s: %d sessions, want %d", c.Class, c.Sessions, want[c.Class])
		}
	}
	// Same seed, same classes; the online classes agree with most.
	again, _, _ := sessionclass.Compute(tr, 0, sessionclass.Options{})
	cl2, _ := sessionclass.Classify(again, sessionclass.ClassifyOptions{Seed: 1})
	for i := range ss {
		if ss[i].Class != again[i].Class {
			t.Fatal("classes differ between runs")
		}
	}
	if cl2.WithinSS != cl.WithinSS {
		t.Error("within SS differs between runs")
	}
	on := sessionclass.OnlineOptions{LongRuntime: 24 * 3600, WideProcs: 32}
	for i := range tr.Jobs {
		if tr.Jobs[i].Runtime > 24*3600 {
			tr.Jobs[i].ReqTime = 6 * 24 * 3600
		}
	}
	a := sessionclass.Agree(ss, sessionclass.OnlineClasses(tr, ss, on))
	if a.Fraction < 0.99 {
		t.Errorf("online agreement %.3f: %v", a.Fraction, a.Counts)
	}
	if _, err := sessionclass.Classify(ss[:4], sessionclass.ClassifyOptions{}); err == nil {
		t.Error("4 sessions classified into 5 classes")
	}
}

func TestPCA(t *testing.T) {
	ss, _, err := sessionclass.Compute(classTrace(), 0, sessionclass.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := sessionclass.PCA(ss)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Variables) != 16 || !(math.Abs(p.Cumulative[len(p.Cumulative)-1]-1) <= 1e-9) {
		t.Errorf("%v %v", p.Variables, p.Cumulative)
	}
}

// TestClipScores: values beyond the limit are set to it, the others kept;
// a limit of 0 changes nothing.
func TestClipScores(t *testing.T) {
	z := [][]float64{{-5, -3, 0.5}, {3, 2.9, 7}}
	sessionclass.ClipScores(z, 0)
	if z[0][0] != -5 || z[1][2] != 7 {
		t.Fatalf("limit 0 changed %v", z)
	}
	sessionclass.ClipScores(z, 3)
	want := [][]float64{{-3, -3, 0.5}, {3, 2.9, 3}}
	for i := range z {
		for k := range z[i] {
			if z[i][k] != want[i][k] {
				t.Fatalf("clipped %v, want %v", z, want)
			}
		}
	}
}
