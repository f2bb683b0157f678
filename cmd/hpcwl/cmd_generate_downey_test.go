package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateDowney checks that the command is deterministic per seed,
// records the model and seed in the header, writes a log other commands
// read with the asked machine size, and warns when the default rate
// saturates the machine.
func TestGenerateDowney(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.swf"), filepath.Join(dir, "b.swf"), filepath.Join(dir, "c.swf")
	for _, out := range []string{a, b} {
		if code, _, errOut := runCLI(t, "generate", "downey", "--procs", "128", "--count", "2000", "--offered-load", "0.7", "--seed", "7", "-o", out); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
	}
	ba, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if len(ba) == 0 || !bytes.Equal(withoutCommandLine(ba), withoutCommandLine(bb)) {
		t.Fatalf("same seed gave different outputs (%d and %d bytes)", len(ba), len(bb))
	}
	for _, want := range []string{"; MaxProcs: 128", "Seed: 7", "generate downey --seed 7", "b0 = -0.18, b1 = 0.1", "calibrated to offered load 0.7"} {
		if !strings.Contains(string(ba), want) {
			t.Errorf("header lacks %q", want)
		}
	}
	code, out, _ := runCLI(t, "info", "--json", a)
	var s struct{ Jobs, Procs int }
	if code != 0 || json.Unmarshal([]byte(out), &s) != nil || s.Jobs != 2000 || s.Procs != 128 {
		t.Errorf("info on the generated log: exit %d, %+v", code, s)
	}
	code, _, errOut := runCLI(t, "generate", "downey", "--count", "100", "--seed", "8", "-o", c)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "saturates the machine") {
		t.Errorf("no saturation warning at the paper's rate on 400 processors: %s", errOut)
	}
	if bc, _ := os.ReadFile(c); bytes.Equal(ba, bc) {
		t.Error("different options gave the same output")
	}
}

// TestGenerateDowneyBadInput checks usage errors: exit 2, a message naming
// the flag, and no output file.
func TestGenerateDowneyBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.swf")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--offered-load", "-0.5"}, "--offered-load"},
		{[]string{"--procs", "0"}, "--procs"},
		{[]string{"--count", "-3"}, "--count"},
		{[]string{"--duration", "soon"}, "--duration"},
		{[]string{"extra"}, "no arguments"},
	} {
		args := append([]string{"generate", "downey", "-o", out}, tc.args...)
		code, _, errOut := runCLI(t, args...)
		if code != 2 || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 mentioning %q", tc.args, code, errOut, tc.msg)
		}
	}
	if code, _, errOut := runCLI(t, "generate", "downey", "-o", filepath.Join(dir, "x.txt")); code != 2 || !strings.Contains(errOut, "--to") {
		t.Errorf("unknown extension: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed run left an output file")
	}
}
