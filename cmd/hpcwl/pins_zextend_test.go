package main

import (
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/metrics"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// near reports whether got is within a relative 1e-9 of want; an infinite want needs
// the same infinity (the relative bound would be infinite there).
func near(got, want float64) bool {
	return got == want || !math.IsInf(want, 0) && math.Abs(got-want) <= 1e-9*math.Abs(want)
}

// TestZakayExtensionPins pins the deterministic numbers of the section
// "Zakay's proposed applications" of docs/validation.md (N. Zakay,
// Improved Realism and Representativeness of Workloads to Improve
// Reliability of Performance Evaluations, PhD thesis, Hebrew University,
// chapter 3, section 6): the stationary segments of SDSC-SP2, the mix of
// KTH-SP2 and SDSC-SP2 of seed 1, the first three shaken copies of
// SDSC-SP2 (every session moved by up to 60 s; run i of the table's 100 is
// stream i, so these are its first three) and the selective workload of
// seed 1. Relative tolerance 1e-9.
func TestZakayExtensionPins(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates SDSC-SP2 four times")
	}
	sdsc := testdata.Path(t, "SDSC-SP2-1998-4.2-cln.swf.gz")
	t.Run("segments", func(t *testing.T) {
		code, out, errOut := runCLI(t, "resample", sdsc, "--stationary", "--list-segments", "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var r segmentsReport
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		want := []struct {
			first int
			mean  float64
		}{{0, 0.6307355691299957}, {14, 0.7679653995251531}, {38, 0.8770835654682884}}
		if len(r.Segments) != len(want) || r.Chosen != 3 {
			t.Fatalf("segments %+v", r)
		}
		for i, w := range want {
			if s := r.Segments[i]; s.FirstWeek != w.first || !near(s.MeanLoad, w.mean) {
				t.Errorf("segment %d: week %d, load %.16g; pinned %d, %.16g", i+1, s.FirstWeek, s.MeanLoad, w.first, w.mean)
			}
		}
	})
	t.Run("mix", func(t *testing.T) {
		f := filepath.Join(t.TempDir(), "mix.swf")
		code, out, errOut := runCLI(t, "resample", "builtin:KTH-SP2", sdsc, "--machine", "max", "--seed", "1", "--json", "-o", f)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var r mixReport
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if r.Inputs[0].Jobs != 11524 || r.Inputs[1].Jobs != 10893 || r.Copies != 295 || r.BeforeStart != 348 {
			t.Errorf("jobs %d + %d, %d copies, %d before the start; pinned 11524 + 10893, 295, 348", r.Inputs[0].Jobs, r.Inputs[1].Jobs, r.Copies, r.BeforeStart)
		}
		code, out, errOut = runCLI(t, "simulate", f, "--json")
		if code != 0 {
			t.Fatalf("simulate: exit %d: %s", code, errOut)
		}
		var s struct {
			Metrics struct {
				BoundedSlowdown struct{ Mean float64 } `json:"bounded_slowdown"`
				Utilization     float64                `json:"utilization"`
			} `json:"metrics"`
		}
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatal(err)
		}
		if !near(s.Metrics.BoundedSlowdown.Mean, 148.33140960779576) || !near(s.Metrics.Utilization, 0.5641741463612108) {
			t.Errorf("bounded slowdown %.17g, utilization %.17g", s.Metrics.BoundedSlowdown.Mean, s.Metrics.Utilization)
		}
	})
	t.Run("shake", func(t *testing.T) {
		code, out, errOut := runCLI(t, "shake", sdsc, "--by", "session", "--shift", "60s", "--runs", "3", "--seed", "1", "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var r shakeReport
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		want := []float64{96.43131278675502, 96.88257258755397, 94.26713292016369}
		if !near(r.Original.BoundedSlowdown, 93.84754404982235) || len(r.Variants) != 3 {
			t.Fatalf("original %.17g, %d runs", r.Original.BoundedSlowdown, len(r.Variants))
		}
		for i, w := range want {
			if got := r.Variants[i].BoundedSlowdown; !near(got, w) {
				t.Errorf("run %d: bounded slowdown %.17g, pinned %.17g", i, got, w)
			}
		}
	})
	t.Run("prefer", func(t *testing.T) {
		code, out, errOut := runCLI(t, "resample", "builtin:KTH-SP2", "--prefer", "runtime:high", "--bias", "4", "--seed", "1", "--json", "-o", filepath.Join(t.TempDir(), "p.swf"))
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var r resampleReport
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if r.Jobs != 29920 || r.Params.PreferredLongTerm != 51 || r.Params.PreferredTemporary != 42 {
			t.Errorf("%d jobs, %d and %d preferred; pinned 29920, 51, 42", r.Jobs, r.Params.PreferredLongTerm, r.Params.PreferredTemporary)
		}
	})
}

// TestOneRuntimeChangeSDSC pins the check of Zakay's motivating example
// for shaking (thesis, chapter 3, section 6: one job's runtime moved from
// 18 h 0 min 30 s to 18 h changed the average bounded slowdown by about
// 8%): on SDSC-SP2 under EASY with requested times, job 64241 (one of the
// 35 jobs of that runtime, and one of the two that move the mean the
// most) moves it by 0.004%.
func TestOneRuntimeChangeSDSC(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates SDSC-SP2 twice")
	}
	tr, err := trace.Load(testdata.Path(t, "SDSC-SP2-1998-4.2-cln.swf.gz"), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bsld := func(tr *trace.Trace) float64 {
		res, _, err := sim.Simulate(context.Background(), tr, sched.NewEASY(1), sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := metrics.Compute(res, metrics.Options{NoGroups: true})
		if err != nil {
			t.Fatal(err)
		}
		return s.BoundedSlowdown.Mean
	}
	before := bsld(tr)
	found := false
	for i := range tr.Jobs {
		if tr.Jobs[i].ID == 64241 {
			if tr.Jobs[i].Runtime != 64830 {
				t.Fatalf("job 64241 ran %d s, not 18 h 0 min 30 s", tr.Jobs[i].Runtime)
			}
			tr.Jobs[i].Runtime = 64800
			found = true
		}
	}
	if !found {
		t.Fatal("no job 64241")
	}
	after := bsld(tr)
	if !near(before, 93.84754404982235) || !near(after, 93.843625644113729) {
		t.Errorf("bounded slowdown %.17g -> %.17g", before, after)
	}
}
