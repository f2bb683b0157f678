package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConvertBatsimJobs reads the jobs.csv of a run back as SWF: the waits
// of the log written are those of the schedule, and info reads it.
func TestConvertBatsimJobs(t *testing.T) {
	dir := t.TempDir()
	jobs, sched := filepath.Join(dir, "out_jobs.csv"), filepath.Join(dir, "sched.swf")
	direct := filepath.Join(dir, "direct.swf")
	if code, _, e := runCLI(t, "simulate", "builtin:KTH-SP2", "--scheduler", "fcfs", "--jobs", jobs, "--swf", direct); code != 0 {
		t.Fatalf("simulate: exit %d: %s", code, e)
	}
	if code, _, e := runCLI(t, "convert", jobs, "--from", "batsim-jobs", "-o", sched); code != 0 {
		t.Fatalf("convert: exit %d: %s", code, e)
	}
	got, err := loadAnyTraceQuiet(sched)
	if err != nil {
		t.Fatal(err)
	}
	want, err := loadAnyTraceQuiet(direct)
	if err != nil {
		t.Fatal(err)
	}
	if got.Len() != want.Len() || got.Procs != 100 {
		t.Fatalf("%d jobs on %d processors, want %d on 100", got.Len(), got.Procs, want.Len())
	}
	waits := map[int64]int64{}
	for _, j := range want.Jobs {
		waits[j.ID] = j.Wait
	}
	diff := 0
	for _, j := range got.Jobs {
		if waits[j.ID] != j.Wait {
			diff++
		}
	}
	if diff > 0 {
		t.Errorf("%d of %d jobs have another wait than simulate --swf gives", diff, got.Len())
	}
	if code, _, e := runCLI(t, "info", sched); code != 0 {
		t.Errorf("info: exit %d: %s", code, e)
	}
	if code, _, e := runCLI(t, "convert", jobs, "--from", "nope", "-o", filepath.Join(dir, "sched2.swf")); code != 2 || !strings.Contains(e, "batsim-jobs") {
		t.Errorf("unknown --from: exit %d: %s", code, e)
	}
}

// TestConvertBatsimVersion checks --batsim-version on the command line.
func TestConvertBatsimVersion(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ version, typ string }{{"4", `"type": "delay"`}, {"5", `"type": "DelayProfile"`}} {
		out := filepath.Join(dir, "w"+c.version+".json")
		if code, _, e := runCLI(t, "convert", "builtin:KTH-SP2", "--batsim-version", c.version, "-o", out); code != 0 {
			t.Fatalf("exit %d: %s", code, e)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), c.typ) || strings.Contains(string(b), `"delay": 0}`) {
			t.Errorf("--batsim-version %s: want profiles %s, none of delay 0", c.version, c.typ)
		}
	}
	code, _, e := runCLI(t, "convert", "builtin:KTH-SP2", "--batsim-version", "3", "-o", filepath.Join(dir, "w3.json"))
	if code != 2 || !strings.Contains(e, "valid: 4, 5") {
		t.Errorf("--batsim-version 3: exit %d: %s", code, e)
	}
}

// TestStdinFrom reads CSV and Batsim workloads from standard input with
// --from.
func TestStdinFrom(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ file, from string }{{"k.csv", "csv"}, {"k.json", "batsim"}} {
		p := filepath.Join(dir, c.file)
		if code, _, e := runCLI(t, "convert", "builtin:KTH-SP2", "-o", p); code != 0 {
			t.Fatalf("exit %d: %s", code, e)
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		old := os.Stdin
		os.Stdin = f
		code, out, e := runCLI(t, "info", "--from", c.from, "-")
		os.Stdin = old
		f.Close()
		if code != 0 || !strings.Contains(out, "28476") {
			t.Errorf("--from %s on stdin: exit %d: %s%s", c.from, code, e, out)
		}
	}
}
