package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTemporalTable(t *testing.T) {
	code, out, errOut := runCLI(t, "temporal", "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// KTH-SP2 values pinned in temporal's tests (docs/validation.md).
	for _, want := range []string{
		"locality 15min  15min          0.18         0.11         0.05         0.03         0.36",
		"weekly   1d     7d             0.49         0.36         0.25         0.34         0.45",
		"mean                  0.71         0.66         0.58         0.60         0.71",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestTemporalJSONAndCSV(t *testing.T) {
	dir := t.TempDir()
	series := filepath.Join(dir, "s.csv")
	acf := filepath.Join(dir, "acf.csv")
	code, out, errOut := runCLI(t, "temporal", "--json", "--statistic", "median", "--series", series, "--series-bin", "6h",
		"--acf", acf, "--max-lag", "10", "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Version   string `json:"hpcwl_version"`
		SHA256    string `json:"sha256"`
		Statistic string `json:"statistic"`
		Tests     []struct {
			Name string `json:"name"`
			Bin  int64  `json:"bin_s"`
			Lag  int    `json:"lag"`
			ACF  struct {
				Jobs float64 `json:"jobs"`
			} `json:"acf"`
		} `json:"tests"`
		Hurst []struct {
			Series string  `json:"series"`
			Mean   float64 `json:"mean"`
		} `json:"hurst"`
		Bins map[string]int `json:"bins"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err, out)
	}
	if r.Statistic != "median" || len(r.Tests) != 5 || len(r.Hurst) != 5 || r.SHA256 == "" || r.Version == "" {
		t.Errorf("%+v", r)
	}
	if r.Tests[4].Name != "weekly" || r.Tests[4].Lag != 7 || r.Tests[4].Bin != 86400 || r.Hurst[4].Series != "jobs" {
		t.Errorf("%+v", r)
	}
	b, err := os.ReadFile(series)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if lines[0] != "bin,start_s,start_local,runtime,procs,cpu,interarrival,jobs" || len(lines) != r.Bins["21600"]+1 {
		t.Errorf("series: %d lines (want %d), header %q", len(lines), r.Bins["21600"]+1, lines[0])
	}
	if !strings.HasPrefix(lines[1], "0,597569,1996-09-30T12:00:00+02:00,") {
		t.Errorf("first bin %q", lines[1])
	}
	b, err = os.ReadFile(acf)
	if err != nil {
		t.Fatal(err)
	}
	lines = strings.Split(strings.TrimSpace(string(b)), "\n")
	if lines[0] != "lag,lag_s,runtime,procs,cpu,interarrival,jobs" || len(lines) != 12 || lines[1] != "0,0,1,1,1,1,1" {
		t.Errorf("acf:\n%s", b)
	}
	for _, f := range []string{series, acf} {
		if _, err := os.Stat(f + ".json"); err != nil {
			t.Errorf("no provenance sidecar: %v", err)
		}
	}
}

func TestTemporalUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--statistic", "mode"},
		{"--hurst-bin", "0"},
		{"--hurst-bin", "10"},
		{"--hurst-missing", "keep"},
		{"--series-bin", "-1m"},
		{"--max-lag", "0"},
	} {
		code, _, errOut := runCLI(t, append(append([]string{"temporal"}, args...), "builtin:KTH-SP2")...)
		if code != 2 || !strings.Contains(errOut, "Usage") && !strings.Contains(errOut, "usage") {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
	if code, _, _ := runCLI(t, "temporal"); code != 2 {
		t.Errorf("no TRACE: exit %d", code)
	}
}
