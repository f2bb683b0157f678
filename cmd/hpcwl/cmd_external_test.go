package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSimulateExternalEASY runs the Python EASY of examples/schedulers on
// the built-in KTH-SP2 log with jobs killed at their requested time, and
// compares its per-job results with the built-in EASY's: identical. The
// outputs record the external scheduler's command.
func TestSimulateExternalEASY(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("HPCWL_REQUIRE_PYTHON") == "1" {
			t.Fatalf("python3 not found and HPCWL_REQUIRE_PYTHON=1: %v", err)
		}
		t.Skip("python3 not found: the example policy was not run")
	}
	dir := t.TempDir()
	policy := "exec:" + filepath.Join("..", "..", "examples", "schedulers", "easy.py")
	ext, easy := filepath.Join(dir, "ext.csv"), filepath.Join(dir, "easy.csv")
	code, out, errOut := runCLI(t, "simulate", "builtin:KTH-SP2", "--kill", "--scheduler", policy, "--jobs", ext, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `"scheduler": "`+policy+`"`) {
		t.Errorf("the report does not name the scheduler %q:\n%.400s", policy, out)
	}
	if code, _, errOut := runCLI(t, "simulate", "builtin:KTH-SP2", "--kill", "--scheduler", "easy", "--jobs", easy); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	a, _ := os.ReadFile(ext)
	b, _ := os.ReadFile(easy)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("per-job results differ between exec:easy.py (%d bytes) and the built-in EASY (%d bytes)", len(a), len(b))
	}
}

// TestSimulateExternalFails checks that a policy that answers wrongly stops
// the run with exit status 1 and an error naming the pass, and that no
// output file is left; a command-less exec: is a usage error.
func TestSimulateExternalFails(t *testing.T) {
	dir := t.TempDir()
	jobs := filepath.Join(dir, "jobs.csv")
	policy := "exec:" + filepath.Join("..", "..", "sched", "external", "testdata", "not-waiting.sh")
	code, _, errOut := runCLI(t, "simulate", "builtin:KTH-SP2", "--scheduler", policy, "--jobs", jobs)
	if code != exitError {
		t.Errorf("exit %d, want %d", code, exitError)
	}
	if !strings.Contains(errOut, "job 999, which is not waiting") || !strings.Contains(errOut, "answer line 2 to the pass at t=") {
		t.Errorf("stderr %q does not say what went wrong", errOut)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("files left behind: %v", ents)
	}
	code, _, errOut = runCLI(t, "simulate", "builtin:KTH-SP2", "--scheduler", "exec:")
	if code != exitUsage || !strings.Contains(errOut, "names no command") {
		t.Errorf("exec: without a command: exit %d, stderr %q", code, errOut)
	}
}
