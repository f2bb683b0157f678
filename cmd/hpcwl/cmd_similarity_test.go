package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSimilarityCommand(t *testing.T) {
	code, out, errOut := runCLI(t, "similarity", "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"sessions arrival:1h, 214 users", "0         130363  0.700 / 0.862 / 0.494",
		"procs      0 vs 1     163    0.699"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	dir := t.TempDir()
	dist, shuf := filepath.Join(dir, "d.csv"), filepath.Join(dir, "s.csv")
	code, out, errOut = runCLI(t, "similarity", "--json", "--shuffles", "5", "--max-distance", "3",
		"--distances", dist, "--shuffled", shuf, "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Seed          uint64 `json:"seed"`
		Randomization struct {
			Shuffles int       `json:"shuffles"`
			Above    []int     `json:"at_least_original"`
			Original []float64 `json:"original"`
		} `json:"randomization"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Seed != 1 || r.Randomization.Shuffles != 5 || len(r.Randomization.Above) != 3 || r.Randomization.Above[0] != 0 {
		t.Errorf("%+v", r)
	}
	b, _ := os.ReadFile(dist)
	if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); len(lines) != 1+4*3 || lines[0] != "distance,attribute,pairs,mean,median,identical" {
		t.Errorf("distances:\n%s", b)
	}
	b, _ = os.ReadFile(shuf)
	if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); len(lines) != 6 || lines[0] != "shuffle,procs,estimate,runtime" {
		t.Errorf("shuffled:\n%s", b)
	}
	for _, args := range [][]string{
		{"similarity", "--max-distance", "1", "builtin:KTH-SP2"},
		{"similarity", "--sessions", "bogus", "builtin:KTH-SP2"},
		{"similarity", "--shuffled", "x.csv", "builtin:KTH-SP2"},
		{"similarity", "--shuffles", "-1", "builtin:KTH-SP2"},
	} {
		if code, _, errOut := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
}
