package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// smallLog writes a 30-week log on procs processors: three users, one job
// a day each, and returns its path.
func smallLog(t *testing.T, procs int) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "small"+strconv.Itoa(procs)+".swf")
	var b strings.Builder
	b.WriteString("; UnixStartTime: 978307200\n; TimeZoneString: UTC\n; MaxProcs: " + strconv.Itoa(procs) + "\n")
	n := 0
	for d := 0; d < 30*7; d++ {
		for u := 1; u <= 3; u++ {
			n++
			b.WriteString(strings.Join([]string{strconv.Itoa(n), strconv.Itoa(d*86400 + u*3600), "0", "1800", strconv.Itoa(u), "-1", "-1",
				strconv.Itoa(u), "3600", "-1", "1", strconv.Itoa(u), "-1", "-1", "-1", "-1", "-1", "-1"}, " ") + "\n")
		}
	}
	if err := os.WriteFile(f, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestResampleMix(t *testing.T) {
	small := smallLog(t, 8)
	dir := t.TempDir()
	var outs [3][]byte
	for i, seed := range []string{"4", "4", "5"} {
		f := filepath.Join(dir, "mix"+strconv.Itoa(i)+".swf")
		code, out, errOut := runCLI(t, "resample", "builtin:KTH-SP2", small, "--machine", "max", "--weights", "3,1", "--seed", seed, "--json", "-o", f)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var r mixReport
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if r.Procs != 100 || len(r.Inputs) != 2 || r.Inputs[0].Weight != 0.75 || r.Inputs[1].Jobs == 0 || r.Inputs[0].Jobs+r.Inputs[1].Jobs != r.Jobs {
			t.Errorf("report %+v", r)
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		outs[i] = b
	}
	if !bytes.Equal(withoutCommandLine(outs[0]), withoutCommandLine(outs[1])) {
		t.Error("the same seed gave different files")
	}
	if bytes.Equal(outs[0], outs[2]) {
		t.Error("another seed gave the same file")
	}
	for _, want := range []string{"; MixLog: 1 0.75 builtin:KTH-SP2 3e152f20", "; MixLog: 2 0.25 ", "; MaxProcs: 100", "; MaxPartitions: 2", "; HpcwlInput: builtin:KTH-SP2"} {
		if !bytes.Contains(outs[0], []byte(want)) {
			t.Errorf("header lacks %q", want)
		}
	}
	// The info command reads the mix back as an ordinary log.
	f := filepath.Join(dir, "mix0.swf")
	if code, _, errOut := runCLI(t, "info", f); code != 0 {
		t.Errorf("info on the mix: exit %d: %s", code, errOut)
	}
	// A machine smaller than KTH's widest jobs drops them, or clamps them.
	for _, rule := range []string{"drop", "clamp"} {
		code, out, errOut := runCLI(t, "resample", "builtin:KTH-SP2", small, "--machine", "32", "--oversize", rule, "--json", "-o", filepath.Join(dir, rule+".swf"))
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var r mixReport
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if (rule == "drop") != (r.Dropped > 0) || (rule == "clamp") != (r.Clamped > 0) {
			t.Errorf("--oversize %s: dropped %d, clamped %d", rule, r.Dropped, r.Clamped)
		}
	}
}

func TestResampleExtendBadInput(t *testing.T) {
	small := smallLog(t, 8)
	dir := t.TempDir()
	out := filepath.Join(dir, "x.swf")
	tests := []struct {
		name string
		args []string
		msg  string
	}{
		{"sizes differ", []string{"resample", "builtin:KTH-SP2", small}, "machine sizes differ"},
		{"weights count", []string{"resample", "builtin:KTH-SP2", small, "--machine", "max", "--weights", "1"}, "one per log"},
		{"weight zero", []string{"resample", "builtin:KTH-SP2", small, "--machine", "max", "--weights", "1,0"}, "must be positive"},
		{"machine garbage", []string{"resample", "builtin:KTH-SP2", small, "--machine", "big"}, "want max or a positive number"},
		{"oversize garbage", []string{"resample", "builtin:KTH-SP2", small, "--machine", "max", "--oversize", "fold"}, "valid: drop, clamp"},
		{"machine with one log", []string{"resample", "builtin:KTH-SP2", "--machine", "max"}, "apply to mixing"},
		{"prefer garbage", []string{"resample", "builtin:KTH-SP2", "--prefer", "memory:high"}, "want FEATURE:high"},
		{"prefer class garbage", []string{"resample", "builtin:KTH-SP2", "--prefer", "class:HEAVY"}, "valid: LTLU"},
		{"bias zero", []string{"resample", "builtin:KTH-SP2", "--prefer", "runtime:high", "--bias", "0"}, "positive"},
		{"bias alone", []string{"resample", "builtin:KTH-SP2", "--bias", "3"}, "applies with --prefer"},
		{"class with two logs", []string{"resample", "builtin:KTH-SP2", small, "--machine", "max", "--prefer", "class:LTHU"}, "prefer by a feature"},
		{"segment alone", []string{"resample", "builtin:KTH-SP2", "--segment", "2"}, "apply with --stationary"},
		{"segment too far", []string{"resample", "builtin:KTH-SP2", "--stationary", "--segment", "9"}, "the log has 1 segments"},
		{"rare with two logs", []string{"resample", "builtin:KTH-SP2", small, "--machine", "max", "--rare", "3"}, "use --detect-rare"},
		{"stationary mix", []string{"resample", "builtin:KTH-SP2", small, "--machine", "max", "--stationary"}, "resamples one log"},
		{"min segment", []string{"resample", "builtin:KTH-SP2", "--stationary", "--min-segment", "2d"}, "at least 1w"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCLI(t, append(tc.args, "-o", out)...)
			if code != 2 || !strings.Contains(errOut, tc.msg) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, tc.msg)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("an output was written")
			}
		})
	}
}

func TestResamplePreferAndStationary(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "resample", "builtin:KTH-SP2", "--prefer", "runtime:high", "--bias", "4", "--json", "-o", filepath.Join(dir, "p.swf"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r resampleReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Params.Prefer != "runtime:high bias=4" || r.Params.PreferredLongTerm != 51 {
		t.Errorf("preference %q, %d preferred long-term users", r.Params.Prefer, r.Params.PreferredLongTerm)
	}
	b, err := os.ReadFile(filepath.Join(dir, "p.swf"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("prefer=runtime:high bias=4")) {
		t.Error("the header does not record the preference")
	}
	code, out, errOut = runCLI(t, "resample", "builtin:KTH-SP2", "--stationary", "--list-segments", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s segmentsReport
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Segments) != 1 || s.Chosen != 1 || s.Segments[0].Weeks() != 49 {
		t.Errorf("segments %+v", s)
	}
	code, _, errOut = runCLI(t, "resample", "builtin:KTH-SP2", "--stationary", "--duration", "2y", "-o", filepath.Join(dir, "s.swf"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "segments of stationary weekly offered load") {
		t.Errorf("stderr %q", errOut)
	}
	b, err = os.ReadFile(filepath.Join(dir, "s.swf"))
	if err != nil || !bytes.Contains(b, []byte("align_long_term=true")) {
		t.Errorf("the stationary workload does not record aligned long-term users (%v)", err)
	}
}

func TestShakeCommand(t *testing.T) {
	code, out, errOut := runCLI(t, "shake", "builtin:KTH-SP2", "--by", "user", "--shift", "60s", "--runs", "3", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r shakeReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Variants) != 3 || r.Units != 214 || len(r.Summary) != 4 {
		t.Fatalf("report: %d variants, %d units, %d metrics", len(r.Variants), r.Units, len(r.Summary))
	}
	bsld := r.Summary[2]
	if bsld.Metric != "bounded_slowdown" || bsld.Original <= 1 || bsld.Min > bsld.Max || bsld.MaxChange == 0 {
		t.Errorf("bounded slowdown %+v", bsld)
	}
	code2, out2, _ := runCLI(t, "shake", "builtin:KTH-SP2", "--by", "user", "--shift", "60s", "--runs", "3", "--json")
	var r2 shakeReport
	if code2 != 0 || json.Unmarshal([]byte(out2), &r2) != nil || r2.Summary[2] != bsld {
		t.Error("the same command gave other numbers")
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--by", "session", "--shift", "1h"}, "1800 s for session shaking"},
		{[]string{"--by", "job"}, "valid: user, session, runtime"},
		{[]string{"--shift", "soon"}, "not a length of time"},
		{[]string{"--count", "-1"}, "want 0"},
		{[]string{"--count", "215"}, "has 214 user units"},
		{[]string{"--scheduler", "nope"}, "nope"},
	} {
		code, _, errOut := runCLI(t, append([]string{"shake", "builtin:KTH-SP2"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.msg)
		}
	}
}

// The summary lists the rare behaviours with their jobs.
func TestResampleListsRare(t *testing.T) {
	code, out, errOut := runCLI(t, "resample", "builtin:KTH-SP2", "--rare", "3", "--json", "-o", filepath.Join(t.TempDir(), "r.swf"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r resampleReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Rare) != 1 || r.Rare[0].User != 3 || r.Rare[0].Jobs == 0 || r.Rare[0].Jobs != r.Pools.Classes["rare"].Jobs {
		t.Errorf("rare %+v, pool %+v", r.Rare, r.Pools.Classes["rare"])
	}
}
