package main

import (
	"os"
	"path/filepath"
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
	if code, _, errOut := runCLI(t, "generate", "minh", "--params", params, "--count", "500", "--seed", "3", "-o", out); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, errOut)
	}
	tr, err := trace.Load(out, trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() != 500 || tr.Jobs[499].Processors() < 1 || !strings.Contains(strings.Join(tr.Header.Notes(), "|"), "MWM arrivals") {
		t.Errorf("generated %d jobs; header %s", tr.Len(), strings.Join(tr.Header.Notes(), "|"))
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
