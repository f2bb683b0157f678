package main

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/replicate"
)

func TestReplicateJSONWorkers(t *testing.T) {
	var prev []replicate.Metrics
	for _, w := range []string{"1", "2"} {
		code, out, errOut := runCLI(t, "replicate", "builtin:KTH-SP2", "--variants", "3", "--duration", "10w", "--workers", w, "--json", "--no-original")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var r struct {
			Variants []replicate.Metrics `json:"variants"`
			Summary  []struct {
				Metric string   `json:"metric"`
				Median float64  `json:"median"`
				Orig   *float64 `json:"original"`
			} `json:"summary"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Variants) != 3 || r.Summary[0].Metric != "throughput" || r.Summary[0].Median <= 0 || r.Summary[0].Orig != nil {
			t.Fatalf("unexpected report %+v", r)
		}
		if prev != nil && !reflect.DeepEqual(prev, r.Variants) {
			t.Errorf("1 and 2 workers differ")
		}
		prev = r.Variants
	}
}

func TestReplicateBadInput(t *testing.T) {
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"--variants", "0"}, "at least 1"},
		{[]string{"--scheduler", "magic"}, "unknown scheduler"},
		{[]string{"--scheduler", "ups", "--alpha-user", "2"}, "valid: 0 to 1"},
		{[]string{"--feedback", "--model", "madon"}, "valid: fluid, adjusted, distribution"},
		{[]string{"--load", "200"}, "at most 100"},
		{[]string{"--off-gap"}, "TBUOS (--feedback) only"},
		{[]string{"--regen", "immediate"}, "TBUOS (--feedback) only"},
		{[]string{"--feedback", "--regen", "sometimes"}, "valid: gap, immediate"},
		{[]string{"--feedback", "--off-gap", "--regen", "immediate"}, "contradicts"},
	}
	for _, tc := range tests {
		code, _, errOut := runCLI(t, append([]string{"replicate", "builtin:KTH-SP2"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.msg)
		}
	}
}

func TestFixed5(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{{123456.7, "123457"}, {31170, "31170"}, {6867, "6867.0"}, {0.68674, "0.68674"}, {0.012345, "0.012345"}, {0, "0"}, {-2.5, "-2.5000"}} {
		if got := fixed5(c.x); got != c.want {
			t.Errorf("fixed5(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}

// TestReplicateOriginalRow: --no-original leaves the original's row out of
// --runs (CSV and Parquet); under --feedback the original is replayed with
// the variants' feedback model, so its figures differ from a rigid replay.
func TestReplicateOriginalRow(t *testing.T) {
	dir := t.TempDir()
	base := []string{"replicate", "builtin:KTH-SP2", "--variants", "2", "--duration", "10w", "--workers", "1"}
	for _, f := range []string{"runs.csv", "runs.parquet"} {
		out := filepath.Join(dir, f)
		if code, _, e := runCLI(t, append(base, "--no-original", "--runs", out)...); code != 0 {
			t.Fatalf("exit %d: %s", code, e)
		}
		var ids []string
		if strings.HasSuffix(f, ".parquet") {
			for _, r := range readTable[replicateRun](t, out) {
				ids = append(ids, r.Variant)
			}
		} else {
			for _, l := range csvLines(t, out)[1:] {
				id, _, _ := strings.Cut(l, ",")
				ids = append(ids, id)
			}
		}
		if !reflect.DeepEqual(ids, []string{"0", "1"}) {
			t.Errorf("%s: --no-original: rows %v, want 0 and 1", f, ids)
		}
	}
	var orig [2]float64
	for k, extra := range [][]string{nil, {"--feedback"}} {
		code, out, e := runCLI(t, append(append(base, "--json"), extra...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, e)
		}
		var r struct {
			Original *struct {
				Wait float64 `json:"wait"`
			} `json:"original"`
			Replay string `json:"original_replay"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		want := []string{"rigid", "feedback (fluid users)"}[k]
		if r.Original == nil || r.Replay != want {
			t.Fatalf("%v: original %v replayed %q, want %q", extra, r.Original, r.Replay, want)
		}
		orig[k] = r.Original.Wait
	}
	if orig[0] == orig[1] {
		t.Errorf("the original's mean wait is %v with and without feedback", orig[0])
	}
}
