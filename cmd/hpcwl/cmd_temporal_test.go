package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestTemporal pins the KTH-SP2 row of Talby's Tables 37-39 as measured
// (docs/validation.md lists the whole table and the thesis' values).
func TestTemporal(t *testing.T) {
	code, out, errOut := runCLI(t, "temporal", "--json", "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep temporalReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Logs) != 1 || rep.Logs[0].Jobs != 28476 || strings.Join(rep.Series, ",") != "runtime,procs,cpu,interarrival,jobs" {
		t.Fatalf("report: %+v", rep)
	}
	r := rep.Logs[0]
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"runtime 15m", r.Locality15[0], 0.18},
		{"jobs 150m", r.Locality150[4], 0.52},
		{"jobs 12h", r.Daily12[4], -0.23},
		{"jobs 24h", r.Daily24[4], 0.55},
		{"runtime weekly", r.Weekly[0], 0.49},
	} {
		if math.Abs(c.got-c.want) > 0.005 {
			t.Errorf("%s = %.4f, want %.2f", c.name, c.got, c.want)
		}
	}
	code, text, _ := runCLI(t, "temporal", "builtin:KTH-SP2")
	if code != 0 || !strings.Contains(text, "weekly cycle (1-day bins, lag 7)") {
		t.Errorf("table output (exit %d):\n%s", code, text)
	}
	if code, _, errOut := runCLI(t, "temporal"); code != 2 || !strings.Contains(errOut, "at least one TRACE") {
		t.Errorf("no trace: exit %d, %q", code, errOut)
	}
}
