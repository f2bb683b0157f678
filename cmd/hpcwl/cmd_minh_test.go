package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/trace"
)

func TestFitGenerateMinh(t *testing.T) {
	dir := t.TempDir()
	params := filepath.Join(dir, "kth.json")
	code, sum, errOut := runCLI(t, "fit", "minh", "--calibrate-zipf", "builtin:KTH-SP2", "-o", params)
	if code != 0 {
		t.Fatalf("fit: exit %d: %s", code, errOut)
	}
	if !strings.Contains(sum, "20529 jobs:") {
		t.Errorf("no summary: %q", sum)
	}
	b, err := os.ReadFile(params)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"sha256": "3e152f20`, `"log": "builtin:KTH-SP2"`, `"zipf_alpha"`, `"zipf_calibrated": true`, `"cells"`, `"arrivals"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("parameter file lacks %s", want)
		}
	}
	out := filepath.Join(dir, "syn.swf")
	if code, _, errOut := runCLI(t, "generate", "minh", "--params", params, "--count", "500", "--seed", "3", "-o", out); code != 0 || !strings.Contains(errOut, "wrote 500 jobs to "+out+" (MWM arrivals") {
		t.Fatalf("generate: exit %d: %s", code, errOut)
	}
	tr, err := trace.Load(out, trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() != 500 || tr.Jobs[499].Processors() < 1 || !strings.Contains(strings.Join(tr.Header.Notes(), "|"), "MWM arrivals") {
		t.Errorf("generated %d jobs; header %s", tr.Len(), strings.Join(tr.Header.Notes(), "|"))
	}
	// The header gives the fitted log's machine (KTH-SP2's 100 processors,
	// recorded in the parameter file) and the parameter file's SHA-256.
	in, _ := tr.Header.Get(keyInput)
	if sha := sha256.Sum256(b); tr.Procs != 100 || !strings.Contains(string(b), `"machine_procs": 100`) || in != params+" "+hex.EncodeToString(sha[:]) {
		t.Errorf("machine %d, input line %q", tr.Procs, in)
	}
	// --procs gives another machine; a file without machine_procs (fitted
	// before it was recorded) gives none, with a warning.
	if code, _, errOut := runCLI(t, "generate", "minh", "--params", params, "--count", "50", "--procs", "64", "-o", out); code != 0 {
		t.Fatalf("generate --procs: exit %d: %s", code, errOut)
	}
	if tr, err := trace.Load(out, trace.Options{}); err != nil || tr.Procs != 64 {
		t.Errorf("--procs 64: machine %d, %v", tr.Procs, err)
	}
	old := filepath.Join(dir, "old.json")
	if err := os.WriteFile(old, []byte(strings.Replace(string(b), `"machine_procs": 100,`, "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, "generate", "minh", "--params", old, "--count", "50", "-o", out)
	if code != 0 || !strings.Contains(errOut, "records no machine size") {
		t.Fatalf("generate from a file without machine_procs: exit %d: %q", code, errOut)
	}
	if tr, err := trace.Load(out, trace.Options{}); err != nil || tr.Procs != 0 {
		t.Errorf("no machine size: machine %d, %v", tr.Procs, err)
	}
	if code, _, errOut := runCLI(t, "generate", "minh", "--params", params, "--count", "500", "--arrival-process", "poisson", "-o", out); code != 0 {
		t.Fatalf("generate poisson: exit %d: %s", code, errOut)
	}
	if tr, err = trace.Load(out, trace.Options{}); err != nil || tr.Jobs[0].Submit != 0 || !strings.Contains(strings.Join(tr.Header.Notes(), "|"), "Poisson arrivals") {
		t.Errorf("Poisson: %v, first arrival %d", err, tr.Jobs[0].Submit)
	}
	// Arrivals from a log: one job per successful job of KTH-SP2, at its submit time.
	if code, _, errOut := runCLI(t, "generate", "minh", "--params", params, "--arrivals", "builtin:KTH-SP2", "-o", out); code != 0 {
		t.Fatalf("generate --arrivals: exit %d: %s", code, errOut)
	}
	if tr, err = trace.Load(out, trace.Options{}); err != nil || tr.Len() != 20529 {
		t.Fatalf("generated %d jobs, %v", tr.Len(), err)
	}
	// A value of the wrong type or out of range: the error names the field.
	bad := filepath.Join(dir, "bad.json")
	for _, tt := range []struct{ from, to, field string }{
		{`"delta_s": 100`, `"delta_s": "x"`, "delta_s"},
		{`"delta_s": 100`, `"delta_s": -1`, "delta_s"},
		{`"machine_procs": 100`, `"machine_procs": -4`, "machine_procs"},
	} {
		if err := os.WriteFile(bad, []byte(strings.Replace(string(b), tt.from, tt.to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := runCLI(t, "generate", "minh", "--params", bad, "-o", filepath.Join(dir, "x.swf"))
		if code != 2 || !strings.Contains(errOut, tt.field) {
			t.Errorf("%s: exit %d: %s", tt.to, code, errOut)
		}
	}
	for _, args := range [][]string{
		{"generate", "minh", "-o", "x.swf"},
		{"generate", "minh", "--params", params, "--arrival-process", "lrd", "-o", "x.swf"},
		{"generate", "minh", "--params", params, "--count", "5", "--arrivals", "builtin:KTH-SP2", "-o", "x.swf"},
		{"fit", "minh", "--gmax", "0", "builtin:KTH-SP2"},
		{"fit", "minh", "--delta", "-3", "builtin:KTH-SP2"},
	} {
		if code, _, _ := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestBurstsNoSuccessfulJobs: a log whose jobs have no recorded status
// (status -1, as NASA-iPSC's) leaves bursts and fit minh nothing to use
// unless --all-jobs; the error says so and names the flag, and info shows
// the bags of tasks as n/a.
func TestBurstsNoSuccessfulJobs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "nostatus.swf")
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	for i := 1; i <= 40; i++ {
		b.WriteString(strings.Join([]string{strconv.Itoa(i), strconv.Itoa(i * 30), "-1", strconv.Itoa(60 + i), "2", "-1", "-1", "2", "-1", "-1", "-1", "1", "-1", "-1", "-1", "-1", "-1", "-1"}, " ") + "\n")
	}
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"bursts", in}, {"fit", "minh", in, "-o", filepath.Join(dir, "m.json")}} {
		code, _, errOut := runCLI(t, args...)
		if code != 1 || !strings.Contains(errOut, "40 jobs not recorded as successful (status 1)") || !strings.Contains(errOut, "--all-jobs takes every job") {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
	if code, _, errOut := runCLI(t, "bursts", "--all-jobs", in); code != 0 {
		t.Errorf("bursts --all-jobs: exit %d, %s", code, errOut)
	}
	// info says the bags of tasks are n/a, and its JSON keeps the key.
	if code, out, errOut := runCLI(t, "info", in); code != 0 || !strings.Contains(out, "bags of tasks  n/a: no job recorded as successful") {
		t.Errorf("info: exit %d, %s%s", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, "info", "--json", in); code != 0 || !strings.Contains(out, `"bursts": null`) {
		t.Errorf("info --json: exit %d, %s%s", code, out, errOut)
	}
}
