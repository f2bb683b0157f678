package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/gen/lublin"
)

// TestFitLublinTyped generates a typed log (queue 0 interactive, 1 batch),
// fits it with --typed and generates again from the typed parameters.
func TestFitLublinTyped(t *testing.T) {
	dir := t.TempDir()
	logFile, params := filepath.Join(dir, "g.swf"), filepath.Join(dir, "p.json")
	if code, _, e := runCLI(t, "generate", "lublin", "--mode", "typed", "--jobs", "8000", "--seed", "4", "-o", logFile); code != 0 {
		t.Fatal(e)
	}
	code, out, errOut := runCLI(t, "fit", "lublin", "--typed", "--json", "-o", params, logFile)
	if code != 0 {
		t.Fatalf("fit lublin --typed: exit %d: %s", code, errOut)
	}
	var rep fitLublinReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Params.Mode != lublin.Typed || rep.Typed == nil || rep.Report != nil {
		t.Fatalf("mode %q, typed report %v", rep.Params.Mode, rep.Typed != nil)
	}
	ty := rep.Typed
	if ty.BatchJobs+ty.InteractiveJobs != 8000 || ty.BatchJobs == 0 || ty.UnknownQueue != 0 {
		t.Errorf("classes: %d batch, %d interactive, %d unknown", ty.BatchJobs, ty.InteractiveJobs, ty.UnknownQueue)
	}
	// Published interactive serial fraction 0.1541 (spec section 4.4).
	if p := rep.Params.Interactive.SerialProb; p < 0.12 || p > 0.19 {
		t.Errorf("interactive serial fraction %.3f, want near 0.154", p)
	}
	if code, _, e := runCLI(t, "generate", "lublin", "--params", params, "--jobs", "200", "-o", filepath.Join(dir, "again.swf")); code != 0 {
		t.Errorf("generating from typed parameters: %s", e)
	}
	code, text, _ := runCLI(t, "fit", "lublin", "--typed", logFile)
	for _, want := range []string{"batch (queue >= 1)", "interactive runtimes", "batch arrivals"} {
		if code != 0 || !strings.Contains(text, want) {
			t.Errorf("table output (exit %d) lacks %q", code, want)
		}
	}
}

func TestFitLublinTypedBadInput(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "w.swf")
	// Whole mode writes every job with queue 0: no batch jobs.
	if code, _, e := runCLI(t, "generate", "lublin", "--jobs", "500", "--seed", "1", "-o", whole); code != 0 {
		t.Fatal(e)
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"fit", "lublin", "--typed", whole}, 1, "0 batch jobs"},
		{[]string{"fit", "lublin", "--interactive-procs", "48", whole}, 2, "needs --typed"},
		{[]string{"fit", "lublin", "--typed", "--interactive-procs", "-3", whole}, 2, "must be above 0"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
}

// TestFitReportsAllTests checks that every fitted candidate carries KS,
// Anderson-Darling and chi-square results, in JSON and in the table.
func TestFitReportsAllTests(t *testing.T) {
	dir := t.TempDir()
	logFile := filepath.Join(dir, "g.swf")
	runCLI(t, "generate", "lublin", "--jobs", "2000", "--seed", "5", "-o", logFile)
	code, out, errOut := runCLI(t, "fit", "--json", "--families", "lognormal,gamma", logFile)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep fitReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Variables[0].Candidates {
		if !(c.AD.A2 > 0) || !(c.ChiSquare.Stat > 0) || c.ChiSquare.DF < 1 {
			t.Errorf("%s: AD %+v, chi-square %+v", c.Name, c.AD, c.ChiSquare)
		}
	}
	_, text, _ := runCLI(t, "fit", "--families", "gamma", logFile)
	if !strings.Contains(text, "AD A2") || !strings.Contains(text, "chi2/df") {
		t.Errorf("table lacks the AD and chi-square columns:\n%s", text)
	}
}
