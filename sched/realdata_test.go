package sched_test

import (
	"context"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/metrics"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// TestRealLogs replays KTH-SP2 and SDSC-SP2 rigidly under FCFS and EASY and
// pins our figures (docs/validation.md compares them with Madon et al.
// Table 1, rigid rows). Our values, in days: they move only if the engine
// or the schedulers change.
func TestRealLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("real logs skipped in -short mode")
	}
	want := []struct {
		file, sched            string
		makespan, mean, maxval float64
	}{
		{"KTH-SP2-1996-2.1-cln.swf.gz", "fcfs", 333.12, 4.515, 11.79},
		{"KTH-SP2-1996-2.1-cln.swf.gz", "easy", 332.91, 0.079, 3.03},
		{"SDSC-SP2-1998-4.2-cln.swf.gz", "fcfs", 792.14, 17.964, 63.76},
		{"SDSC-SP2-1998-4.2-cln.swf.gz", "easy", 729.46, 0.249, 5.32},
	}
	loaded := map[string]*trace.Trace{}
	for _, w := range want {
		tr := loaded[w.file]
		if tr == nil {
			var err error
			tr, err = trace.Load(testdata.Path(t, w.file), trace.Options{})
			if err != nil {
				t.Fatal(err)
			}
			loaded[w.file] = tr
		}
		s, _ := sched.New(w.sched)
		res, _, err := sim.Simulate(context.Background(), tr, s, sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := metrics.Compute(res, metrics.Options{NoGroups: true})
		if err != nil {
			t.Fatal(err)
		}
		day := 86400.0
		got := [3]float64{float64(m.Makespan) / day, m.Wait.Mean / day, m.Wait.Max / day}
		exp := [3]float64{w.makespan, w.mean, w.maxval}
		tol := [3]float64{0.005, 0.0005, 0.005}
		for k := range got {
			if d := got[k] - exp[k]; d > tol[k] || d < -tol[k] {
				t.Errorf("%s %s: makespan/mean/max wait %.3f %.4f %.3f days, want %v", w.file, w.sched, got[0], got[1], got[2], exp)
				break
			}
		}
	}
}
