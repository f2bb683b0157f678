package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBursts(t *testing.T) {
	code, out, errOut := runCLI(t, "bursts", "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// KTH-SP2 records neither queue nor executable.
	for _, want := range []string{"20529 successful jobs", "unknown: queue, executable", "jobs in BoTs", "spatial entropy", "T = 15min"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "queue, executable unknown in every job; BoTs compare user, group, requested_time, requested_procs") {
		t.Errorf("no warning about unknown attributes: %q", errOut)
	}
}

func TestBurstsJSONAndCurve(t *testing.T) {
	dir := t.TempDir()
	curve := filepath.Join(dir, "ne.csv")
	figs := filepath.Join(dir, "figs")
	code, out, errOut := runCLI(t, "bursts", "--json", "--per-user", "--curve", curve, "--figures", figs, "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Jobs       int      `json:"jobs"`
		Contiguity string   `json:"contiguity"`
		Unknown    []string `json:"unknown_attributes"`
		Fraction   float64  `json:"fraction_in_bots"`
		JobsInBoTs int      `json:"jobs_in_bots"`
		Temporal   []struct {
			Scale float64 `json:"scale_s"`
		} `json:"temporal"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Jobs != 20529 || r.Contiguity != "per-user" || len(r.Unknown) != 2 || r.Fraction != float64(r.JobsInBoTs)/float64(r.Jobs) {
		t.Errorf("%+v", r)
	}
	b, err := os.ReadFile(curve)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if lines[0] != "scale_s,real,poisson" || len(lines) != len(r.Temporal)+1 || !strings.HasPrefix(lines[1], "60,") {
		t.Errorf("curve:\n%s", b)
	}
	for _, f := range []struct{ name, first, last string }{
		{"bia_cdf.csv", "bia_s,cdf", ",1"},
		{"bot_durations_cdf.csv", "duration_s,cdf", ",1"},
		{"bot_runtimes_ccdf.csv", "mean_runtime_s,ccdf", ""},
		{"bot_sizes.csv", "size,bags,ccdf", ""},
	} {
		b, err := os.ReadFile(filepath.Join(figs, f.name))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if lines[0] != f.first || !strings.HasSuffix(lines[len(lines)-1], f.last) || len(lines) < 3 {
			t.Errorf("%s:\n%s", f.name, b)
		}
	}
	// All bags: the CCDF of sizes starts at 1.
	b, _ = os.ReadFile(filepath.Join(figs, "bot_sizes.csv"))
	if !strings.HasPrefix(strings.Split(string(b), "\n")[1], "1,") || !strings.HasSuffix(strings.Split(string(b), "\n")[1], ",1") {
		t.Errorf("bot_sizes.csv:\n%s", b)
	}
}

func TestBurstsBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"bursts", "--delta", "-1", "builtin:KTH-SP2"},
		{"bursts", "--bin", "0", "builtin:KTH-SP2"},
		{"bursts", "--max-procs", "0", "builtin:KTH-SP2"},
		{"bursts", "--max-procs", "1000000000", "builtin:KTH-SP2"},
		{"bursts", "--bin", "0.001", "builtin:KTH-SP2"},
		{"bursts"},
	} {
		if code, _, _ := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestInfoShowsBursts(t *testing.T) {
	code, out, _ := runCLI(t, "info", "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	_, full, _ := runCLI(t, "bursts", "builtin:KTH-SP2")
	// The same fraction and entropy as hpcwl bursts.
	for _, want := range []string{"23.6% of 20529 successful jobs", "spatial entropy  0.4774 (N = 100)"} {
		if !strings.Contains(out, want) {
			t.Errorf("info lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(full, "23.6% (4846 jobs") || !strings.Contains(full, "spatial entropy      0.4774") {
		t.Errorf("bursts disagrees:\n%s", full)
	}
}
