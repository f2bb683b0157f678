package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenerateLublinDeterministic(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.swf"), filepath.Join(dir, "b.swf")
	for _, out := range []string{a, b} {
		if code, _, errOut := runCLI(t, "generate", "lublin", "--procs", "256", "--jobs", "3000", "--seed", "7", "-o", out); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
	}
	ba, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if len(ba) == 0 || !bytes.Equal(withoutCommandLine(ba), withoutCommandLine(bb)) {
		t.Fatalf("same seed gave different outputs (%d and %d bytes)", len(ba), len(bb))
	}
	for _, want := range []string{"; MaxProcs: 256", "Seed: 7", "generate lublin --seed 7"} {
		if !strings.Contains(string(ba), want) {
			t.Errorf("header lacks %q", want)
		}
	}
	code, out, _ := runCLI(t, "info", "--json", a)
	var s struct{ Jobs, Procs int }
	if code != 0 || json.Unmarshal([]byte(out), &s) != nil || s.Jobs != 3000 || s.Procs != 256 {
		t.Errorf("info on the generated log: exit %d, %+v", code, s)
	}
	c := filepath.Join(dir, "c.swf")
	runCLI(t, "generate", "lublin", "--procs", "256", "--jobs", "3000", "--seed", "8", "-o", c)
	if bc, _ := os.ReadFile(c); bytes.Equal(ba, bc) {
		t.Error("different seeds gave the same output")
	}
}

func TestFitLublinRoundTrip(t *testing.T) {
	dir := t.TempDir()
	logFile, params := filepath.Join(dir, "g.swf"), filepath.Join(dir, "p.json")
	if code, _, e := runCLI(t, "generate", "lublin", "--jobs", "5000", "--seed", "3", "-o", logFile); code != 0 {
		t.Fatal(e)
	}
	code, out, errOut := runCLI(t, "fit", "lublin", "--status", "all", "--json", "-o", params, logFile)
	if code != 0 {
		t.Fatalf("fit lublin: exit %d: %s", code, errOut)
	}
	var rep fitLublinReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	// The published whole-sample serial fraction is 0.244 (spec section 4.4);
	// 5000 draws put the estimate within a few points of it.
	if p := rep.Params.Whole.SerialProb; p < 0.20 || p > 0.29 {
		t.Errorf("fitted serial fraction %.3f, want near 0.244", p)
	}
	if code, _, e := runCLI(t, "generate", "lublin", "--params", params, "--jobs", "100", "-o", filepath.Join(dir, "again.swf")); code != 0 {
		t.Errorf("generating from fitted parameters: %s", e)
	}
}

func TestGenerateBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"mode":"whole","whole":{"serial_prob":1.7}}`), 0o644)
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"generate"}, 2, "available: lublin"},
		{[]string{"generate", "feitelson96"}, 2, "unknown model"},
		{[]string{"generate", "lublin", "--mode", "odd"}, 2, "--mode"},
		{[]string{"generate", "lublin", "--duration", "soon"}, 2, "unit"},
		{[]string{"generate", "lublin", "--params", bad, "-o", filepath.Join(dir, "x.swf")}, 1, "serial_prob"},
		{[]string{"generate", "lublin", "-o", filepath.Join(dir, "x.txt")}, 2, "--to"},
		{[]string{"fit", "--families", "cauchy", "builtin:KTH-SP2"}, 2, "valid:"},
		{[]string{"fit", "lublin", "--exclude-slots", "60", "builtin:KTH-SP2"}, 2, "0-47"},
	}
	for _, tc := range tests {
		code, _, errOut := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.swf")); err == nil {
		t.Error("a failed run left an output file")
	}
}

func TestFitRanksGenerated(t *testing.T) {
	dir := t.TempDir()
	logFile := filepath.Join(dir, "g.swf")
	runCLI(t, "generate", "lublin", "--jobs", "2000", "--seed", "5", "-o", logFile)
	code, out, errOut := runCLI(t, "fit", "--json", "--families", "lognormal,gamma,exponential", logFile)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep fitReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Variables) != 4 || rep.Variables[0].Variable != "runtime" || len(rep.Variables[0].Candidates) != 3 {
		t.Fatalf("report = %+v", rep.Variables)
	}
	c := rep.Variables[0].Candidates
	if c[0].KS.D > c[1].KS.D || c[1].KS.D > c[2].KS.D {
		t.Errorf("runtime candidates not ranked by KS distance: %v %v %v", c[0].KS.D, c[1].KS.D, c[2].KS.D)
	}
	// Requested times are unknown in the model's output: nothing to fit.
	if rep.Variables[3].N != 0 {
		t.Errorf("requested_time n = %d, want 0", rep.Variables[3].N)
	}
}

// TestReplicateReproducible checks that a replicate report depends only on
// the inputs and the seed, not on the run time or the number of workers.
func TestReplicateReproducible(t *testing.T) {
	var outs []string
	for _, workers := range []string{"1", "2", "1"} {
		code, out, errOut := runCLI(t, "replicate", "builtin:KTH-SP2", "--variants", "3", "--duration", "8w",
			"--seed", "11", "--workers", workers, "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		outs = append(outs, strings.Replace(out, `"workers": `+workers, `"workers": W`, 1))
	}
	if outs[0] != outs[1] || outs[0] != outs[2] {
		t.Error("the same seed gave different replicate reports")
	}
}

// TestGenerateDeprecatedNames checks that --jobs and --load still work as
// deprecated spellings of --count and --offered-load, with a warning on
// standard error only, and give the same log.
func TestGenerateDeprecatedNames(t *testing.T) {
	code, oldOut, oldErr := runCLI(t, "generate", "lublin", "--jobs", "50", "--load", "0.5", "--seed", "2", "-o", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, oldErr)
	}
	for _, w := range []string{"--jobs is deprecated: use --count", "--load is deprecated: use --offered-load"} {
		if !strings.Contains(oldErr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, oldErr)
		}
	}
	code, newOut, newErr := runCLI(t, "generate", "lublin", "--count", "50", "--offered-load", "0.5", "--seed", "2", "-o", "-")
	if code != 0 || strings.Contains(newErr, "deprecated") {
		t.Fatalf("exit %d: %s", code, newErr)
	}
	if strings.Contains(oldOut, "deprecated") || !bytes.Equal(withoutCommandLine([]byte(oldOut)), withoutCommandLine([]byte(newOut))) {
		t.Error("the deprecated spellings give another log, or a warning on standard output")
	}
}
