package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSimulateSteadyState: the rigid replay of KTH-SP2 on nodes half as
// fast saturates (offered load 1.40) and is warned of; the weekly series
// goes to --outstanding; the intervals say their method.
func TestSimulateSteadyState(t *testing.T) {
	f := filepath.Join(t.TempDir(), "weeks.csv")
	code, out, errOut := runCLI(t, "simulate", "builtin:KTH-SP2", "--speed", "0.5", "--json", "--outstanding", f)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, w := range []string{"offered load 1.402 is at or above 1", "saturated: the outstanding jobs grow"} {
		if !strings.Contains(errOut, w) {
			t.Errorf("stderr lacks %q:\n%s", w, errOut)
		}
	}
	var r simulateReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if !r.Steady.Saturated || len(r.Steady.Weeks) != 47 || r.Metrics.CI == nil || r.Metrics.CI.Wait.Method != "batch means" {
		t.Errorf("steady %+v, CI %+v", r.Steady.Saturated, r.Metrics.CI)
	}
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if lines[0] != "week,start,outstanding,waiting" || len(lines) != 48 {
		t.Errorf("weeks csv: %d lines, header %q", len(lines), lines[0])
	}
	if _, err := os.Stat(f + ".json"); err != nil {
		t.Error("no provenance sidecar")
	}
}

func TestSimulateJobCountTrim(t *testing.T) {
	code, out, errOut := runCLI(t, "simulate", "builtin:KTH-SP2", "--warmup-jobs", "1000", "--cooldown-jobs", "500", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r simulateReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Metrics.Jobs != 28475-1500 || r.Metrics.Excluded != 1500 {
		t.Errorf("jobs %d excluded %d", r.Metrics.Jobs, r.Metrics.Excluded)
	}
	// The mean wait's interval holds the point value.
	if ci := r.Metrics.CI.Wait; !(ci.Low < r.Metrics.Wait.Mean && r.Metrics.Wait.Mean < ci.High) {
		t.Errorf("interval %v .. %v around %v", ci.Low, ci.High, r.Metrics.Wait.Mean)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--warmup-jobs", "20000", "--cooldown-jobs", "9000"}, "leave none of the run's"},
		{[]string{"--warmup-jobs", "-1"}, "must be 0 or more"},
		{[]string{"--ci-level", "1.5"}, "--ci-level"},
		{[]string{"--warmup", "300d", "--cooldown", "100d"}, "leave no window"},
	} {
		code, _, errOut := runCLI(t, append([]string{"simulate", "builtin:KTH-SP2"}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q", c.args, code, errOut)
		}
	}
}

func TestEvaluateKillAndStartRule(t *testing.T) {
	code, out, errOut := runCLI(t, "evaluate", "builtin:KTH-SP2", "--kill", "--start-rule", "last", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r evaluateReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if !r.Kill || r.Feedback.Feedback.StartRule != "last" || r.Rigid.Metrics.Killed == 0 || r.Feedback.Metrics.Killed == 0 {
		t.Errorf("kill %v, start rule %q, killed %d and %d", r.Kill, r.Feedback.Feedback.StartRule, r.Rigid.Metrics.Killed, r.Feedback.Metrics.Killed)
	}
	if !r.Steady.Rigid.Saturated || r.Steady.Feedback.Saturated {
		t.Error("perf/2: the rigid replay should saturate and the feedback one not")
	}
	if code, _, errOut := runCLI(t, "evaluate", "builtin:KTH-SP2", "--start-rule", "first"); code != 2 || !strings.Contains(errOut, "unknown start rule") {
		t.Errorf("bad start rule: exit %d %q", code, errOut)
	}
}
