package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/summary"
)

// runCLI runs hpcwl in-process and returns its exit status and outputs.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestInfoJSON(t *testing.T) {
	code, out, errOut := runCLI(t, "info", "--json", "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s struct {
		Version string `json:"hpcwl_version"`
		summary.Summary
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if s.Jobs != 28476 || s.Users != 214 || s.Procs != 100 || s.Version == "" || len(s.SHA256) != 64 {
		t.Errorf("jobs %d users %d procs %d version %q sha %q", s.Jobs, s.Users, s.Procs, s.Version, s.SHA256)
	}
	if s.Talby.Rm != 847 || s.Talby.Pm != 3 {
		t.Errorf("Talby Rm %v Pm %v, want 847 and 3", s.Talby.Rm, s.Talby.Pm)
	}
}

func TestInfoTable(t *testing.T) {
	code, out, _ := runCLI(t, "info", "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"jobs          28476", "machine       100 processors", "offered load  68.7%", "Rm 847"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestExitStatuses(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		code    int
		message string
	}{
		{"missing argument", []string{"info"}, 2, "expects one TRACE or more"},
		{"unknown flag", []string{"info", "--nope", "x.swf"}, 2, "unknown flag"},
		{"unknown command", []string{"frobnicate"}, 2, "unknown command"},
		{"missing file", []string{"info", "testdata/does-not-exist.swf"}, 1, "does-not-exist.swf"},
		{"directory", []string{"info", "testdata"}, 1, "is a directory"},
		{"negative procs", []string{"info", "--procs", "-3", "builtin:KTH-SP2"}, 2, "--procs"},
		{"unknown builtin", []string{"info", "builtin:XYZ"}, 1, "builtin:KTH-SP2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCLI(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, errOut)
			}
			if !strings.Contains(errOut, tc.message) {
				t.Errorf("stderr %q lacks %q", errOut, tc.message)
			}
			if strings.Contains(errOut, "goroutine") || strings.Contains(errOut, "panic") {
				t.Errorf("stderr shows a panic: %s", errOut)
			}
		})
	}
}

func TestInfoWithoutMachineSize(t *testing.T) {
	code, out, _ := runCLI(t, "info", "testdata/noprocs.swf")
	if code != 0 || !strings.Contains(out, "pass --procs N") {
		t.Errorf("exit %d, output %q: want a summary saying to pass --procs", code, out)
	}
	code, out, _ = runCLI(t, "info", "--procs", "8", "--json", "testdata/noprocs.swf")
	if code != 0 || !strings.Contains(out, `"procs": 8`) {
		t.Errorf("with --procs: exit %d, output %q", code, out)
	}
}

func TestJSONError(t *testing.T) {
	code, out, _ := runCLI(t, "info", "--json", "testdata/does-not-exist.swf")
	var e struct {
		Error      string `json:"error"`
		ExitStatus int    `json:"exit_status"`
	}
	if err := json.Unmarshal([]byte(out), &e); err != nil || code != 1 || e.ExitStatus != 1 || e.Error == "" {
		t.Errorf("exit %d, JSON error %q (%v)", code, out, err)
	}
}
