package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestUPSParams checks that UPS's alpha_user and first-pass extent are
// parameters of simulate and evaluate: recorded in the report, changing
// the schedule, and refused out of range.
func TestUPSParams(t *testing.T) {
	mean := func(args ...string) float64 {
		t.Helper()
		code, out, errOut := runCLI(t, append([]string{"simulate", "builtin:KTH-SP2", "--json", "--scheduler", "ups"}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var r struct {
			Parameters struct {
				SchedulerParams map[string]string `json:"scheduler_params"`
			}
			Metrics struct{ Wait struct{ Mean float64 } }
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"alpha_user": "0.5", "scan": "first"}
		for i := 0; i+1 < len(args); i += 2 {
			k, v, _ := strings.Cut(args[i+1], "=")
			want[k] = v
		}
		for k, v := range want {
			if r.Parameters.SchedulerParams[k] != v {
				t.Errorf("%v: scheduler_params %v, want %s=%s", args, r.Parameters.SchedulerParams, k, v)
			}
		}
		return r.Metrics.Wait.Mean
	}
	base := mean()
	if a := mean("--param", "alpha_user=1"); a == base {
		t.Errorf("alpha_user=1 gives the default's mean wait %v", a)
	}
	if f := mean("--param", "scan=full"); f == base {
		t.Errorf("scan=full gives the default's mean wait %v", f)
	}
	for _, bad := range [][]string{{"simulate", "builtin:KTH-SP2", "--scheduler", "ups", "--param", "alpha_user=1.5"},
		{"evaluate", "builtin:KTH-SP2", "--scheduler", "ups-recency", "--param", "scan=half"}} {
		code, _, errOut := runCLI(t, bad...)
		if code != exitUsage || strings.Contains(errOut, "replay") {
			t.Errorf("%v: exit %d, stderr %q", bad, code, errOut)
		}
	}
}

// TestReplicatePaired checks replicate with several schedulers: each
// scheduler's report equals its run alone (the same variants), and the
// paired difference of the mean wait is the difference of the two means,
// with an interval around it; --csv takes one scheduler.
func TestReplicatePaired(t *testing.T) {
	type summary struct {
		Scheduler string
		Summary   []struct {
			Metric string
			Mean   float64
		}
	}
	waitMean := func(s summary) float64 {
		for _, d := range s.Summary {
			if d.Metric == "wait" {
				return d.Mean
			}
		}
		t.Fatalf("no wait in %+v", s)
		return 0
	}
	code, out, errOut := runCLI(t, "replicate", "builtin:KTH-SP2", "--variants", "4", "--scheduler", "fcfs,easy", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var both struct {
		Schedulers []summary
		Paired     []struct {
			A, B    string
			Metrics []struct {
				Metric string
				N      int
				MeanA  float64 `json:"mean_a"`
				MeanB  float64 `json:"mean_b"`
				Diff   float64
				CILow  float64 `json:"ci_low"`
				CIHigh float64 `json:"ci_high"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &both); err != nil {
		t.Fatal(err)
	}
	if len(both.Schedulers) != 2 || len(both.Paired) != 1 || both.Paired[0].A != "fcfs" || both.Paired[0].B != "easy" {
		t.Fatalf("report %+v", both)
	}
	for _, s := range []string{"fcfs", "easy"} {
		code, out, errOut := runCLI(t, "replicate", "builtin:KTH-SP2", "--variants", "4", "--scheduler", s, "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var alone summary
		if err := json.Unmarshal([]byte(out), &alone); err != nil {
			t.Fatal(err)
		}
		i := map[string]int{"fcfs": 0, "easy": 1}[s]
		if waitMean(alone) != waitMean(both.Schedulers[i]) {
			t.Errorf("%s: mean wait %v alone, %v beside another scheduler", s, waitMean(alone), waitMean(both.Schedulers[i]))
		}
	}
	for _, m := range both.Paired[0].Metrics {
		if m.Metric != "wait" {
			continue
		}
		if m.N != 4 || !(math.Abs(m.Diff-(m.MeanB-m.MeanA)) <= 1e-6*math.Abs(m.Diff)) || !(m.CILow < m.Diff && m.Diff < m.CIHigh) || m.CIHigh >= 0 {
			t.Errorf("paired wait %+v: want easy's wait below fcfs's on every variant, the interval around the difference", m)
		}
	}
	if code, _, errOut := runCLI(t, "replicate", "builtin:KTH-SP2", "--variants", "2", "--scheduler", "fcfs,easy", "--csv", filepath.Join(t.TempDir(), "x.csv")); code != exitUsage {
		t.Errorf("--csv with two schedulers: exit %d, %s", code, errOut)
	}
}

// TestInfoSideBySide checks info with several logs: one column per log,
// the same figures as info of each log alone, n/a where a log lacks a
// field; --json gives the list of the single reports.
func TestInfoSideBySide(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.swf")
	if code, _, errOut := runCLI(t, "clean", "builtin:KTH-SP2", "--end", "1996-11-01", "-o", small); code != 0 {
		t.Fatalf("clean: exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "info", "builtin:KTH-SP2", small)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(out, "\n")
	if !strings.Contains(lines[0], "builtin:KTH-SP2") || !strings.Contains(lines[0], "small.swf") || !strings.HasPrefix(lines[1], "jobs") {
		t.Fatalf("header rows:\n%s", out)
	}
	if f := strings.Fields(lines[1]); len(f) != 3 || f[1] != "28476" {
		t.Errorf("jobs row %q, want 28476 and the small log's count", lines[1])
	}
	code, out, _ = runCLI(t, "info", "--json", "builtin:KTH-SP2", small)
	var reps []struct {
		Name string
		Jobs int
	}
	if code != 0 || json.Unmarshal([]byte(out), &reps) != nil || len(reps) != 2 || reps[0].Jobs != 28476 || reps[1].Jobs >= 28476 {
		t.Errorf("--json: exit %d, %+v", code, reps)
	}
}
