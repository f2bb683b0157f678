package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

func TestCompareJSON(t *testing.T) {
	f := filepath.Join(t.TempDir(), "r.swf")
	if code, _, errOut := runCLI(t, "resample", "builtin:KTH-SP2", "--seed", "3", "-o", f); code != 0 {
		t.Fatalf("resample: exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "compare", "builtin:KTH-SP2", f, "--json", "--pox")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r compareReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	o, s := r.Original, r.Resampled
	if o.Jobs != 28476 || s.Jobs == 0 || len(s.Hurst.Points) == 0 {
		t.Fatalf("jobs %d and %d, %d pox points", o.Jobs, s.Jobs, len(s.Hurst.Points))
	}
	// Resampling keeps each user's sequence, so locality stays within 10%
	// (spec S2) and H within [0.6, 0.9] (S3).
	for _, a := range []string{"runtime", "estimate", "procs"} {
		if ratio := s.Stack[a].Mean / o.Stack[a].Mean; ratio < 0.9 || ratio > 1.1 {
			t.Errorf("%s stack depth %.2f vs %.2f", a, s.Stack[a].Mean, o.Stack[a].Mean)
		}
	}
	if s.Hurst.H < 0.6 || s.Hurst.H > 0.9 {
		t.Errorf("resampled H %.3f", s.Hurst.H)
	}
	// Counting every copy as a user splits the regenerated long-term
	// users; slots are as many as the log's long-term users (102).
	code, out, errOut = runCLI(t, "compare", "builtin:KTH-SP2", f, "--json", "--users", "slot")
	if code != 0 {
		t.Fatalf("--users slot: exit %d: %s", code, errOut)
	}
	var rs compareReport
	if err := json.Unmarshal([]byte(out), &rs); err != nil {
		t.Fatal(err)
	}
	if lt := s.Users - rs.Resampled.Users; lt < 50 || rs.Original.Users != o.Users {
		t.Errorf("users: %d copies, %d by slot; original %d and %d", s.Users, rs.Resampled.Users, o.Users, rs.Original.Users)
	}
	// Thesis depths: processors match exactly, so their depth is one less.
	code, out, errOut = runCLI(t, "compare", "builtin:KTH-SP2", f, "--json", "--depth", "thesis")
	if code != 0 {
		t.Fatalf("--depth thesis: exit %d: %s", code, errOut)
	}
	var rd compareReport
	if err := json.Unmarshal([]byte(out), &rd); err != nil {
		t.Fatal(err)
	}
	if d, want := rd.Original.Stack["procs"].Mean, o.Stack["procs"].Mean-1; !(math.Abs(d-want) <= 1e-9) {
		t.Errorf("thesis procs depth %v, want %v", d, want)
	}
	if code, _, errOut = runCLI(t, "compare", "builtin:KTH-SP2", f, "--depth", "deep"); code != 2 || !strings.Contains(errOut, "valid: top1, thesis") {
		t.Errorf("--depth deep: exit %d, %q", code, errOut)
	}
	if code, _, errOut = runCLI(t, "compare", "builtin:KTH-SP2", f, "--users", "group"); code != 2 || !strings.Contains(errOut, "valid: copy, slot") {
		t.Errorf("--users group: exit %d, %q", code, errOut)
	}
	if code, _, errOut = runCLI(t, "compare", "builtin:KTH-SP2", f, "--hurst-blocks", "some"); code != 2 || !strings.Contains(errOut, "valid: even, all") {
		t.Errorf("--hurst-blocks some: exit %d, %q", code, errOut)
	}
}

func TestCompareSegments(t *testing.T) {
	f := filepath.Join(t.TempDir(), "r.swf")
	if code, _, errOut := runCLI(t, "resample", "builtin:KTH-SP2", "--duration", "25w", "-o", f); code != 0 {
		t.Fatalf("resample: exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "compare", "builtin:KTH-SP2", f, "--segment", "12w", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r compareReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	// 25 weeks hold two complete segments of 12 weeks.
	if len(r.Segments) != 2 || len(r.SegmentKS) != 2 || r.SegmentLength != 12*7*86400 {
		t.Fatalf("%d segments of %d s", len(r.Segments), r.SegmentLength)
	}
	n := 0
	for _, s := range r.Segments {
		if s.Jobs == 0 || s.Hurst.H == 0 {
			t.Errorf("empty segment %+v", s)
		}
		n += s.Jobs
	}
	if n >= r.Resampled.Jobs {
		t.Errorf("segments hold %d of %d jobs; the last week should be left out", n, r.Resampled.Jobs)
	}
	code, out, _ = runCLI(t, "compare", "builtin:KTH-SP2", f, "--segment", "12w")
	if code != 0 || !strings.Contains(out, "segment 2") || strings.Contains(out, "segment 3") {
		t.Errorf("exit %d, table:\n%s", code, out)
	}
	if code, _, errOut = runCLI(t, "compare", "builtin:KTH-SP2", f, "--segment", "30w"); code != 1 || !strings.Contains(errOut, "shorter than one --segment") {
		t.Errorf("segment longer than the workload: exit %d, %q", code, errOut)
	}
}

// TestCompareScorecard scores the built-in log against itself (every
// feature close) and against a generated Lublin log (no user IDs nor
// requested times: those features n/a; the runtime distribution far).
func TestCompareScorecard(t *testing.T) {
	code, out, errOut := runCLI(t, "compare", "builtin:KTH-SP2", "builtin:KTH-SP2", "--scorecard")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "11 close, 0 differ, 0 far, 0 not measured") {
		t.Errorf("the log against itself:\n%s", out)
	}
	f := filepath.Join(t.TempDir(), "l.swf")
	if code, _, errOut := runCLI(t, "generate", "lublin", "--procs", "100", "--count", "5000", "--seed", "1", "-o", f); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, errOut)
	}
	code, out, errOut = runCLI(t, "compare", "builtin:KTH-SP2", f, "--scorecard", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Inputs []inputRecord `json:"inputs"`
		Card   struct {
			Features []struct {
				Feature, Verdict string
				Distance         *float64
			}
		} `json:"scorecard"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range r.Card.Features {
		got[f.Feature] = f.Verdict
		if (f.Verdict == "n/a") != (f.Distance == nil) {
			t.Errorf("%s: %s with distance %v", f.Feature, f.Verdict, f.Distance)
		}
	}
	if got["runtime"] != "far" || got["jobs per user"] != "n/a" || got["requested time"] != "n/a" || len(r.Inputs) != 2 {
		t.Errorf("verdicts %v, inputs %v", got, r.Inputs)
	}
	if code, _, errOut := runCLI(t, "compare", "builtin:KTH-SP2", f, "--scorecard", "--segment", "1w"); code != 2 || !strings.Contains(errOut, "--scorecard") {
		t.Errorf("--scorecard --segment: exit %d, %q", code, errOut)
	}
}
