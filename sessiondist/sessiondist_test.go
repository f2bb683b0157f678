package sessiondist_test

import (
	"math"
	"os"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sessiondist"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

func TestMain(m *testing.M) { os.Exit(testdata.Main(m)) }

func newTrace(jobs []trace.Job) *trace.Trace {
	var h swf.Header
	h.Add("MaxProcs", "64")
	for i := range jobs {
		jobs[i].ID = int64(i + 1)
		jobs[i].ReqProcs, jobs[i].AvgCPU, jobs[i].ReqTime, jobs[i].Procs = -1, -1, -1, 1
	}
	return trace.New(h, jobs, trace.Options{})
}

// One user: a long job 0-10000 s and a short one 100-200 s (one batch under
// both definitions), then a job at 10300: Last measures its think time
// from the end of the batch's last job (200 s: 10100 s), Max from the
// latest end (10000 s: 300 s), and both start a new batch.
func lastMaxTrace() *trace.Trace {
	return newTrace([]trace.Job{
		{User: 1, Submit: 0, Runtime: 10000},
		{User: 1, Submit: 100, Runtime: 100},
		{User: 1, Submit: 10300, Runtime: 50},
		{User: 1, Submit: 10400, Runtime: 50},
	})
}

func TestCompareLastMax(t *testing.T) {
	r, err := sessiondist.CompareLastMax(lastMaxTrace(), 0)
	if err != nil {
		t.Fatal(err)
	}
	// Last: batches {0,1}, {2}, {3}; Max: {0,1}, {2}, {3} too (the third
	// job starts after every earlier end). Think times after {0,1}: Last
	// 10100, Max 300; after {2}: 50 by both.
	if r.BatchesLast != 3 || r.BatchesMax != 3 || r.CommonBatches != 3 {
		t.Errorf("batches %d %d common %d", r.BatchesLast, r.BatchesMax, r.CommonBatches)
	}
	if len(r.CommonLast) != 2 || r.CommonLast[0] != 50 || r.CommonLast[1] != 10100 ||
		r.CommonMax[0] != 50 || r.CommonMax[1] != 300 || len(r.UniqueLast)+len(r.UniqueMax) != 0 {
		t.Errorf("%+v", r)
	}
}

func TestLengthsAndInterArrivals(t *testing.T) {
	tr := lastMaxTrace()
	ls, err := sessiondist.Lengths(tr, []session.Options{session.Default(session.Arrival), {Method: session.Last, Threshold: 1200}})
	if err != nil {
		t.Fatal(err)
	}
	// Arrival at 60 min: sessions {0, 100} and {10300, 10400}, of length
	// 100 s each (last minus first submit); Last at 20 min: the think time
	// 10100 s splits them alike, lengths 10000 (the longest end) and 150.
	if ls[0].Count != 2 || ls[0].Max != 100 || ls[1].Count != 2 || ls[1].Max != 10000 {
		t.Errorf("arrival: %d sessions, longest %d; last: %d, %d", ls[0].Count, ls[0].Max, ls[1].Count, ls[1].Max)
	}
	if s := ls[1].Survival; s[0].X != 1 || s[0].P != 1 || s[len(s)-1].P != 0 {
		t.Errorf("survival %v", s)
	}
	ia, err := sessiondist.InterArrivals(tr, 3600)
	if err != nil {
		t.Fatal(err)
	}
	// 100 and 100 s kept, 10200 s ignored.
	if ia.Histogram.N != 2 || ia.Ignored != 1 || ia.Histogram.Bins[1].Count != 2 || ia.CDF[0].P != 1 {
		t.Errorf("kept %d, ignored %d, CDF %v", ia.Histogram.N, ia.Ignored, ia.CDF)
	}
	if _, err := sessiondist.InterArrivals(tr, 30); err == nil {
		t.Error("a 30 s limit accepted")
	}
}

// TestBLUE checks Zakay's findings on SDSC-BLUE (docs/validation.md):
// Last's unique think times are closer to the common ones than Max's, the
// two common samples nearly agree, and Last and Max leave 13.5% and 15% of
// the sessions longer than 1000 minutes (thesis values; ours pinned).
func TestBLUE(t *testing.T) {
	tr, err := trace.Load(testdata.Path(t, "SDSC-BLUE-2000-4.2-cln.swf.gz"), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lm, err := sessiondist.CompareLastMax(tr, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !(lm.KSUniqueLast < lm.KSUniqueMax/2) || lm.KSCommon > 0.01 || lm.CommonBatches != 113303 {
		t.Errorf("KS unique Last %.3f, unique Max %.3f, common %.4f; %d common batches", lm.KSUniqueLast, lm.KSUniqueMax, lm.KSCommon, lm.CommonBatches)
	}
	var specs []session.Options
	for _, s := range []string{"last:20m", "max:20m", "last+cut:20m:2h"} {
		o, _ := session.ParseSpec(s)
		specs = append(specs, o)
	}
	ls, err := sessiondist.Lengths(tr, specs)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct{ pinned, thesis, tol float64 }{{0.157229, 0.135, 0.03}, {0.142280, 0.15, 0.03}, {0.001151, 0.001, 0.0005}} {
		got := ls[i].Over1000Min
		if !(math.Abs(got-c.pinned) <= 1e-6) || !(math.Abs(got-c.thesis) <= c.tol) {
			t.Errorf("%s: %.6f longer than 1000 min (pinned %.6f, thesis %.3f)", ls[i].Sessions, got, c.pinned, c.thesis)
		}
	}
}

func BenchmarkBLUE(b *testing.B) {
	tr, err := trace.Load(testdata.Path(b, "SDSC-BLUE-2000-4.2-cln.swf.gz"), trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var specs []session.Options
	for _, s := range []string{"arrival:60m", "last:20m", "max:20m", "last+cut:20m:30m", "last+cut:20m:1h", "last+cut:20m:2h", "max+cut:20m:1h"} {
		o, _ := session.ParseSpec(s)
		specs = append(specs, o)
	}
	for b.Loop() {
		if _, err := sessiondist.InterArrivals(tr, 0); err != nil {
			b.Fatal(err)
		}
		if _, err := sessiondist.Lengths(tr, specs); err != nil {
			b.Fatal(err)
		}
		if _, err := sessiondist.CompareLastMax(tr, 0); err != nil {
			b.Fatal(err)
		}
	}
}
