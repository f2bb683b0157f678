package sacct

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hpcwl/hpcwl/trace"
)

func readFile(t *testing.T, name string) (*trace.Trace, *Summary) {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, sum, err := Read(f, name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr, sum
}

// TestFixture reads what a real Slurm recorded of the jobs of
// scripts/sacct-fixture (testdata/README.md), job by job.
func TestFixture(t *testing.T) {
	tr, sum := readFile(t, "testdata/slurm-22.05.txt")
	if sum.Jobs != 9 || sum.Steps != 9 || sum.Unfinished != 0 {
		t.Fatalf("summary %+v", sum)
	}
	if sum.States["COMPLETED"] != 6 || sum.States["FAILED"] != 1 || sum.States["CANCELLED"] != 2 {
		t.Errorf("states %v", sum.States)
	}
	type want struct {
		wait, run, reqTime int64
		procs, reqProcs    int32
		user, status       int32
	}
	// In submit order, ties by sacct's job ID: 50 short, 51 limited, 52
	// two-cpus, 53 fails, 54 (array task 2), 55 cancelled-running, 56 and
	// 57 (array tasks 0 and 1), 58 cancelled-pending.
	wants := []want{
		{0, 1, -1, 1, 1, 1001, 1},
		{0, 2, 300, 1, 1, 1001, 1},
		{2, 2, 120, 2, 2, 1002, 1},
		{4, 0, -1, 1, 1, 1002, 0},
		{5, 1, 60, 1, 1, 0, 1},
		{9, 3, -1, 1, 1, 1001, 5},
		{4, 1, 60, 1, 1, 0, 1},
		{5, 1, 60, 1, 1, 0, 1},
		{-1, -1, -1, -1, 2, 1002, 5},
	}
	if len(tr.Jobs) != len(wants) {
		t.Fatalf("%d jobs", len(tr.Jobs))
	}
	for i, w := range wants {
		j := tr.Jobs[i]
		got := want{j.Wait, j.Runtime, j.ReqTime, j.Procs, j.ReqProcs, j.User, j.Status}
		if got != w || j.ID != int64(i+1) || j.Partition != 1 || j.Group != 100 && j.Group != 0 {
			t.Errorf("job %d: %+v (partition %d, group %d), want %+v", i+1, got, j.Partition, j.Group, w)
		}
	}
	if s := tr.Jobs[8].Submit; s != 10 {
		t.Errorf("last job submitted at %d, want 10 s after the first", s)
	}
	if v, _ := tr.Header.UnixStartTime(); v != time.Date(2026, 11, 27, 8, 5, 21, 0, time.UTC).Unix() {
		t.Errorf("UnixStartTime %d", v)
	}
	if p, _ := tr.Header.MaxProcs(); p != 2 || tr.Procs != 2 {
		t.Errorf("machine %d processors (header %d)", tr.Procs, p)
	}
	var parts []string
	for _, l := range tr.Header.Lines {
		if l.Key == "Partition" {
			parts = append(parts, l.Value)
		}
	}
	if len(parts) != 1 || parts[0] != "1 debug" {
		t.Errorf("partitions %v", parts)
	}
}

// TestLiveFixture reads a file made by scripts/sacct-fixture on the Slurm
// CI starts (HPCWL_SACCT_FILE): the same jobs, so the same kinds of record,
// whatever their times.
func TestLiveFixture(t *testing.T) {
	name := os.Getenv("HPCWL_SACCT_FILE")
	if name == "" {
		t.Skip("HPCWL_SACCT_FILE not set (CI sets it after scripts/sacct-fixture)")
	}
	tr, sum := readFile(t, name)
	if sum.Jobs != 9 || sum.Steps < 9 || sum.States["COMPLETED"] != 6 || sum.States["FAILED"] != 1 || sum.States["CANCELLED"] != 2 {
		t.Fatalf("summary %+v", sum)
	}
	users := map[int32]int{}
	twoCPUs, neverRan := 0, 0
	for _, j := range tr.Jobs {
		users[j.User]++
		if j.Procs == 2 && j.Runtime >= 0 {
			twoCPUs++
		}
		if j.Runtime < 0 && j.Status == 5 {
			neverRan++
		}
	}
	if len(users) != 3 || users[0] != 3 || twoCPUs != 1 || neverRan != 1 {
		t.Errorf("users %v, %d jobs of 2 CPUs, %d never ran", users, twoCPUs, neverRan)
	}
}

// TestRecords: hand-written records of every kind, and what each becomes.
func TestRecords(t *testing.T) {
	in := `JobID|User|Submit|Start|End|Elapsed|Timelimit|AllocCPUS|State
7|alice|2024-03-01T10:00:00|2024-03-01T10:00:10|2024-03-01T11:00:10|01:00:00|1-00:00:00|4|TIMEOUT
7.batch||2024-03-01T10:00:10|2024-03-01T10:00:10|2024-03-01T11:00:10|01:00:00||4|CANCELLED
8|bob|2024-03-01T10:00:05|Unknown|Unknown|00:00:00|30:00|0|PENDING
9|alice|2024-03-01T10:00:01|2024-03-01T10:00:01|2024-03-01T10:00:31|00:00:30|UNLIMITED|1|OUT_OF_MEMORY
10|carol|2024-03-01T09:59:00|2024-03-01T10:01:00|2024-03-01T12:01:00|2-00:00:00|2-12:30|8|COMPLETED
`
	loc, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	tr, sum, err := Read(strings.NewReader(in), "x", Options{Location: loc})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Jobs != 3 || sum.Steps != 1 || sum.Unfinished != 1 {
		t.Fatalf("summary %+v", sum)
	}
	// carol (9:59) first, then job 7 (alice, 10:00:00), then job 9
	// (alice, 10:00:01). Users are numbered in file order: alice 1, carol
	// 2 (bob's only job had not finished).
	type row struct {
		submit, wait, run, req int64
		procs, user, status    int32
	}
	got := []row{}
	for _, j := range tr.Jobs {
		got = append(got, row{j.Submit, j.Wait, j.Runtime, j.ReqTime, j.Procs, j.User, j.Status})
	}
	want := []row{
		{0, 120, 2 * 86400, 2*86400 + 12*3600 + 30*60, 8, 2, 1},
		{60, 10, 3600, 86400, 4, 1, 0},
		{61, 0, 30, -1, 1, 1, 0},
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("job %d: %+v, want %+v", i+1, got[i], want[i])
		}
	}
	// Stockholm is UTC+1 in March: 09:59 local is 08:59 UTC.
	if v, _ := tr.Header.UnixStartTime(); v != time.Date(2024, 3, 1, 8, 59, 0, 0, time.UTC).Unix() {
		t.Errorf("UnixStartTime %d", v)
	}
	if z, _ := tr.Header.TimeZoneString(); z != "Europe/Stockholm" {
		t.Errorf("TimeZoneString %q", z)
	}
	notes := ""
	for _, l := range tr.Header.Lines {
		if l.Key == "Note" {
			notes += l.Value + "\n"
		}
	}
	if !strings.Contains(notes, "users numbered: 1 alice, 2 carol") {
		t.Errorf("notes:\n%s", notes)
	}
}

// TestBadInput: errors name the file, the line and the field.
func TestBadInput(t *testing.T) {
	head := "JobIDRaw|Submit|Start|End|State\n"
	for _, c := range []struct {
		in, want string
	}{
		{"", "empty file"},
		{"JobID|Submit|State\n", "line 1: not sacct --parsable2 output: missing field(s) Start, End"},
		{head + "1|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T10:00:00|EXPLODED\n", `line 2: field State: "EXPLODED": expected a Slurm job state`},
		{head + "1|yesterday|2024-03-01T10:00:00|2024-03-01T10:00:00|COMPLETED\n", `line 2: field Submit: "yesterday"`},
		{head + "1|2024-03-01T10:00:00|2024-03-01T09:00:00|2024-03-01T10:00:00|COMPLETED\n", "line 2: field Start"},
		{head + "1|2024-03-01T10:00:00|2024-03-01T10:00:00\n", "line 2: 3 fields, the header names 5"},
		{head + "1|2024-03-01T10:00:00|Unknown|Unknown|PENDING\n", "no finished job (1 unfinished, 0 steps)"},
	} {
		_, _, err := Read(strings.NewReader(c.in), "in.txt", Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "in.txt: ") {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
	_, _, err := Read(strings.NewReader("JobID\n"), "in.txt", Options{})
	if !errors.Is(err, ErrFormat) {
		t.Errorf("%v is not ErrFormat", err)
	}
}

// TestParseDuration: sacct's duration forms.
func TestParseDuration(t *testing.T) {
	for s, want := range map[string]int64{"00:00:30": 30, "01:02:03": 3723, "1-00:00:00": 86400, "2-12:30": 2*86400 + 12*3600 + 30*60,
		"30:00": 1800, "5:07": 307, "1-02:03:04": 86400 + 7384} {
		if got, ok := parseDuration(s); !ok || got != want {
			t.Errorf("%q: %d %v, want %d", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "UNLIMITED", "1:2:3:4", "-1", "a:b"} {
		if _, ok := parseDuration(s); ok {
			t.Errorf("%q accepted", s)
		}
	}
}

// TestUnsetFields: the SWF fields sacct has no value for are -1 (unknown).
func TestUnsetFields(t *testing.T) {
	tr, _ := readFile(t, "testdata/slurm-22.05.txt")
	for _, j := range tr.Jobs {
		if j.AvgCPU != -1 || j.UsedMem != -1 || j.ReqMem != -1 || j.App != -1 || j.Queue != -1 || j.Preceding != -1 || j.ThinkTime != -1 {
			t.Fatalf("job %d: %+v", j.ID, j)
		}
	}
}

// TestFields: one record at a time, each field's edge values.
func TestFields(t *testing.T) {
	head := "JobIDRaw|Submit|Start|End|State|ElapsedRaw|Elapsed|TimelimitRaw|Timelimit|NCPUS|ReqCPUS|UID|User|GID|Group|Partition\n"
	rec := func(fields map[string]string) string {
		def := map[string]string{"JobIDRaw": "1", "Submit": "2024-03-01T10:00:00", "Start": "2024-03-01T10:00:05", "End": "2024-03-01T10:01:05",
			"State": "COMPLETED", "ElapsedRaw": "60", "Elapsed": "00:01:00", "TimelimitRaw": "2", "Timelimit": "00:02:00", "NCPUS": "4", "ReqCPUS": "4",
			"UID": "7", "User": "u", "GID": "9", "Group": "g", "Partition": "p"}
		for k, v := range fields {
			def[k] = v
		}
		var vs []string
		for _, k := range strings.Split(strings.TrimSpace(head), "|") {
			vs = append(vs, def[k])
		}
		return head + strings.Join(vs, "|") + "\n"
	}
	type job struct {
		wait, run, req    int64
		procs, reqP, user int32
		group, part, stat int32
	}
	for _, c := range []struct {
		name string
		set  map[string]string
		want job
		err  string
	}{
		{"plain", nil, job{5, 60, 120, 4, 4, 7, 9, 1, 1}, ""},
		{"raw beats text", map[string]string{"ElapsedRaw": "61", "Elapsed": "00:00:01", "TimelimitRaw": "3"}, job{5, 61, 180, 4, 4, 7, 9, 1, 1}, ""},
		{"limit 0", map[string]string{"TimelimitRaw": "0", "Timelimit": "00:00:00"}, job{5, 60, -1, 4, 4, 7, 9, 1, 1}, ""},
		{"text limit", map[string]string{"TimelimitRaw": "UNLIMITED", "Timelimit": "1-00:00:00"}, job{5, 60, 86400, 4, 4, 7, 9, 1, 1}, ""},
		{"partition limit", map[string]string{"TimelimitRaw": "Partition_Limit", "Timelimit": "Partition_Limit"}, job{5, 60, -1, 4, 4, 7, 9, 1, 1}, ""},
		{"no cpus", map[string]string{"NCPUS": "0", "ReqCPUS": "0"}, job{5, 60, 120, -1, -1, 7, 9, 1, 1}, ""},
		{"names", map[string]string{"UID": "", "GID": "x"}, job{5, 60, 120, 4, 4, 1, 1, 1, 1}, ""},
		{"no partition", map[string]string{"Partition": ""}, job{5, 60, 120, 4, 4, 7, 9, -1, 1}, ""},
		{"never started", map[string]string{"Start": "None", "State": "CANCELLED"}, job{-1, -1, 120, 4, 4, 7, 9, 1, 5}, ""},
		{"timeout", map[string]string{"State": "TIMEOUT"}, job{5, 60, 120, 4, 4, 7, 9, 1, 0}, ""},
		{"start at submit", map[string]string{"Start": "2024-03-01T10:00:00"}, job{0, 60, 120, 4, 4, 7, 9, 1, 1}, ""},
		{"bad elapsed", map[string]string{"ElapsedRaw": "-3"}, job{}, "field ElapsedRaw"},
		{"bad limit", map[string]string{"TimelimitRaw": "soon", "Timelimit": "soon"}, job{}, "field Timelimit"},
		{"bad cpus", map[string]string{"NCPUS": "-2"}, job{}, "field NCPUS"},
		{"bad requested cpus", map[string]string{"ReqCPUS": "four"}, job{}, "field ReqCPUS"},
		{"negative submit", map[string]string{"Submit": "1969-12-31T23:59:59", "Start": "1970-01-01T00:00:05"}, job{}, "field Submit"},
	} {
		tr, _, err := Read(strings.NewReader(rec(c.set)), "f", Options{})
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		j := tr.Jobs[0]
		if got := (job{j.Wait, j.Runtime, j.ReqTime, j.Procs, j.ReqProcs, j.User, j.Group, j.Partition, j.Status}); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestElapsedFallbacks: without ElapsedRaw the run time is Elapsed, and
// without either End - Start.
func TestElapsedFallbacks(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"JobID|Submit|Start|End|State|Elapsed\n1|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T11:00:00|COMPLETED|00:30:00\n", 1800},
		{"JobID|Submit|Start|End|State\n1|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T11:00:00|COMPLETED\n", 3600},
		{"JobID|Submit|Start|End|State\n1|2024-03-01T10:00:00|2024-03-01T10:00:00|Unknown|FAILED\n", -1},
	} {
		tr, _, err := Read(strings.NewReader(c.in), "f", Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := tr.Jobs[0].Runtime; got != c.want {
			t.Errorf("%q: run time %d, want %d", c.in, got, c.want)
		}
	}
	if _, _, err := Read(strings.NewReader("JobID|Submit|Start|End|State|Elapsed\n1|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T11:00:00|COMPLETED|later\n"), "f", Options{}); err == nil || !strings.Contains(err.Error(), "field Elapsed") {
		t.Errorf("bad Elapsed: %v", err)
	}
}
