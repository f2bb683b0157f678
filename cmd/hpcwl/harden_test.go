package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/swf"
)

// TestFlagParseMessages checks that a flag value that does not parse gives
// our own message, naming the flag and what it expects, never strconv's.
func TestFlagParseMessages(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"generate", "lublin", "--seed", "-1"}, `--seed: "-1" is not a whole number >= 0`},
		{[]string{"generate", "lublin", "--procs", "1e20"}, `--procs: "1e20" is not a whole number`},
		{[]string{"generate", "lublin", "--procs", "100000000000000000000"}, `--procs: "100000000000000000000" is out of range`},
		{[]string{"generate", "lublin", "--load", "abc"}, `--load: "abc" is not a number`},
		{[]string{"simulate", "--json=maybe", "builtin:KTH-SP2"}, `--json: "maybe" is not true or false`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, errOut := runCLI(t, tt.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(errOut, tt.want) {
				t.Errorf("stderr %q lacks %q", errOut, tt.want)
			}
			if strings.Contains(errOut, "strconv") {
				t.Errorf("stderr %q quotes strconv", errOut)
			}
		})
	}
}

// TestZeroIsNotDefault checks the rule shared by every command: a flag whose
// default is "not given" refuses an explicit 0 instead of taking it for the
// default.
func TestZeroIsNotDefault(t *testing.T) {
	tests := [][]string{
		{"evaluate", "--speed", "0", "builtin:KTH-SP2"},
		{"evaluate", "--procs-factor", "0", "builtin:KTH-SP2"},
		{"evaluate", "--estimate-factor", "0", "builtin:KTH-SP2"},
		{"generate", "lublin", "--jobs", "0"},
		{"generate", "lublin", "--duration", "0"},
		{"generate", "lublin", "--duration", "0d"},
		{"generate", "lublin", "--procs", "0"},
		{"generate", "lublin", "--load", "0"},
		{"simulate", "--tau", "0", "builtin:KTH-SP2"},
		{"simulate", "--estimate-factor", "0", "builtin:KTH-SP2"},
		{"simulate", "--procs", "0", "builtin:KTH-SP2"},
		{"info", "--procs", "0", "builtin:KTH-SP2"},
		{"replicate", "--tau", "0", "builtin:KTH-SP2"},
		{"replicate", "--workers", "0", "builtin:KTH-SP2"},
		{"fit", "lublin", "--typed", "--interactive-procs", "0", "builtin:KTH-SP2"},
		{"generate", "lublin", "--users", "0"},
	}
	for _, args := range tests {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, _, errOut := runCLI(t, args...)
			if code != exitUsage || !strings.Contains(errOut, "must be above 0") {
				t.Errorf("exit %d, stderr %q; want exit %d and \"must be above 0\"", code, errOut, exitUsage)
			}
		})
	}
}

// TestResampleDurationRange checks that the message refusing a duration
// states bounds the refused value lies outside of.
func TestResampleDurationRange(t *testing.T) {
	code, _, errOut := runCLI(t, "resample", "builtin:KTH-SP2", "--duration", "100y", "-o", t.TempDir()+"/x.swf")
	if code != exitUsage {
		t.Fatalf("exit %d, want %d: %s", code, exitUsage, errOut)
	}
	if !strings.Contains(errOut, "valid: 1w to 5200w (99.7 years") {
		t.Errorf("stderr %q does not give the bounds", errOut)
	}
}

// TestOutputChecks checks the refusals made before any computation: an
// output that is an input, an output that cannot be written, and two
// outputs on standard output.
func TestOutputChecks(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.swf")
	if code, _, e := runCLI(t, "generate", "lublin", "--jobs", "50", "-o", in); code != 0 {
		t.Fatal(e)
	}
	orig, _ := os.ReadFile(in)
	link := filepath.Join(dir, "link.swf")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "no-such-dir", "out.swf")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"convert", in, "-o", in}, exitUsage, "is the input"},
		{[]string{"convert", in, "-o", link}, exitUsage, "is the input"},
		{[]string{"clean", in, "-o", in}, exitUsage, "is the input"},
		{[]string{"resample", in, "-o", in}, exitUsage, "is the input"},
		{[]string{"simulate", in, "--swf", in}, exitUsage, "is the input"},
		{[]string{"simulate", in, "--jobs", in + ".csv", "--swf", in + ".csv"}, exitUsage, "name the same file"},
		{[]string{"sessions", in, "--swf", link}, exitUsage, "is the input"},
		{[]string{"simulate", in, "--jobs", missing}, exitError, "cannot write"},
		{[]string{"convert", in, "-o", missing}, exitError, "cannot write"},
		{[]string{"evaluate", in, "--jobs", missing}, exitError, "cannot write"},
		{[]string{"replicate", in, "--csv", missing}, exitError, "cannot write"},
		{[]string{"simulate", in, "--jobs", "-", "--swf", "-"}, exitUsage, "only one output can go to standard output"},
		{[]string{"evaluate", in, "--jobs", "-", "--curve", "-"}, exitUsage, "only one output can go to standard output"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, errOut := runCLI(t, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, tt.code, tt.want)
			}
			if now, _ := os.ReadFile(in); !bytes.Equal(now, orig) {
				t.Fatal("the input was changed")
			}
		})
	}
}

// TestSummaryMovesToStderr checks the one rule for standard output: when
// data goes there, the summary (table or JSON) goes to standard error.
func TestSummaryMovesToStderr(t *testing.T) {
	code, out, errOut := runCLI(t, "simulate", "builtin:KTH-SP2", "--jobs", "-", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "job_id,") || strings.Contains(out, "{") {
		t.Errorf("stdout does not hold jobs.csv alone: %.200q", out)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(errOut), &rep); err != nil || rep["input"] == nil {
		t.Errorf("stderr does not hold the JSON summary: %v: %.300q", err, errOut)
	}
}

// TestZeroJobOutputs checks that a command whose output would hold no jobs
// fails (exit 1) and writes nothing.
func TestZeroJobOutputs(t *testing.T) {
	dir := t.TempDir()
	tests := [][]string{
		{"generate", "lublin", "--duration", "1s", "-o"},
		{"resample", "builtin:KTH-SP2", "--load", "0.001", "-o"},
		{"clean", "builtin:KTH-SP2", "--end", "1", "-o"},
	}
	for i, args := range tests {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			out := filepath.Join(dir, fmt.Sprintf("out%d.swf", i))
			code, _, errOut := runCLI(t, append(args, out)...)
			if code != exitError || !strings.Contains(errOut, "no jobs") {
				t.Errorf("exit %d, stderr %q; want exit %d and \"no jobs\"", code, errOut, exitError)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("an output file was written")
			}
		})
	}
}

// TestJobsCSVQuotedAndFinite checks that simulate's jobs.csv quotes a
// workload name holding a comma (so every row keeps its columns) and
// writes a finite stretch for zero-runtime jobs.
func TestJobsCSVQuotedAndFinite(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "a,b.swf")
	log := "; MaxProcs: 4\n1 0 -1 0 2 -1 -1 2 60 -1 1 1 1 -1 -1 -1 -1 -1\n2 0 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n3 5 -1 0 4 -1 -1 4 60 -1 1 1 1 -1 -1 -1 -1 -1\n"
	if err := os.WriteFile(in, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "jobs.csv")
	if code, _, e := runCLI(t, "simulate", in, "--jobs", out); code != 0 {
		t.Fatal(e)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	for _, r := range rows[1:] {
		if r[1] != "a,b" {
			t.Errorf("workload_name %q, want \"a,b\"", r[1])
		}
		st, err := strconv.ParseFloat(r[13], 64)
		if err != nil || math.IsInf(st, 0) || st < 1 {
			t.Errorf("job %s: stretch %q, want a finite number >= 1", r[0], r[13])
		}
	}
	// Job 3 waits 95 s for job 2 and runs 0 s: stretch max(1, 95/1).
	if rows[3][13] != "95" {
		t.Errorf("job 3 stretch %q, want 95", rows[3][13])
	}
}

// TestOrderWarnings checks that duplicate job numbers and submit times out
// of order are reported as warnings, and the command still runs.
func TestOrderWarnings(t *testing.T) {
	in := filepath.Join(t.TempDir(), "w.swf")
	log := "; MaxProcs: 4\n1 10 -1 5 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n2 0 -1 5 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n2 20 -1 5 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n"
	if err := os.WriteFile(in, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, "info", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, w := range []string{"warning: ", "reuse an earlier job number (first: job 2)", "not in submit order"} {
		if !strings.Contains(errOut, w) {
			t.Errorf("stderr %q lacks %q", errOut, w)
		}
	}
}

// TestSimulateNothing checks that a simulation in which every job is
// dropped fails instead of reporting zero waits.
func TestSimulateNothing(t *testing.T) {
	in := filepath.Join(t.TempDir(), "w.swf")
	log := "; MaxProcs: 4\n1 10 -1 -1 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n2 20 -1 5 8 -1 -1 8 60 -1 1 1 1 -1 -1 -1 -1 -1\n"
	if err := os.WriteFile(in, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"simulate", in, "--oversize", "drop"}, {"evaluate", in}} {
		code, out, errOut := runCLI(t, args...)
		if code != exitError || !strings.Contains(errOut, "no job to simulate") {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and \"no job to simulate\"", args[0], code, errOut, exitError)
		}
		if out != "" {
			t.Errorf("%s: stdout %q, want nothing", args[0], out)
		}
	}
}

// TestEvaluateRejectedSplit checks that evaluate counts the jobs without a
// runtime apart from the jobs too wide for the changed machine, by the same
// rule in the recorded column as in the simulated ones.
func TestEvaluateRejectedSplit(t *testing.T) {
	code, out, errOut := runCLI(t, "evaluate", "builtin:KTH-SP2", "--procs-factor", "0.5", "--prefix", "3000", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	type col struct {
		Rejected   int `json:"rejected"`
		Incomplete int `json:"rejected_incomplete"`
		TooWide    int `json:"rejected_too_wide"`
	}
	var rep struct{ Recorded, Rigid, Feedback col }
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Recorded.TooWide != 0 {
		t.Errorf("recorded column: %d too wide, want 0", rep.Recorded.TooWide)
	}
	for name, c := range map[string]col{"recorded": rep.Recorded, "rigid": rep.Rigid, "feedback": rep.Feedback} {
		if c.Incomplete != rep.Recorded.Incomplete {
			t.Errorf("%s: %d incomplete jobs, the recorded column %d", name, c.Incomplete, rep.Recorded.Incomplete)
		}
		if c.Rejected != c.Incomplete+c.TooWide {
			t.Errorf("%s: rejected %d != %d + %d", name, c.Rejected, c.Incomplete, c.TooWide)
		}
	}
	if rep.Rigid.TooWide == 0 || rep.Feedback.TooWide != rep.Rigid.TooWide {
		t.Errorf("too wide: rigid %d, feedback %d; want equal and above 0 on half the machine", rep.Rigid.TooWide, rep.Feedback.TooWide)
	}
}

// TestCleanWindowPeriod checks that a log cut to a window by clean has the
// window as its period: its days, start time and load are the window's, and
// every job keeps its wall-clock submit time.
func TestCleanWindowPeriod(t *testing.T) {
	out := filepath.Join(t.TempDir(), "w.swf")
	const from, to = 20000000, 25000000
	if code, _, e := runCLI(t, "clean", "builtin:KTH-SP2", "--start", strconv.Itoa(from), "--end", strconv.Itoa(to), "-o", out); code != 0 {
		t.Fatal(e)
	}
	type info struct {
		Jobs        int     `json:"jobs"`
		FirstSubmit int64   `json:"first_submit"`
		StartTime   string  `json:"start_time"`
		EndTime     string  `json:"end_time"`
		Days        float64 `json:"days"`
		Load        float64 `json:"offered_load"`
	}
	get := func(name string) info {
		code, o, e := runCLI(t, "info", "--json", name)
		var s info
		if code != 0 || json.Unmarshal([]byte(o), &s) != nil {
			t.Fatalf("info %s: exit %d: %s", name, code, e)
		}
		return s
	}
	w := get(out)
	if w.Days > float64(to-from)/86400 {
		t.Errorf("period %.1f days, longer than the %.1f-day window", w.Days, float64(to-from)/86400)
	}
	if w.FirstSubmit < 0 || w.FirstSubmit > 86400 {
		t.Errorf("first submit %d s after the log's start, want within a day of the window's start", w.FirstSubmit)
	}
	// The processor-time of the window over the window, not over the
	// source's history: near the whole log's load, far above its share.
	whole := get("builtin:KTH-SP2")
	if w.Load < whole.Load/2 {
		t.Errorf("window load %.3f, whole log %.3f: diluted by the source's history", w.Load, whole.Load)
	}
}

// TestLublinPipelineNonPowerOfTwo runs fit lublin, generate and simulate on
// KTH-SP2 (100 processors, not a power of two): the generated log fits the
// machine, reproduces the log's arrival rate, reports both rate and load,
// and runs under EASY.
func TestLublinPipelineNonPowerOfTwo(t *testing.T) {
	dir := t.TempDir()
	params, gen := filepath.Join(dir, "kth.json"), filepath.Join(dir, "gen.swf")
	if code, _, e := runCLI(t, "fit", "lublin", "builtin:KTH-SP2", "-o", params); code != 0 {
		t.Fatal(e)
	}
	code, _, errOut := runCLI(t, "generate", "lublin", "--params", params, "--jobs", "20000", "-o", gen)
	if code != 0 {
		t.Fatal(errOut)
	}
	for _, w := range []string{"arrival rate:", "fitted log", "offered load:"} {
		if !strings.Contains(errOut, w) {
			t.Errorf("generate's report %q lacks %q", errOut, w)
		}
	}
	type info struct {
		Jobs        int                   `json:"jobs"`
		Procs       int                   `json:"procs"`
		FirstSubmit int64                 `json:"first_submit"`
		LastSubmit  int64                 `json:"last_submit"`
		Sizes       struct{ Max float64 } `json:"processors"`
	}
	get := func(name string) info {
		code, o, e := runCLI(t, "info", "--json", name)
		var s info
		if code != 0 || json.Unmarshal([]byte(o), &s) != nil {
			t.Fatalf("info %s: exit %d: %s", name, code, e)
		}
		return s
	}
	g, k := get(gen), get("builtin:KTH-SP2")
	if g.Procs != 100 || g.Sizes.Max > 100 {
		t.Errorf("generated log: machine %d, largest job %v; want both within 100", g.Procs, g.Sizes.Max)
	}
	rate := func(s info) float64 { return float64(s.Jobs-1) / float64(s.LastSubmit-s.FirstSubmit) * 86400 }
	if r, want := rate(g), rate(k); !(math.Abs(r-want) <= 0.1*want) {
		t.Errorf("generated %.1f jobs/day, the log %.1f", r, want)
	}
	if code, _, e := runCLI(t, "simulate", gen, "--scheduler", "easy"); code != 0 {
		t.Errorf("simulate under EASY: exit %d: %s", code, e)
	}

	// With requested times from the estimate model and users, the log
	// feeds EASY with estimates, sessions and evaluate.
	est := filepath.Join(dir, "est.swf")
	if code, _, e := runCLI(t, "generate", "lublin", "--params", params, "--jobs", "5000", "--estimates", "tsafrir", "--users", "50", "-o", est); code != 0 {
		t.Fatal(e)
	}
	f, err := swf.Open(est)
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := f.ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	values := map[int64]bool{}
	for _, j := range jobs {
		if j.ReqTime < j.Runtime || j.User < 1 || j.User > 50 {
			t.Fatalf("job %d: runtime %d, requested %d, user %d", j.ID, j.Runtime, j.ReqTime, j.User)
		}
		values[j.ReqTime] = true
	}
	if len(values) > Values5000 {
		t.Errorf("%d distinct requested times, want at most %d (the model's modal values)", len(values), Values5000)
	}
	for _, args := range [][]string{{"simulate", est, "--scheduler", "easy", "--predictor", "requested"}, {"sessions", est}, {"evaluate", est, "--prefix", "2000"}} {
		if code, _, e := runCLI(t, args...); code != 0 {
			t.Errorf("%s: exit %d: %s", strings.Join(args, " "), code, e)
		}
	}
}

// Values5000 is the estimate model's number of distinct values for 5,000
// jobs: between its points (1,000, 35) and (10,000, 90).
const Values5000 = 59

// TestFeedbackScheduleRecorded checks that simulate --replay feedback --swf
// writes the simulated schedule: each job's submit time plus wait is its
// simulated start (as jobs.csv gives it), the header records the feedback
// options, and the weekly cycle comes as 168 bins in JSON and CSV.
func TestFeedbackScheduleRecorded(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.swf")
	if code, _, e := runCLI(t, "clean", "builtin:KTH-SP2", "--end", "3000000", "-o", small); code != 0 {
		t.Fatal(e)
	}
	out, jobsCSV, cyc := filepath.Join(dir, "fb.swf"), filepath.Join(dir, "jobs.csv"), filepath.Join(dir, "cycle.csv")
	code, stdout, errOut := runCLI(t, "simulate", small, "--replay", "feedback", "--users", "fluid", "--swf", out, "--jobs", jobsCSV, "--cycle", cyc, "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var rep struct {
		Feedback struct {
			Cycle    []float64 `json:"weekly_cycle"`
			Recorded []float64 `json:"recorded_weekly_cycle"`
		} `json:"feedback"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Feedback.Cycle) != 168 || len(rep.Feedback.Recorded) != 168 {
		t.Errorf("JSON weekly cycles: %d and %d bins (%v), want 168", len(rep.Feedback.Cycle), len(rep.Feedback.Recorded), err)
	}
	start := map[string]string{}
	f, err := os.Open(jobsCSV)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows[1:] {
		start[r[0]] = r[8]
	}
	sf, err := swf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := sf.ReadAll()
	sf.Close()
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, j := range jobs {
		if strconv.FormatInt(j.Submit+j.Wait, 10) != start[strconv.FormatInt(j.ID, 10)] {
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d jobs: submit + wait is not the simulated start", bad, len(jobs))
	}
	data, _ := os.ReadFile(out)
	if !strings.Contains(string(data), "--replay feedback --users fluid") {
		t.Error("the header does not record the feedback options")
	}
	c, _ := os.ReadFile(cyc)
	if n := strings.Count(string(c), "\n"); n != 169 {
		t.Errorf("cycle CSV has %d lines, want 169", n)
	}
	if code, _, e := runCLI(t, "compare", small, out); code != 0 {
		t.Errorf("compare on the simulated workload: exit %d: %s", code, e)
	}
}

// TestReplicateRecord checks that replicate --feedback --record writes each
// TBUOS variant's simulated schedule as a log whose submit plus wait never
// precedes the submit, in submit order, that info and compare accept.
func TestReplicateRecord(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec")
	if err := os.Mkdir(rec, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, e := runCLI(t, "replicate", "builtin:KTH-SP2", "--variants", "2", "--feedback", "--duration", "8w", "--record", rec, "--no-original"); code != 0 {
		t.Fatal(e)
	}
	for _, v := range []string{"variant-0000.swf", "variant-0001.swf"} {
		name := filepath.Join(rec, v)
		f, err := swf.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		jobs, err := f.ReadAll()
		f.Close()
		if err != nil || len(jobs) == 0 {
			t.Fatalf("%s: %d jobs, %v", v, len(jobs), err)
		}
		for k, j := range jobs {
			if j.Wait < 0 || j.Runtime < 0 || j.User < 1 || (k > 0 && j.Submit < jobs[k-1].Submit) {
				t.Fatalf("%s: job %+v", v, j)
			}
		}
		if code, _, e := runCLI(t, "compare", "builtin:KTH-SP2", name); code != 0 {
			t.Errorf("compare %s: %s", v, e)
		}
	}
	if code, _, e := runCLI(t, "replicate", "builtin:KTH-SP2", "--record", rec); code != exitUsage {
		t.Errorf("--record without --feedback: exit %d: %s", code, e)
	}
}
