package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/clean"
	"github.com/hpcwl/hpcwl/trace"
)

func TestCleanJSON(t *testing.T) {
	out := filepath.Join(t.TempDir(), "kth.swf")
	code, stdout, stderr := runHpcwl("clean", "builtin:KTH-SP2", "-o", out, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var s struct {
		Input   string          `json:"input"`
		Output  string          `json:"output"`
		In      int             `json:"input_jobs"`
		Out     int             `json:"output_jobs"`
		Removed []clean.Removal `json:"removed"`
		Params  string          `json:"parameters"`
	}
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("%v in %q", err, stdout)
	}
	if s.In != 28476 || s.Out != 28475 || s.Output != out || !strings.Contains(s.Params, "oversize=drop") {
		t.Errorf("summary %+v", s)
	}
	got := map[string]int{}
	for _, r := range s.Removed {
		got[r.Reason] = r.Jobs
	}
	if got["no-processors"] != 1 || got["partial"] != 0 {
		t.Errorf("removed %v, want one job without processors", got)
	}
	tr, err := trace.Load(out, trace.Options{})
	if err != nil || tr.Len() != 28475 {
		t.Fatalf("output: %v", err)
	}
	notes := tr.Header.Notes()
	if !strings.Contains(notes[len(notes)-1], "THIS IS A CLEANED VERSION OF THE LOG, made by hpcwl") {
		t.Errorf("notes %q", notes)
	}
}

func TestCleanSummaryOnStderr(t *testing.T) {
	out := filepath.Join(t.TempDir(), "o.csv")
	code, stdout, stderr := runHpcwl("clean", "testdata/clean_oversize.swf", "-o", out, "--oversize", "drop",
		"--filter", "user=3", "--start", "1970-01-01T00:00:30")
	// Every job is dropped: the command fails, yet says why on stderr.
	if code != exitError {
		t.Fatalf("exit %d, want %d: %s", code, exitError, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout %q, want nothing", stdout)
	}
	for _, w := range []string{"kept 0 of 4 jobs, removed 4", "partial", "window", "user=3", "oversize", "no jobs"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
}

func TestCleanErrors(t *testing.T) {
	dir := t.TempDir()
	o := filepath.Join(dir, "out.swf")
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"oversize", []string{"testdata/clean_oversize.swf", "-o", o, "--oversize", "error"}, 1,
			[]string{"job 2 uses 16 processors but the machine has 8", "--oversize drop", "--oversize clamp", "--procs N"}},
		{"no machine size", []string{"testdata/noprocs.swf", "-o", o}, 1, []string{"MaxProcs", "--procs N"}},
		{"no output", []string{"builtin:KTH-SP2"}, 2, []string{"-o OUT", "--detect-only"}},
		{"detect-only with output", []string{"builtin:KTH-SP2", "--detect-only", "-o", o}, 2, []string{"writes nothing"}},
		{"bad filter", []string{"builtin:KTH-SP2", "-o", o, "--filter", "user=3 and"}, 2,
			[]string{`filter "user=3 and": column 11`}},
		{"bad detector", []string{"builtin:KTH-SP2", "-o", o, "--flurries", "all"}, 2, []string{`unknown detector "all"`}},
		{"bad oversize", []string{"builtin:KTH-SP2", "-o", o, "--oversize", "shrink"}, 2, []string{"error, drop, clamp, keep"}},
		{"bad start", []string{"builtin:KTH-SP2", "-o", o, "--start", "May 1"}, 2, []string{"--start", "local date"}},
		{"end before start", []string{"builtin:KTH-SP2", "-o", o, "--start", "100", "--end", "50"}, 2, []string{"must come after"}},
		{"unknown --to", []string{"builtin:KTH-SP2", "-o", o, "--to", "arrow"}, 2, []string{`unknown format "arrow"`, "parquet"}},
		{"bad factor", []string{"builtin:KTH-SP2", "-o", o, "--flurry-factor", "0"}, 2, []string{"must be positive"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runHpcwl(append([]string{"clean"}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d: %s", code, tt.code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
			if _, err := os.Stat(o); err == nil {
				t.Errorf("%s was written", o)
			}
		})
	}
}

// writeFlurryTrace writes a small SWF log where user 9 submits 1000 jobs in
// one day of week 3 while five users submit 50 jobs a week.
func writeFlurryTrace(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("; UnixStartTime: 345600\n; TimeZoneString: UTC\n; MaxProcs: 16\n")
	id := 0
	add := func(user int, submit int64) {
		id++
		fmt.Fprintf(&b, "%d %d 0 30 1 -1 -1 1 60 -1 1 %d 1 -1 -1 -1 -1 -1\n", id, submit, user)
	}
	const week = 7 * 86400
	for w := 0; w < 6; w++ {
		for k := 0; k < 50; k++ {
			for u := 1; u <= 5; u++ {
				add(u, int64(w*week+k*3000+u))
			}
			if w == 3 {
				for r := 0; r < 20; r++ {
					add(9, int64(w*week+k*3000+10+r*100))
				}
			}
		}
	}
	name := filepath.Join(t.TempDir(), "flurry.swf")
	if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

func TestCleanDetectOnly(t *testing.T) {
	in := writeFlurryTrace(t)
	code, stdout, stderr := runHpcwl("clean", in, "--detect-only")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, w := range []string{"1 flurry found by weekly(factor=3, min=500) + median", "weekly", "1970-01-26",
		"user=9 and job>="} {
		if !strings.Contains(stdout, w) {
			t.Errorf("stdout lacks %q:\n%s", w, stdout)
		}
	}
	code, stdout, stderr = runHpcwl("clean", in, "--detect-only", "--flurries", "weekly", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var d struct {
		Flurries []clean.Flurry `json:"flurries"`
	}
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Flurries) != 1 || d.Flurries[0].User != 9 || d.Flurries[0].Jobs != 1000 || d.Flurries[0].FirstWeek != 3 {
		t.Fatalf("flurries %+v, want user 9 with 1000 jobs in week 3", d.Flurries)
	}
	filter := d.Flurries[0].Filter

	// Removing with the detector or with the printed filter gives the same log.
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.swf"), filepath.Join(dir, "b.swf")
	if code, _, stderr := runHpcwl("clean", in, "--flurries", "weekly", "-o", a); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, _, stderr = runHpcwl("clean", in, "--filter", filter, "-o", b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stderr, "note: the weekly detector flags") {
		t.Errorf("a note about flurries after removing the flurry: %s", stderr)
	}
	ta, _ := trace.Load(a, trace.Options{})
	tb, _ := trace.Load(b, trace.Options{})
	if ta.Len() != 1500 || tb.Len() != 1500 {
		t.Fatalf("kept %d and %d jobs, want 1500", ta.Len(), tb.Len())
	}
	for i := range ta.Jobs {
		if ta.Jobs[i] != tb.Jobs[i] {
			t.Fatalf("job %d differs", i)
		}
	}
	// Without removal, clean points at the flurry.
	if code, _, stderr := runHpcwl("clean", in, "-o", filepath.Join(dir, "c.swf")); code != 0 ||
		!strings.Contains(stderr, "note: the weekly detector flags 1 possible flurries") {
		t.Errorf("exit %d, stderr %s", code, stderr)
	}
}
