package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifySimulatedSchedule writes schedules with simulate --jobs and
// verifies them: each keeps its own policy's invariants, EASY's schedule
// breaks FCFS order, and a tampered line is caught with exit status 1.
func TestVerifySimulatedSchedule(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		sched, policy string
		code          int
		want          string
	}{
		{"fcfs", "fcfs", 0, "processors allocated (allocated_resources)"},
		{"easy", "easy", 0, "OK: no violation"},
		{"easy", "fcfs", 1, "fcfs-order: job"},
		{"conservative", "conservative", 0, "conservative invariants"},
	} {
		jobs := filepath.Join(dir, c.sched+".csv")
		if code, _, errOut := runCLI(t, "simulate", "builtin:KTH-SP2", "--scheduler", c.sched, "--kill", "--jobs", jobs); code != 0 {
			t.Fatalf("simulate: exit %d: %s", code, errOut)
		}
		code, out, errOut := runCLI(t, "verify", jobs, "--log", "builtin:KTH-SP2", "--kill", "--policy", c.policy)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("%s under %s: exit %d, output %q %q; want exit %d and %q", c.sched, c.policy, code, out, errOut, c.code, c.want)
		}
	}
	// The Parquet form of --jobs.
	pq := filepath.Join(dir, "easy.parquet")
	if code, _, errOut := runCLI(t, "simulate", "builtin:KTH-SP2", "--scheduler", "easy", "--kill", "--jobs", pq); code != 0 {
		t.Fatalf("simulate: exit %d: %s", code, errOut)
	}
	if code, out, errOut := runCLI(t, "verify", pq, "--log", "builtin:KTH-SP2", "--kill", "--policy", "easy"); code != 0 || !strings.Contains(out, "OK: no violation") {
		t.Errorf("parquet: exit %d, output %q %q", code, out, errOut)
	}
	if code, out, _ := runCLI(t, "verify", pq, "--log", "builtin:KTH-SP2", "--policy", "easy"); code != 1 || !strings.Contains(out, "duration: job") {
		t.Errorf("parquet without --kill: exit %d, output %q", code, out)
	}
	// Without --kill the durations of killed jobs are wrong.
	if code, out, _ := runCLI(t, "verify", filepath.Join(dir, "easy.csv"), "--log", "builtin:KTH-SP2"); code != 1 || !strings.Contains(out, "duration: job") {
		t.Errorf("without --kill: exit %d, output %q", code, out)
	}
	// Drop the second job's line.
	b, err := os.ReadFile(filepath.Join(dir, "fcfs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	broken := filepath.Join(dir, "broken.csv")
	if err := os.WriteFile(broken, []byte(lines[0]+strings.Join(lines[2:], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runCLI(t, "verify", broken, "--log", "builtin:KTH-SP2", "--kill"); code != 1 || !strings.Contains(out, "missing: job") {
		t.Errorf("missing job: exit %d, output %q", code, out)
	}
}

// TestVerifyUsage: unknown policies and a missing --log are usage errors
// naming the valid values.
func TestVerifyUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"verify", "x.csv", "--log", "builtin:KTH-SP2", "--policy", "lifo"}, "valid: none, fcfs, easy, conservative"},
		{[]string{"verify", "x.csv"}, "--log LOG is required"},
		{[]string{"verify", "x.csv", "--log", "builtin:KTH-SP2", "--estimate-factor", "0.5"}, "must be a number >= 1"},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}
