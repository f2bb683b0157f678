package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/trace"
)

// runHpcwl runs the command line in-process and returns the exit status,
// stdout and stderr.
func runHpcwl(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestConvertRoundTrip(t *testing.T) {
	orig, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	steps := []struct{ in, out, to, format string }{
		{"builtin:KTH-SP2", "kth.csv", "", "csv"},
		{"kth.csv", "kth.json.gz", "", "batsim"},
		{"kth.json.gz", "kth.txt", "csv", "csv"},
		{"kth.txt.csv", "kth.swf.gz", "", "swf"},
	}
	for _, s := range steps {
		in := s.in
		if !strings.HasPrefix(in, "builtin:") {
			in = filepath.Join(dir, in)
		}
		if s.in == "kth.txt.csv" { // a forced format needs a known extension to read back
			if err := os.Rename(filepath.Join(dir, "kth.txt"), in); err != nil {
				t.Fatal(err)
			}
		}
		args := []string{"convert", in, "-o", filepath.Join(dir, s.out), "--json"}
		if s.to != "" {
			args = append(args, "--to", s.to)
		}
		code, stdout, stderr := runHpcwl(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var sum convertSummary
		if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
			t.Fatalf("%v: %v in %q", args, err, stdout)
		}
		if sum.Jobs != orig.Len() || sum.Format != s.format || sum.Procs != 100 {
			t.Errorf("%v: summary %+v", args, sum)
		}
	}
	back, err := loadAnyTrace(filepath.Join(dir, "kth.swf.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if back.Len() != orig.Len() {
		t.Fatalf("%d jobs, want %d", back.Len(), orig.Len())
	}
	for i := range orig.Jobs {
		if back.Jobs[i] != orig.Jobs[i] {
			t.Fatalf("job %d = %+v, want %+v", i, back.Jobs[i], orig.Jobs[i])
		}
	}
	for i, l := range orig.Header.Lines {
		if back.Header.Lines[i].String() != l.String() {
			t.Fatalf("header line %d = %q, want %q", i, back.Header.Lines[i].String(), l.String())
		}
	}
}

func TestConvertToStdout(t *testing.T) {
	code, stdout, stderr := runHpcwl("convert", "builtin:KTH-SP2", "-o", "-", "--to", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(stdout, "#; Version: 2.2\n") || strings.Count(stdout, "\n") != 28476+1+24+3 { // + version, command, input
		t.Errorf("unexpected CSV on stdout: %d lines", strings.Count(stdout, "\n"))
	}
}

func TestConvertErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
		want []string
		none string // a file that must not be left behind
	}{
		{"unknown --to", []string{"builtin:KTH-SP2", "-o", "x.out", "--to", "xml"}, 2,
			[]string{`unknown format "xml" for --to`, "swf, csv, batsim"}, ""},
		{"unknown extension", []string{"builtin:KTH-SP2", "-o", filepath.Join(dir, "x.out")}, 2,
			[]string{"cannot tell the format", "--to"}, ""},
		{"no output", []string{"builtin:KTH-SP2"}, 2, []string{"-o OUT"}, ""},
		{"two inputs", []string{"a", "b", "-o", "x.csv"}, 2, []string{"one input trace"}, ""},
		{"missing input", []string{filepath.Join(dir, "nope.swf"), "-o", filepath.Join(dir, "x.csv")}, 1,
			[]string{"nope.swf", "no such file"}, ""},
		{"batsim without machine size", []string{"testdata/noprocs.swf", "-o", filepath.Join(dir, "np.json")}, 1,
			[]string{"noprocs.swf", "MaxProcs", "--procs N"}, filepath.Join(dir, "np.json")},
		{"malformed CSV", []string{"testdata/convert_bad.csv", "-o", filepath.Join(dir, "bad.swf")}, 1,
			[]string{"testdata/convert_bad.csv: line 3: field 2 (Submit Time): \"abc\": expected an integer"}, filepath.Join(dir, "bad.swf")},
		{"malformed JSON", []string{"testdata/convert_bad.json", "-o", filepath.Join(dir, "bad2.swf")}, 1,
			[]string{"testdata/convert_bad.json: line 2: jobs[0].res: invalid workload: expected an integer, found a JSON string"}, ""},
		{"negative procs", []string{"builtin:KTH-SP2", "--procs", "-3", "-o", filepath.Join(dir, "y.csv")}, 2,
			[]string{"--procs -3: must be above 0"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runHpcwl(append([]string{"convert"}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d: %s", code, tt.code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
			if tt.none != "" {
				if _, err := os.Stat(tt.none); err == nil {
					t.Errorf("%s was written", tt.none)
				}
			}
		})
	}
}

func TestConvertWithProcs(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "np.json")
	code, _, stderr := runHpcwl("convert", "testdata/noprocs.swf", "--procs", "16", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	tr, err := loadAnyTrace(out)
	if err != nil || tr.Procs != 16 || tr.Len() != 2 {
		t.Fatalf("read back: %v, procs %d", err, tr.Procs)
	}
}
