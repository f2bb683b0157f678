package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestThresholdsCommand(t *testing.T) {
	code, out, errOut := runCLI(t, "thresholds", "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"25490 up to 1d, 2772 longer ignored", "last:20m          8271   0         0.2132      68491",
		"14831 and 12896 batches, 12150 common", "unique, Last  2674   0.080"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	dir := filepath.Join(t.TempDir(), "figs")
	code, out, errOut = runCLI(t, "thresholds", "--json", "--sessions", "arrival:60m,last:20m", "--figures", dir, "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Lengths []struct {
			Sessions string `json:"sessions"`
			Count    int    `json:"count"`
		} `json:"session_lengths"`
		LastMax struct {
			N [4]int `json:"n"`
		} `json:"last_max"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Lengths) != 2 || r.Lengths[0].Sessions != "arrival:1h" || r.Lengths[1].Count != 8271 || r.LastMax.N[0] != 11943 {
		t.Errorf("%+v", r)
	}
	for _, f := range []string{"interarrival_hist.csv", "interarrival_cdf.csv", "session_length_hist.csv", "session_length_survival.csv", "thinktime_cdf.csv"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), "\n"); n < 10 {
			t.Errorf("%s: %d lines", f, n)
		}
		if _, err := os.Stat(filepath.Join(dir, f+".json")); err != nil {
			t.Errorf("%s: no provenance sidecar", f)
		}
	}
	for _, args := range [][]string{
		{"thresholds", "--sessions", "bogus", "builtin:KTH-SP2"},
		{"thresholds", "--threshold", "0", "builtin:KTH-SP2"},
		{"thresholds", "--max-interarrival", "10s", "builtin:KTH-SP2"},
	} {
		if code, _, errOut := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
}
