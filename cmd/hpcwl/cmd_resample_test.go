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

func TestResampleSameSeedSameBytes(t *testing.T) {
	dir := t.TempDir()
	var outs [3][]byte
	for i, seed := range []string{"7", "7", "8"} {
		f := filepath.Join(dir, "out"+strings.Repeat("x", i)+".swf")
		code, _, errOut := runCLI(t, "resample", "builtin:KTH-SP2", "--duration", "2y", "--load", "1.3", "--seed", seed, "-o", f)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
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
	for _, want := range []string{"; ResampledFromSHA256: 3e152f20", "; ResampleSeed: 7 stream 0", "load=1.3", "; ResampledBy: hpcwl ", "; UserCopy: 1 "} {
		if !bytes.Contains(outs[0], []byte(want)) {
			t.Errorf("header lacks %q", want)
		}
	}
}

func TestResampleJSON(t *testing.T) {
	f := filepath.Join(t.TempDir(), "out.swf")
	code, out, errOut := runCLI(t, "resample", "builtin:KTH-SP2", "--load", "2", "--json", "-o", f)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r resampleReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Pools.Classes["long-term"].Users != 102 || r.Params.LongTerm != 204 || r.Jobs == 0 {
		t.Errorf("long-term users %d, N_LT' %d, jobs %d", r.Pools.Classes["long-term"].Users, r.Params.LongTerm, r.Jobs)
	}
}

func TestResampleBadInput(t *testing.T) {
	dir := t.TempDir()
	short := filepath.Join(dir, "short.swf")
	var b strings.Builder
	b.WriteString("; UnixStartTime: 0\n; MaxProcs: 8\n")
	for i := 0; i < 50; i++ {
		b.WriteString(strings.Join([]string{strconv.Itoa(i + 1), strconv.Itoa(i * 86400), "0", "100", "1", "-1", "-1", "1", "200", "-1", "1", strconv.Itoa(i%3 + 1), "-1", "-1", "-1", "-1", "-1", "-1"}, " ") + "\n")
	}
	if err := os.WriteFile(short, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"short log", []string{"resample", short}, 1, "needs a longer log"},
		{"load too high", []string{"resample", "builtin:KTH-SP2", "--load", "500"}, 2, "valid: above 0, at most 100"},
		{"load zero", []string{"resample", "builtin:KTH-SP2", "--load", "0"}, 2, "valid: above 0"},
		{"duration too short", []string{"resample", "builtin:KTH-SP2", "--duration", "2d"}, 2, "valid: 1w to 5200w"},
		{"duration garbage", []string{"resample", "builtin:KTH-SP2", "--duration", "long"}, 2, "not a length of time"},
		{"rb-npw without pool", []string{"resample", "builtin:KTH-SP2", "--rb-npw", "0.1"}, 2, "rare-behaviour pool is empty"},
		{"bad discard", []string{"resample", "builtin:KTH-SP2", "--discard", "maybe"}, 2, "valid: inside, touch, none"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCLI(t, append(tc.args, "-o", filepath.Join(dir, "x.swf"))...)
			if code != tc.code || !strings.Contains(errOut, tc.msg) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tc.code, tc.msg)
			}
		})
	}
}
