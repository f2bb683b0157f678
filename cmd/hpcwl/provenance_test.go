package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/gen/lublin"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/trace"
)

// kthSHA256 is the SHA-256 of the built-in KTH log, as info --json reports
// it.
func kthSHA256(t *testing.T) string {
	t.Helper()
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr.SHA256
}

// TestProvenanceTraces checks that every trace output (SWF, CSV, Batsim
// JSON; convert, clean, generate, simulate --swf, sessions --swf) records
// the hpcwl version, the full command line and the input's SHA-256.
func TestProvenanceTraces(t *testing.T) {
	dir := t.TempDir()
	sha := kthSHA256(t)
	p := func(name string) string { return filepath.Join(dir, name) }
	cases := []struct {
		args  []string
		out   string
		input bool // an input trace is recorded
	}{
		{[]string{"convert", "builtin:KTH-SP2", "-o", p("kth.swf")}, p("kth.swf"), true},
		{[]string{"convert", "builtin:KTH-SP2", "-o", p("kth.csv")}, p("kth.csv"), true},
		{[]string{"convert", "builtin:KTH-SP2", "-o", p("kth.json")}, p("kth.json"), true},
		{[]string{"clean", "builtin:KTH-SP2", "--filter", "user=3", "-o", p("u3.swf")}, p("u3.swf"), true},
		{[]string{"generate", "lublin", "--procs", "64", "--jobs", "200", "--seed", "5", "-o", p("gen.swf")}, p("gen.swf"), false},
		{[]string{"simulate", "builtin:KTH-SP2", "--scheduler", "fcfs", "--swf", p("sim.swf")}, p("sim.swf"), true},
		{[]string{"sessions", "builtin:KTH-SP2", "--swf", p("sess.swf")}, p("sess.swf"), true},
	}
	for _, c := range cases {
		t.Run(c.args[0]+" "+filepath.Base(c.out), func(t *testing.T) {
			code, _, errOut := runCLI(t, c.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			b, err := os.ReadFile(c.out)
			if err != nil {
				t.Fatal(err)
			}
			s := string(b)
			want := []string{keyVersion + ": hpcwl " + version.String(), keyCommand + ": hpcwl " + strings.Join(c.args, " ")}
			if c.input {
				want = append(want, keyInput+": builtin:KTH-SP2 "+sha)
			}
			for _, w := range want {
				if !strings.Contains(s, w) {
					t.Errorf("%s lacks %q", c.out, w)
				}
			}
			// The output still reads as a trace.
			if _, err := loadAnyTraceQuiet(c.out); err != nil {
				t.Errorf("reading back: %v", err)
			}
		})
	}
}

// TestProvenanceSidecar checks that the CSV tables whose layout is fixed
// (Batsim's jobs.csv, curves, replicate tables) keep it and get a sidecar
// JSON with the version, the command line and the input's SHA-256.
func TestProvenanceSidecar(t *testing.T) {
	dir := t.TempDir()
	sha := kthSHA256(t)
	jobs := filepath.Join(dir, "jobs.csv")
	args := []string{"simulate", "builtin:KTH-SP2", "--scheduler", "fcfs", "--jobs", jobs}
	if code, _, errOut := runCLI(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(jobs)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "job_id,") {
		t.Errorf("jobs.csv must start with Batsim's header row, starts %q", string(b[:20]))
	}
	var p provenanceRecord
	sb, err := os.ReadFile(jobs + ".json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(sb, &p); err != nil {
		t.Fatal(err)
	}
	if p.Version != version.String() || p.Command != "hpcwl "+strings.Join(args, " ") ||
		len(p.Inputs) != 1 || p.Inputs[0].SHA256 != sha || p.Output != jobs {
		t.Errorf("sidecar %+v", p)
	}
}

// TestProvenanceFitLublin checks that a fitted parameter file names its
// source log, the log's SHA-256 and the machine size, reads back, and that
// a log generated from it records the parameter file's SHA-256.
func TestProvenanceFitLublin(t *testing.T) {
	dir := t.TempDir()
	sha := kthSHA256(t)
	params := filepath.Join(dir, "kth.json")
	if code, _, errOut := runCLI(t, "fit", "lublin", "builtin:KTH-SP2", "-o", params); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	f, err := os.Open(params)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := lublin.ReadParams(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if pr.Source == nil || pr.Source.Log != "builtin:KTH-SP2" || pr.Source.SHA256 != sha || pr.Source.MachineProcs != 100 ||
		pr.Source.Version != "hpcwl "+version.String() {
		t.Fatalf("source %+v", pr.Source)
	}
	out := filepath.Join(dir, "gen.swf")
	if code, _, errOut := runCLI(t, "generate", "lublin", "--params", params, "--jobs", "100", "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), keyInput+": "+params+" ") {
		t.Errorf("generated log does not record its parameter file:\n%s", b[:min(len(b), 2000)])
	}
}

// withoutCommandLine drops the header line recording the command line,
// which names the output file: two runs writing different files with the
// same parameters differ there only.
func withoutCommandLine(b []byte) []byte {
	var out []byte
	for _, l := range bytes.SplitAfter(b, []byte("\n")) {
		if !bytes.Contains(l, []byte(keyCommand+": ")) {
			out = append(out, l...)
		}
	}
	return out
}

// withoutProvenance drops every provenance line from an SWF text.
func withoutProvenance(b []byte) []byte {
	var out []byte
	for _, l := range bytes.SplitAfter(b, []byte("\n")) {
		if !bytes.Contains(l, []byte("; "+keyCommand+": ")) && !bytes.Contains(l, []byte("; "+keyVersion+": ")) &&
			!bytes.Contains(l, []byte("; "+keyInput+": ")) {
			out = append(out, l...)
		}
	}
	return out
}
