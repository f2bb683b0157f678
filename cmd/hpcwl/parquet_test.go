package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"github.com/hpcwl/hpcwl/batsim"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/trace"
	"github.com/parquet-go/parquet-go"
)

// parquetMeta opens the Parquet file name and returns its key-value
// metadata and row count.
func parquetMeta(t *testing.T, name string) (map[string]string, int64) {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, kv := range pf.Metadata().KeyValueMetadata {
		m[kv.Key] = kv.Value
	}
	return m, pf.NumRows()
}

// TestConvertParquet converts the built-in KTH-SP2 log through Parquet, CSV
// and Batsim JSON and back to SWF, which must equal the original SWF text,
// and checks the provenance recorded in the Parquet files.
func TestConvertParquet(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	steps := [][2]string{
		{"builtin:KTH-SP2", p("kth.swf")},
		{"builtin:KTH-SP2", p("kth.parquet")},
		{p("kth.parquet"), p("kth.csv")},
		{p("kth.csv"), p("kth2.parquet")},
		{p("kth2.parquet"), p("kth.json")},
		{p("kth.json"), p("kth3.parquet")},
		{p("kth3.parquet"), p("back.swf")},
	}
	for _, s := range steps {
		if code, _, stderr := runHpcwl("convert", s[0], "-o", s[1]); code != 0 {
			t.Fatalf("convert %s -o %s: exit %d: %s", s[0], s[1], code, stderr)
		}
	}
	// Each conversion adds its provenance lines to the header; the rest is
	// the original.
	want, _ := os.ReadFile(p("kth.swf"))
	got, _ := os.ReadFile(p("back.swf"))
	want, got = withoutProvenance(want), withoutProvenance(got)
	if len(want) == 0 || !bytes.Equal(got, want) {
		t.Fatalf("SWF -> Parquet -> CSV -> Parquet -> Batsim -> Parquet -> SWF changed the log (%d bytes, want %d)", len(got), len(want))
	}
	meta, rows := parquetMeta(t, p("kth2.parquet"))
	if rows != 28476 {
		t.Errorf("%d rows", rows)
	}
	csvData, _ := os.ReadFile(p("kth.csv"))
	sum := sha256.Sum256(csvData)
	for k, v := range map[string]string{
		"hpcwl.input":        p("kth.csv"),
		"hpcwl.input_sha256": hex.EncodeToString(sum[:]),
		"hpcwl.command":      "hpcwl convert " + p("kth.csv") + " -o " + p("kth2.parquet"),
	} {
		if meta[k] != v {
			t.Errorf("metadata %s = %q, want %q", k, meta[k], v)
		}
	}
	if !strings.HasPrefix(meta["hpcwl.version"], "0.") || !strings.Contains(meta["swf_header"], "; MaxProcs: 100") {
		t.Errorf("metadata %v", meta)
	}
	// A Parquet file is recognized by its magic bytes whatever its name, by
	// every command that reads a trace.
	if err := os.Rename(p("kth3.parquet"), p("kth.data")); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runHpcwl("info", p("kth.data"))
	if code != 0 || !strings.Contains(stdout, "28476") {
		t.Errorf("info on a Parquet file: exit %d: %s %s", code, stdout, stderr)
	}
}

func TestParquetBadFilesCLI(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "kth.parquet")
	if code, _, stderr := runHpcwl("convert", "builtin:KTH-SP2", "-o", good); code != 0 {
		t.Fatal(stderr)
	}
	data, _ := os.ReadFile(good)
	cut := filepath.Join(dir, "cut.parquet")
	os.WriteFile(cut, data[:len(data)/2], 0o644)
	notpq := filepath.Join(dir, "text.parquet")
	os.WriteFile(notpq, []byte("1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n"), 0o644)
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[struct {
		JobNumber int64  `parquet:"job_number"`
		RunTime   string `parquet:"run_time"`
	}](&buf)
	w.Write([]struct {
		JobNumber int64  `parquet:"job_number"`
		RunTime   string `parquet:"run_time"`
	}{{1, "ten"}})
	w.Close()
	mistyped := filepath.Join(dir, "mistyped.parquet")
	os.WriteFile(mistyped, buf.Bytes(), 0o644)
	tests := []struct {
		name, file string
		want       []string
	}{
		{"truncated", cut, []string{"cut.parquet", "not a complete Parquet file", "truncated"}},
		{"not Parquet", notpq, []string{"text.parquet", `does not start with "PAR1"`}},
		{"mistyped column", mistyped, []string{"mistyped.parquet", `"run_time" (SWF field 4, Run Time) has type STRING`}},
		{"parquet.gz output", "", []string{"compressed inside"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"simulate", tt.file}
			code := 1
			if tt.file == "" {
				args, code = []string{"convert", "builtin:KTH-SP2", "-o", filepath.Join(dir, "x.parquet.gz")}, 2
			}
			got, _, stderr := runHpcwl(args...)
			if got != code {
				t.Errorf("exit %d, want %d: %s", got, code, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
		})
	}
	if _, err := trace.LoadParquet(cut, trace.Options{}); err == nil {
		t.Error("no error")
	}
}

// TestSimulateJobsParquet checks that --jobs x.parquet holds the rows and
// values of --jobs x.csv, and the run's provenance.
func TestSimulateJobsParquet(t *testing.T) {
	dir := t.TempDir()
	csvName, pqName := filepath.Join(dir, "jobs.csv"), filepath.Join(dir, "jobs.parquet")
	for _, out := range []string{csvName, pqName} {
		if code, _, stderr := runHpcwl("simulate", "builtin:KTH-SP2", "--scheduler", "fcfs", "--jobs", out); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	csvData, _ := os.ReadFile(csvName)
	lines := strings.Split(strings.TrimSuffix(string(csvData), "\n"), "\n")
	if lines[0] != strings.Join(batsim.JobsColumns, ",") {
		t.Fatalf("CSV columns %q", lines[0])
	}
	f, err := os.Open(pqName)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := parquet.NewGenericReader[batsim.JobRow](f)
	defer r.Close()
	rows := make([]batsim.JobRow, r.NumRows())
	if n, err := r.Read(rows); n != len(rows) || (err != nil && err != io.EOF) {
		t.Fatalf("read %d of %d rows: %v", n, len(rows), err)
	}
	if len(rows) != len(lines)-1 || len(rows) < 28000 {
		t.Fatalf("%d Parquet rows, %d CSV rows", len(rows), len(lines)-1)
	}
	for i, row := range rows {
		stretch := strconv.FormatFloat(row.Stretch, 'g', 10, 64)
		cells := []string{strconv.FormatInt(row.JobID, 10), row.WorkloadName, row.Profile,
			strconv.FormatInt(row.SubmissionTime, 10), strconv.FormatInt(row.RequestedResources, 10),
			strconv.FormatInt(row.RequestedTime, 10), strconv.Itoa(int(row.Success)), row.FinalState,
			strconv.FormatInt(row.StartingTime, 10), strconv.FormatInt(row.ExecutionTime, 10),
			strconv.FormatInt(row.FinishTime, 10), strconv.FormatInt(row.WaitingTime, 10),
			strconv.FormatInt(row.TurnaroundTime, 10), stretch, row.AllocatedResources,
			strconv.FormatFloat(row.ConsumedEnergy, 'g', -1, 64), row.Metadata}
		if got := strings.Join(cells, ","); got != lines[i+1] {
			t.Fatalf("row %d: Parquet %q, CSV %q", i, got, lines[i+1])
		}
	}
	meta, _ := parquetMeta(t, pqName)
	if meta["hpcwl.input"] != "builtin:KTH-SP2" || len(meta["hpcwl.input_sha256"]) != 64 ||
		!strings.Contains(meta["hpcwl.parameters"], `"scheduler":"fcfs"`) {
		t.Errorf("metadata %v", meta)
	}
}

// TestReplicateParquet checks that --runs and --csv write Parquet tables
// holding the values of the CSV tables.
func TestReplicateParquet(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	code, _, stderr := runHpcwl("replicate", "builtin:KTH-SP2", "--variants", "3", "--duration", "10w", "--workers", "1",
		"--runs", p("runs.csv"), "--csv", p("summary.csv"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, _, stderr = runHpcwl("replicate", "builtin:KTH-SP2", "--variants", "3", "--duration", "10w", "--workers", "1",
		"--runs", p("runs.parquet"), "--csv", p("summary.parquet"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	runs := readTable[replicateRun](t, p("runs.parquet"))
	lines := csvLines(t, p("runs.csv"))
	if len(runs) != 4 || len(lines) != 5 {
		t.Fatalf("%d Parquet rows, %d CSV lines", len(runs), len(lines))
	}
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 8, 64) }
	for i, r := range runs {
		got := strings.Join([]string{r.Variant, g(float64(r.Throughput)), g(r.Utilization), g(r.Wait), g(r.Response),
			g(r.Slowdown), g(r.BoundedSlowdown), g(float64(r.Jobs)), strconv.FormatBool(r.Saturated),
			strconv.FormatFloat(r.SaturationSlope, 'g', 6, 64)}, ",")
		if got != lines[i+1] {
			t.Errorf("run %d: Parquet %q, CSV %q", i, got, lines[i+1])
		}
	}
	sum := readTable[replicateSummary](t, p("summary.parquet"))
	lines = csvLines(t, p("summary.csv"))
	if len(sum) != len(lines)-1 || len(sum) == 0 {
		t.Fatalf("%d Parquet rows, %d CSV lines", len(sum), len(lines))
	}
	for i, d := range sum {
		got := strings.Join([]string{d.Metric, g(d.Original), strconv.FormatInt(d.N, 10), g(d.Mean), g(d.CILow), g(d.CIHigh),
			g(d.SD), g(d.Min), g(d.P2_5), g(d.P25), g(d.Median), g(d.P75), g(d.P97_5), g(d.Max), g(d.MaxMinRatio), g(d.OriginalRank)}, ",")
		if got != lines[i+1] {
			t.Errorf("summary %d: Parquet %q, CSV %q", i, got, lines[i+1])
		}
	}
	meta, _ := parquetMeta(t, p("runs.parquet"))
	if meta["hpcwl.input"] != "builtin:KTH-SP2" || !strings.Contains(meta["hpcwl.settings"], `"variants":3`) || meta["hpcwl.parameters"] == "" {
		t.Errorf("metadata %v", meta)
	}
}

func readTable[T any](t *testing.T, name string) []T {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := parquet.NewGenericReader[T](f)
	defer r.Close()
	rows := make([]T, r.NumRows())
	if n, err := r.Read(rows); n != len(rows) || (err != nil && err != io.EOF) {
		t.Fatalf("%s: read %d of %d rows: %v", name, n, len(rows), err)
	}
	return rows
}

func csvLines(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// TestTraceCommandsParquet checks that every command writing a trace writes
// the same trace as Parquet as it does as SWF, with its provenance.
func TestTraceCommandsParquet(t *testing.T) {
	dir := t.TempDir()
	kth, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string // the output file name is appended
		input string   // hpcwl.input expected ("" for none)
	}{
		{"convert", []string{"convert", "builtin:KTH-SP2", "-o"}, "builtin:KTH-SP2"},
		{"clean", []string{"clean", "builtin:KTH-SP2", "-o"}, "builtin:KTH-SP2"},
		{"generate", []string{"generate", "lublin", "--jobs", "500", "--seed", "4", "-o"}, ""},
		{"resample", []string{"resample", "builtin:KTH-SP2", "--seed", "3", "--duration", "4w", "-o"}, "builtin:KTH-SP2"},
		{"simulate --swf", []string{"simulate", "builtin:KTH-SP2", "--scheduler", "fcfs", "--swf"}, "builtin:KTH-SP2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var traces [2]*trace.Trace
			for k, ext := range []string{".swf", ".parquet"} {
				out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+ext)
				args := append(append([]string{}, tc.args...), out)
				if code, _, stderr := runHpcwl(args...); code != 0 {
					t.Fatalf("%v: exit %d: %s", args, code, stderr)
				}
				tr, err := loadAnyTrace(out)
				if err != nil {
					t.Fatal(err)
				}
				traces[k] = tr
				if ext == ".parquet" {
					meta, _ := parquetMeta(t, out)
					if meta["hpcwl.input"] != tc.input {
						t.Errorf("hpcwl.input = %q, want %q", meta["hpcwl.input"], tc.input)
					}
					if sha := meta["hpcwl.input_sha256"]; (tc.input != "") != (sha == kth.SHA256) {
						t.Errorf("hpcwl.input_sha256 = %q (KTH-SP2's: %s)", sha, kth.SHA256)
					}
					if meta["hpcwl.command"] != "hpcwl "+strings.Join(args, " ") {
						t.Errorf("hpcwl.command = %q", meta["hpcwl.command"])
					}
				}
			}
			a, b := traces[0], traces[1]
			if a.Len() == 0 || a.Len() != b.Len() || len(a.Header.Lines) != len(b.Header.Lines) {
				t.Fatalf("SWF %d jobs, %d header lines; Parquet %d, %d", a.Len(), len(a.Header.Lines), b.Len(), len(b.Header.Lines))
			}
			for i := range a.Jobs {
				if a.Jobs[i] != b.Jobs[i] {
					t.Fatalf("job %d: SWF %+v, Parquet %+v", i, a.Jobs[i], b.Jobs[i])
				}
			}
		})
	}
}

// TestEvaluateParquet checks that evaluate's --jobs and --curve tables hold
// the values of the CSV tables.
func TestEvaluateParquet(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	for _, ext := range []string{".csv", ".parquet"} {
		if code, _, stderr := runHpcwl("evaluate", "builtin:KTH-SP2", "--jobs", p("jobs"+ext), "--curve", p("curve"+ext)); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	jobs := readTable[evaluateJob](t, p("jobs.parquet"))
	lines := csvLines(t, p("jobs.csv"))
	if len(jobs) != len(lines)-1 || len(jobs) != 28476 {
		t.Fatalf("%d Parquet rows, %d CSV lines", len(jobs), len(lines))
	}
	for i, r := range jobs {
		late := ""
		if r.Lateness != nil {
			late = i64(*r.Lateness)
		}
		got := strings.Join([]string{i64(r.JobID), i64(r.User), i64(r.Procs), i64(r.RecordedSubmit), i64(r.RecordedStart),
			i64(r.RecordedEnd), i64(r.RigidSubmit), i64(r.RigidStart), i64(r.RigidEnd), i64(r.FeedbackSubmit),
			i64(r.FeedbackStart), i64(r.FeedbackEnd), late}, ",")
		if got != lines[i+1] {
			t.Fatalf("job row %d: Parquet %q, CSV %q", i, got, lines[i+1])
		}
	}
	curve := readTable[curvePoint](t, p("curve.parquet"))
	lines = csvLines(t, p("curve.csv"))
	if len(curve) != len(lines)-1 || len(curve) < 10 {
		t.Fatalf("%d Parquet rows, %d CSV lines", len(curve), len(lines))
	}
	for i := range curve {
		c := &curve[i]
		cells := []string{i64(c.TimeS), strconv.FormatFloat(c.TimeDays, 'f', -1, 64)}
		for _, v := range c.counts() {
			cells = append(cells, i64(*v))
		}
		if got := strings.Join(cells, ","); got != lines[i+1] {
			t.Fatalf("curve row %d: Parquet %q, CSV %q", i, got, lines[i+1])
		}
	}
	meta, _ := parquetMeta(t, p("curve.parquet"))
	if meta["hpcwl.input"] != "builtin:KTH-SP2" || !strings.Contains(meta["hpcwl.parameters"], `"change"`) {
		t.Errorf("metadata %v", meta)
	}
}

// TestCycleAndSessionsParquet checks simulate --cycle and sessions --swf
// with a .parquet name against their CSV and SWF forms.
func TestCycleAndSessionsParquet(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	for _, args := range [][]string{
		{"simulate", "builtin:KTH-SP2", "--scheduler", "fcfs", "--cycle", p("cycle.csv")},
		{"simulate", "builtin:KTH-SP2", "--scheduler", "fcfs", "--cycle", p("cycle.parquet")},
		{"sessions", "builtin:KTH-SP2", "--swf", p("sessions.swf")},
		{"sessions", "builtin:KTH-SP2", "--swf", p("sessions.parquet")},
	} {
		if code, _, stderr := runHpcwl(args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	cycle := readTable[cycleHour](t, p("cycle.parquet"))
	lines := csvLines(t, p("cycle.csv"))
	if len(cycle) != 168 || len(lines) != 169 {
		t.Fatalf("%d Parquet rows, %d CSV lines", len(cycle), len(lines))
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }
	for i, r := range cycle {
		got := strings.Join([]string{strconv.Itoa(int(r.HourOfWeek)), r.Day, strconv.Itoa(int(r.Hour)), f(r.Recorded), f(r.Simulated)}, ",")
		if got != lines[i+1] {
			t.Fatalf("hour %d: Parquet %q, CSV %q", i, got, lines[i+1])
		}
	}
	a, err := loadAnyTrace(p("sessions.swf"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := loadAnyTrace(p("sessions.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	var sa, sb bytes.Buffer
	a.WriteSWF(&sa)
	b.WriteSWF(&sb)
	if sa.Len() == 0 || !bytes.Equal(withoutCommandLine(sa.Bytes()), withoutCommandLine(sb.Bytes())) {
		t.Error("sessions --swf: the Parquet log differs from the SWF log")
	}
}
