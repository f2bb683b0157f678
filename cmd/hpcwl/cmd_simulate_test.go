package main

import (
	"context"
	"io"

	"encoding/csv"
	"encoding/json"
	"github.com/hpcwl/hpcwl/batsim"
	"github.com/hpcwl/hpcwl/internal/testdata"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/trace"
)

func TestSimulateJSON(t *testing.T) {
	code, out, errOut := runCLI(t, "simulate", "--json", "--scheduler", "fcfs", "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r simulateReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Input.Jobs != 28476 || r.Input.Simulated != 28475 || len(r.Input.SHA256) != 64 || r.Version == "" {
		t.Errorf("input %+v version %q", r.Input, r.Version)
	}
	if r.Parameters.Scheduler != "fcfs" || r.Parameters.Procs != 100 || r.Parameters.Tau != 10 || r.Parameters.Kill {
		t.Errorf("parameters %+v", r.Parameters)
	}
	// Madon et al. Table 1, KTH FCFS rigid: mean wait 4.51 d, max 11.79 d,
	// makespan 333.10 d (see docs/validation.md).
	m := r.Metrics
	if d := m.Wait.Mean / 86400; d < 4.4 || d > 4.6 {
		t.Errorf("mean wait %.3f d, want about 4.51", d)
	}
	if d := m.Wait.Max / 86400; d < 11.7 || d > 11.9 {
		t.Errorf("max wait %.3f d, want about 11.79", d)
	}
	if len(m.PerUser) == 0 || len(m.PerMonth) != 12 {
		t.Errorf("%d users, %d months", len(m.PerUser), len(m.PerMonth))
	}
}

func TestSimulateTable(t *testing.T) {
	code, out, errOut := runCLI(t, "simulate", "builtin:KTH-SP2", "--by", "month")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"scheduler  easy (priority=fcfs);", "makespan      332.91 days", "bounded slowdown (10s)", "1997-03"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestSimulateOutputs(t *testing.T) {
	dir := t.TempDir()
	jobs, out := filepath.Join(dir, "jobs.csv"), filepath.Join(dir, "sim.swf")
	code, _, errOut := runCLI(t, "simulate", "--scheduler", "conservative", "--kill", "--jobs", jobs, "--swf", out,
		"testdata/../../../sched/testdata/compress.swf")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	f, err := os.Open(jobs)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != strings.Join(batsim.JobsColumns, ",") || len(rows) != 6 {
		t.Fatalf("header %v, %d rows", rows[0], len(rows))
	}
	// Job 2 of compress.swf: submitted at 1, starts at 20 after compression,
	// on processors 0-4 (job 3 takes 5-9).
	want := "2,compress,rigid,1,5,50,1,COMPLETED_SUCCESSFULLY,20,50,70,19,69,1.38,0-4,-1,"
	if got := strings.Join(rows[2], ","); got != want {
		t.Errorf("job 2:\n got %s\nwant %s", got, want)
	}
	if got := rows[3][14]; got != "5-9" {
		t.Errorf("job 3 on %q, want 5-9", got)
	}
	tr, err := trace.Load(out, trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() != 5 || tr.Jobs[1].Wait != 19 || tr.Jobs[4].Wait != 76 {
		t.Errorf("simulated SWF: %d jobs, waits %d %d", tr.Len(), tr.Jobs[1].Wait, tr.Jobs[4].Wait)
	}
	if notes := tr.Header.Notes(); !strings.Contains(notes[len(notes)-1], "--scheduler conservative") {
		t.Errorf("header notes %q", notes)
	}
}

func TestSimulateBadInput(t *testing.T) {
	dir := t.TempDir()
	wide := filepath.Join(dir, "wide.swf")
	os.WriteFile(wide, []byte("; MaxProcs: 4\n1 0 -1 10 8 -1 -1 8 10 -1 1 1 1 1 1 1 -1 -1\n2 5 -1 10 2 -1 -1 2 10 -1 1 1 1 1 1 1 -1 -1\n"), 0o644)
	empty := filepath.Join(dir, "empty.swf")
	os.WriteFile(empty, []byte("; Note: nothing\n"), 0o644)
	tests := []struct {
		name    string
		args    []string
		code    int
		message string
	}{
		{"unknown scheduler", []string{"simulate", "--scheduler", "magic", "builtin:KTH-SP2"}, 2, "valid: conservative, easy, easy-x2, fcfs, flex, maui"},
		{"unknown predictor", []string{"simulate", "--predictor", "oracle", "builtin:KTH-SP2"}, 2, "valid: constant, easy++, perfect, requested, ruh, sbh"},
		{"unknown predictor parameter", []string{"simulate", "--predictor", "ruh:depth=3", "builtin:KTH-SP2"}, 2, "valid: n (history length"},
		{"predictor parameter out of range", []string{"simulate", "--predictor", "ruh:n=0", "builtin:KTH-SP2"}, 2, "n=0: must be a whole number from 1 to 1000"},
		{"bad criteria", []string{"simulate", "--predictor", "sbh:crit=PQ", "builtin:KTH-SP2"}, 2, "valid: P (processors)"},
		{"estimate without estimates", []string{"simulate", "--predictor", "sbh-noest:crit=PE/*", "builtin:KTH-SP2"}, 2, "does not use"},
		{"negative constant", []string{"simulate", "--predictor", "constant:-1", "builtin:KTH-SP2"}, 2, ">= 0"},
		{"unknown miss policy", []string{"simulate", "--miss-policy", "x", "builtin:KTH-SP2"}, 2, "valid: gradual"},
		{"unknown oversize", []string{"simulate", "--oversize", "shrink", "builtin:KTH-SP2"}, 2, "valid: error, drop, clamp"},
		{"unknown procs field", []string{"simulate", "--procs-field", "used", "builtin:KTH-SP2"}, 2, "valid: allocated, requested, max"},
		{"unknown semantics", []string{"simulate", "--semantics", "batsim", "builtin:KTH-SP2"}, 2, "valid: hpcwl, pyss"},
		{"pyss with requested processors", []string{"simulate", "--semantics", "pyss", "--procs-field", "requested", "builtin:KTH-SP2"}, 2, "does not apply"},
		{"bad duration", []string{"simulate", "--warmup", "soon", "builtin:KTH-SP2"}, 2, "90s, 20m, 1h"},
		{"factor for fcfs", []string{"simulate", "--scheduler", "fcfs", "--estimate-factor", "2", "builtin:KTH-SP2"}, 2, "applies to"},
		{"bad speed", []string{"simulate", "--speed", "0", "builtin:KTH-SP2"}, 2, "--speed"},
		{"slack out of range", []string{"simulate", "--scheduler", "flex", "--param", "slack=-1", "builtin:KTH-SP2"}, 2, "slack=\"-1\": must be a number >= 0"},
		{"unknown parameter", []string{"simulate", "--scheduler", "wbas", "--param", "memory=5", "builtin:KTH-SP2"}, 2, "valid: maf (default 5000), switch (default 1d)"},
		{"bad metric", []string{"simulate", "--scheduler", "pbas", "--param", "metric=speed", "builtin:KTH-SP2"}, 2, "valid: wait, resp, sld, bsld, util"},
		{"bad candidates", []string{"simulate", "--scheduler", "pbas", "--param", "candidates=maui,sjf", "builtin:KTH-SP2"}, 2, "conservative, easy, flex, maui"},
		{"param without value", []string{"simulate", "--scheduler", "flex", "--param", "slack", "builtin:KTH-SP2"}, 2, "want NAME=VALUE"},
		{"too wide", []string{"simulate", "--oversize", "error", wide}, 1, "job 1 needs 8 processors but the machine has 4; pass --oversize drop"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCLI(t, tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.message) {
				t.Errorf("exit %d (want %d), stderr %q lacks %q", code, tc.code, errOut, tc.message)
			}
		})
	}
	// By default, as in evaluate and clean, too-wide jobs are dropped, with
	// a warning that counts them.
	if code, _, errOut := runCLI(t, "simulate", wide); code != 0 || !strings.Contains(errOut, "1 jobs wider than the machine (4 processors) left out") {
		t.Errorf("default oversize: exit %d, stderr %q", code, errOut)
	}
	for _, fix := range []string{"drop", "clamp"} {
		code, out, errOut := runCLI(t, "simulate", "--json", "--oversize", fix, wide)
		var r simulateReport
		if code != 0 || json.Unmarshal([]byte(out), &r) != nil {
			t.Fatalf("--oversize %s: exit %d: %s", fix, code, errOut)
		}
		if fix == "drop" && (r.Input.Simulated != 1 || r.Input.DroppedOversize != 1) ||
			fix == "clamp" && (r.Input.Simulated != 2 || r.Input.Clamped != 1) {
			t.Errorf("--oversize %s: %+v", fix, r.Input)
		}
	}
	// A trace without jobs is an error (no zero waits reported), and no
	// output is written.
	code, _, errOut := runCLI(t, "simulate", "--json", "--jobs", filepath.Join(dir, "e.csv"), "--swf", filepath.Join(dir, "e.swf"), empty)
	if code != exitError || !strings.Contains(errOut, "no job to simulate") {
		t.Fatalf("empty trace: exit %d: %s", code, errOut)
	}
	for _, f := range []string{"e.csv", "e.swf"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s was written", f)
		}
	}
}

// BenchmarkSimulateBlue is the end-to-end figure of docs/performance.md:
// `hpcwl simulate SDSC-BLUE --scheduler easy` in-process (read, simulate,
// metrics, summary table).
// Run: go test -run - -bench SimulateBlue -benchtime 5x ./cmd/hpcwl/
func BenchmarkSimulateBlue(b *testing.B) {
	path := testdata.Path(b, "SDSC-BLUE-2000-4.2-cln.swf.gz")
	opts := simulateOptions{scheduler: "easy", procsFactor: 1, speed: 1, predictor: "requested", missPolicy: "gradual",
		missingEstimate: "runtime", oversize: "error", tau: "10s", warmUp: "0", coolDown: "0"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := runSimulate(context.Background(), opts, path, io.Discard, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSimulateGains checks --baseline: WBAS against Maui on KTH-SP2 prints
// both gains, and the JSON gains agree with the two runs' own figures.
func TestSimulateGains(t *testing.T) {
	code, out, errOut := runCLI(t, "simulate", "--json", "--scheduler", "wbas", "--baseline", "maui", "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r simulateReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI(t, "simulate", "--json", "--scheduler", "maui", "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var base simulateReport
	if err := json.Unmarshal([]byte(out), &base); err != nil {
		t.Fatal(err)
	}
	g := r.Gains
	if g == nil || r.Baseline != "maui" || r.Switching == nil || r.Switching.Points == 0 {
		t.Fatalf("gains %+v baseline %q switching %+v", g, r.Baseline, r.Switching)
	}
	want := (base.Metrics.Wait.Mean - r.Metrics.Wait.Mean) / base.Metrics.Wait.Mean
	if g.BaseMeanWait != base.Metrics.Wait.Mean || g.Performance != want || g.Months != 12 {
		t.Errorf("gains %+v; baseline mean wait %v, performance gain %v", g, base.Metrics.Wait.Mean, want)
	}
	code, out, _ = runCLI(t, "simulate", "--scheduler", "wbas", "--baseline", "maui", "builtin:KTH-SP2")
	if code != 0 || !strings.Contains(out, "gains over maui") || !strings.Contains(out, "switching") {
		t.Errorf("table lacks the gains or switching lines:\n%s", out)
	}
}

// TestSimulatePredictors runs the history predictors through the command
// and checks the report names them, their miss policies and accuracies.
func TestSimulatePredictors(t *testing.T) {
	for _, tc := range []struct{ pred, spec, miss string }{
		{"ruh", "ruh:n=3,stat=median,cap=true,prop=false", "estimate-gradual"},
		{"easy++", "ruh:n=2,stat=mean,cap=true,prop=false", "estimate-gradual"},
		{"sbh:search=bfs", "sbh:crit=PE/P/E/*,search=bfs,depth=0,prop=true,cap=true,gap=1200", "estimate-gradual"},
		{"sbh-noest", "sbh-noest:crit=PX/P/X/*,search=dfs,depth=0,prop=false,gap=1200", "times10"},
		{"sbh:sessions=recorded", "sbh:crit=PE/P/E/*,search=dfs,depth=0,prop=true,cap=true,gap=1200,sessions=recorded", "estimate-gradual"},
		{"sbh-noest-balanced", "sbh-noest-balanced:crit=PX/P/X/*,search=dfs,depth=0,prop=false,gap=1200,limit=216000", "times10:216000"},
		{"constant", "constant:1", "gradual"},
	} {
		code, out, errOut := runCLI(t, "simulate", "--json", "--scheduler", "sjbf", "--predictor", tc.pred, "builtin:KTH-SP2")
		var r simulateReport
		if code != 0 || json.Unmarshal([]byte(out), &r) != nil {
			t.Fatalf("%s: exit %d: %s", tc.pred, code, errOut)
		}
		a := r.Metrics.Accuracy
		if r.Parameters.Predictor != tc.spec || r.Parameters.MissPolicy != tc.miss || !a.TimeWeighted ||
			a.Jobs != r.Metrics.Jobs || !(a.RelAccuracy > 0 && a.RelAccuracy <= 1) {
			t.Errorf("%s: predictor %q, misses %q, accuracy %+v", tc.pred, r.Parameters.Predictor, r.Parameters.MissPolicy, a)
		}
	}
}
