package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/metrics"
)

// TestSimulateMany: several schedulers give each one's report as a run of
// its own would, and the paired differences agree with those reports.
func TestSimulateMany(t *testing.T) {
	code, out, errOut := runCLI(t, "simulate", "builtin:KTH-SP2", "--scheduler", "easy,conservative,sjbf", "--kill", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var many struct {
		Runs []struct {
			Parameters struct {
				Scheduler string `json:"scheduler"`
			} `json:"parameters"`
			Metrics *metrics.Summary `json:"metrics"`
		} `json:"runs"`
		Paired []struct {
			A, B  string
			Diffs []metrics.Paired `json:"differences"`
		} `json:"paired"`
	}
	if err := json.Unmarshal([]byte(out), &many); err != nil {
		t.Fatal(err)
	}
	if len(many.Runs) != 3 || len(many.Paired) != 2 {
		t.Fatalf("%d runs and %d comparisons, want 3 and 2", len(many.Runs), len(many.Paired))
	}
	for i, name := range []string{"easy", "conservative", "sjbf"} {
		code, one, errOut := runCLI(t, "simulate", "builtin:KTH-SP2", "--scheduler", name, "--kill", "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errOut)
		}
		var single struct {
			Metrics *metrics.Summary `json:"metrics"`
		}
		if err := json.Unmarshal([]byte(one), &single); err != nil {
			t.Fatal(err)
		}
		if got := many.Runs[i]; got.Parameters.Scheduler != name || !reflect.DeepEqual(got.Metrics, single.Metrics) {
			t.Errorf("run %d (%s): metrics differ from simulate --scheduler %s", i, got.Parameters.Scheduler, name)
		}
	}
	for k, pr := range many.Paired {
		b := many.Runs[k+1].Metrics
		a := many.Runs[0].Metrics
		if pr.A != "easy" || pr.B != many.Runs[k+1].Parameters.Scheduler {
			t.Errorf("comparison %d: %s against %s", k, pr.B, pr.A)
		}
		w := pr.Diffs[0]
		if w.Metric != "wait" || w.Jobs != a.Jobs {
			t.Fatalf("comparison %d: first difference %+v", k, w)
		}
		// Every measured job is paired, so the means are the runs' means.
		if d := w.Diff.Mean - (b.Wait.Mean - a.Wait.Mean); d > 1e-6 || d < -1e-6 {
			t.Errorf("%s - easy: mean wait difference %v, difference of the means %v", pr.B, w.Diff.Mean, b.Wait.Mean-a.Wait.Mean)
		}
		if w.Diff.Note != "" || !(w.Diff.Low <= w.Diff.Mean && w.Diff.Mean <= w.Diff.High) {
			t.Errorf("%s - easy: interval %+v", pr.B, w.Diff)
		}
	}
	// SJBF waits less than EASY on KTH-SP2 (killed at the requested time):
	// the interval lies below 0.
	if w := many.Paired[1].Diffs[0]; !(w.Diff.High < 0) {
		t.Errorf("sjbf - easy wait: %+v, want an interval below 0", w.Diff)
	}
}

// TestSimulateManyUsage: what takes one scheduler refuses several.
func TestSimulateManyUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--scheduler", "easy,fcfs", "--jobs", "x.csv"}, "--jobs writes one run"},
		{[]string{"--scheduler", "easy,fcfs", "--baseline", "fcfs"}, "--baseline"},
		{[]string{"--scheduler", "easy,fcfs", "--param", "priority=f1"}, "--param"},
		{[]string{"--scheduler", "easy,EASY"}, "appears twice"},
		{[]string{"--scheduler", "easy,,fcfs"}, "empty name"},
		{[]string{"--scheduler", "easy,nope"}, `unknown scheduler "nope"`},
	} {
		code, _, errOut := runCLI(t, append([]string{"simulate", "builtin:KTH-SP2"}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}
