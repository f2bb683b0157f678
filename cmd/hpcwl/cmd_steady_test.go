package main

import (
	"cmp"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/hpcwl/hpcwl/feedback"
	"github.com/hpcwl/hpcwl/stats"
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

// TestEvaluatePerUserAndVersus: the per-user listing weighs back to the
// global mean lateness; --versus a0 reports the submit-time differences of
// every job; the files are written.
func TestEvaluatePerUserAndVersus(t *testing.T) {
	dir := t.TempDir()
	pu, diff := filepath.Join(dir, "pu.parquet"), filepath.Join(dir, "diff.csv")
	code, out, errOut := runCLI(t, "evaluate", "builtin:KTH-SP2", "--by", "user", "--versus", "a0", "--per-user", pu, "--diff", diff, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r evaluateReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	var sum float64
	n := 0
	for _, u := range r.PerUser {
		sum += u.Mean * float64(u.Jobs)
		n += u.Jobs
	}
	l := r.Feedback.Feedback.Lateness
	if n != l.Jobs || !(math.Abs(sum/float64(n)-l.Mean) <= 1e-6*math.Abs(l.Mean)) {
		t.Errorf("per-user lateness: %d jobs, mean %v; global %d, %v", n, sum/float64(n), l.Jobs, l.Mean)
	}
	if r.Versus == nil || r.Versus.Sessions != "a0" || r.Versus.Differences.N != 28476 {
		t.Errorf("versus %+v", r.Versus)
	}
	// Madon et al. (2024), section 7 (Figs. 4 and 5): per-user additional
	// lateness is of the order of hours with a 10th-90th percentile spread
	// above 10,000 s, and the per-user mean lateness grows with the user's
	// job count (docs/validation.md: median 8,475 s, spread 48,760 s,
	// Spearman 0.83 at a60).
	var delta, jobs, absMean []float64
	for _, u := range r.PerUser {
		if !math.IsNaN(u.Additional) {
			delta, jobs, absMean = append(delta, u.Additional), append(jobs, float64(u.Jobs)), append(absMean, math.Abs(u.Mean))
		}
	}
	sorted := slices.Clone(delta)
	slices.Sort(sorted)
	q := func(p float64) float64 { return stats.EmpiricalQuantileSorted(sorted, p) }
	if m := q(0.5); m < 3600 || m > 86400 || q(0.9)-q(0.1) < 10000 {
		t.Errorf("per-user additional lateness: median %v s, p10-p90 spread %v s", m, q(0.9)-q(0.1))
	}
	if rho := spearman(jobs, absMean); rho < 0.5 {
		t.Errorf("per-user |mean lateness| against jobs: Spearman %.2f, want a clear drift", rho)
	}
	if rows := readTable[feedback.UserLateness](t, pu); len(rows) != len(r.PerUser) {
		t.Errorf("%d rows in %s, %d users", len(rows), pu, len(r.PerUser))
	}
	if lines := csvLines(t, diff); len(lines) != 28477 {
		t.Errorf("%d lines in %s", len(lines), diff)
	}
	if code, _, errOut := runCLI(t, "evaluate", "builtin:KTH-SP2", "--diff", diff); code != 2 || !strings.Contains(errOut, "--diff needs --versus") {
		t.Errorf("--diff alone: exit %d %q", code, errOut)
	}
}

// spearman returns Spearman's rank correlation of x and y (ties in input
// order).
func spearman(x, y []float64) float64 {
	rank := func(v []float64) []float64 {
		idx := make([]int, len(v))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
		r := make([]float64, len(v))
		for k, i := range idx {
			r[i] = float64(k)
		}
		return r
	}
	return stat.Correlation(rank(x), rank(y), nil)
}

func TestSessionsGraphExport(t *testing.T) {
	dir := t.TempDir()
	js, dot := filepath.Join(dir, "g.json"), filepath.Join(dir, "u3.gv")
	if code, _, e := runCLI(t, "sessions", "builtin:KTH-SP2", "--method", "interarrival", "--graph", js); code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	var g struct {
		Source map[string]string `json:"source"`
		Nodes  string            `json:"nodes"`
		Users  []int32           `json:"users"`
		Node   []json.RawMessage `json:"node_list"`
		Edges  []struct {
			From, To int32
		} `json:"edges"`
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if g.Nodes != "sessions" || len(g.Users) != 214 || len(g.Node) == 0 || len(g.Edges) < len(g.Node) || g.Source["sha256"] == "" {
		t.Errorf("graph: %s, %d users, %d nodes, %d edges, source %v", g.Nodes, len(g.Users), len(g.Node), len(g.Edges), g.Source)
	}
	if code, _, e := runCLI(t, "sessions", "builtin:KTH-SP2", "--graph", dot, "--graph-user", "3", "--graph-of", "batches"); code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	d, _ := os.ReadFile(dot)
	if !strings.Contains(string(d), "digraph batches {") || !strings.Contains(string(d), "cluster_u3 ") || strings.Contains(string(d), "cluster_u4 ") {
		t.Errorf("DOT file:\n%.400s", d)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--graph", filepath.Join(dir, "g.txt")}, 2, ".json or .dot"},
		{[]string{"--graph-user", "3"}, 2, "need --graph FILE"},
		{[]string{"--graph", filepath.Join(dir, "n.dot"), "--graph-user", "99999"}, 1, "no user [99999]"},
		{[]string{"--graph", filepath.Join(dir, "n.dot"), "--graph-of", "jobs"}, 2, "unknown --graph-of"},
	} {
		code, _, errOut := runCLI(t, append([]string{"sessions", "builtin:KTH-SP2"}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d %q", c.args, code, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "n.dot")); err == nil {
		t.Error("a graph was written for an unknown user")
	}
}
