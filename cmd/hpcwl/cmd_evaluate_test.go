package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestEvaluatePrefixJobs(t *testing.T) {
	code, out, errOut := runCLI(t, "evaluate", "--json", "builtin:KTH-SP2", "--prefix", "3000")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r evaluateReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Jobs != 3000 || r.Prefix == nil || r.Prefix.Jobs != 3000 || r.Prefix.LogJobs != 28476 {
		t.Fatalf("jobs %d, prefix %+v", r.Jobs, r.Prefix)
	}
	if n := r.Feedback.Feedback.Lateness.Jobs; n != 3000 {
		t.Errorf("lateness over %d jobs, want 3000", n)
	}
	if r.Prefix.SpanDays <= 0 || r.Prefix.SpanDays > 60 {
		t.Errorf("span %.2f days", r.Prefix.SpanDays)
	}
}

func TestEvaluatePrefixDuration(t *testing.T) {
	code, out, errOut := runCLI(t, "evaluate", "builtin:KTH-SP2", "--prefix", "30d")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "prefix 30d: the first ") {
		t.Errorf("table lacks the prefix line:\n%s", out)
	}
	code, out, errOut = runCLI(t, "evaluate", "--json", "builtin:KTH-SP2", "--prefix", "30d")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r evaluateReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Prefix == nil || r.Prefix.Seconds != 30*86400 || r.Prefix.SpanDays >= 30 || r.Jobs >= 28476 || r.Jobs < 100 {
		t.Errorf("jobs %d, prefix %+v", r.Jobs, r.Prefix)
	}
}

func TestEvaluatePrefixBad(t *testing.T) {
	for _, p := range []string{"0", "-5", "abc", "1.5d"} {
		code, _, errOut := runCLI(t, "evaluate", "builtin:KTH-SP2", "--prefix", p)
		if code != exitUsage || !strings.Contains(errOut, "--prefix") {
			t.Errorf("--prefix %s: exit %d, %s", p, code, errOut)
		}
	}
	code, _, errOut := runCLI(t, "evaluate", "builtin:KTH-SP2", "--curve-step", "5")
	if code != exitUsage || !strings.Contains(errOut, "--curve-step") {
		t.Errorf("--curve-step 5: exit %d, %s", code, errOut)
	}
	code, _, errOut = runCLI(t, "evaluate", "builtin:KTH-SP2", "--curve", "-", "--jobs", "-")
	if code != exitUsage {
		t.Errorf("--curve - --jobs -: exit %d, %s", code, errOut)
	}
}

func TestEvaluateCurve(t *testing.T) {
	curve := filepath.Join(t.TempDir(), "curve.csv")
	code, _, errOut := runCLI(t, "evaluate", "builtin:KTH-SP2", "--prefix", "2000", "--curve", curve, "--curve-step", "12h")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(curve)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	head := strings.Split(lines[0], ",")
	if len(head) != 14 || head[0] != "time_s" || head[11] != "feedback_submitted" {
		t.Fatalf("header %q", lines[0])
	}
	var prev []int64
	for i, l := range lines[1:] {
		f := strings.Split(l, ",")
		if len(f) != len(head) {
			t.Fatalf("line %d: %d fields", i+1, len(f))
		}
		v := make([]int64, len(f))
		for k, s := range f {
			if k == 1 {
				continue
			}
			if v[k], err = strconv.ParseInt(s, 10, 64); err != nil {
				t.Fatalf("line %d field %d: %v", i+1, k, err)
			}
		}
		if v[0] != int64(i)*43200 {
			t.Fatalf("line %d at %d s", i+1, v[0])
		}
		for k := 2; k < len(v); k += 2 {
			want := v[k]
			if prev != nil {
				want += prev[k+1]
			}
			if v[k+1] != want {
				t.Fatalf("line %d: %s total %d, want %d", i+1, head[k+1], v[k+1], want)
			}
		}
		prev = v
	}
	// Every job is submitted and, on an unchanged-size machine, ends in
	// every run; the rigid submissions are the recorded ones.
	for k := 3; k < len(prev); k += 2 {
		if prev[k] != 2000 {
			t.Errorf("%s ends at %d, want 2000", head[k], prev[k])
		}
	}
}
