package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// twoPartitionLog is a log of two partitions: under a pooled machine of 6
// processors job 3 starts at 10; on separate partitions it waits for job 1.
const twoPartitionLog = `; MaxProcs: 6
; MaxPartitions: 2
; Partition: 1 slow
; Partition: 2 fast
1 0 -1 100 4 -1 -1 4 100 -1 1 1 -1 -1 -1 1 -1 -1
2 0 -1 100 2 -1 -1 2 100 -1 1 1 -1 -1 -1 2 -1 -1
3 10 -1 100 2 -1 -1 2 100 -1 1 1 -1 -1 -1 1 -1 -1
4 20 -1 60 2 -1 -1 2 60 -1 1 1 -1 -1 -1 2 -1 -1
`

func TestSimulatePartitions(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "two.swf")
	plat := filepath.Join(dir, "platform.yaml")
	os.WriteFile(log, []byte(twoPartitionLog), 0o644)
	// Numbered by the header's names: "fast" is partition 2 whatever its id here.
	os.WriteFile(plat, []byte("partitions:\n  - {id: 7, name: fast, procs: 2, speed: 2}\n  - {id: 1, name: slow, procs: 4}\n"), 0o644)
	jobs := filepath.Join(dir, "jobs.csv")

	code, out, errOut := runCLI(t, "simulate", log, "--scheduler", "fcfs", "--platform", plat, "--json", "--jobs", jobs)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Parameters struct{ Procs int }
		Platform   struct {
			Source string
			Runs   []struct {
				ID, Procs, Jobs int
				Name            string
				Speed           float64
			}
		}
	}
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Parameters.Procs != 6 || len(rep.Platform.Runs) != 2 || rep.Platform.Runs[1].Name != "fast" || rep.Platform.Runs[1].ID != 2 || rep.Platform.Runs[1].Speed != 2 {
		t.Errorf("report %+v", rep)
	}
	b, _ := os.ReadFile(jobs)
	// job 3 starts at 100 (after job 1 in its own partition), job 4 at 50 (fast partition, job 2 ends at 50).
	for _, want := range []string{"\n3,", "\n4,"} {
		if !strings.Contains(string(b), want) {
			t.Fatalf("jobs.csv lacks job %q:\n%s", want, b)
		}
	}
	starts := map[string]string{}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	head := strings.Split(lines[0], ",")
	col := -1
	for i, h := range head {
		if h == "starting_time" {
			col = i
		}
	}
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		starts[f[0]] = f[col]
	}
	if starts["3"] != "100" || starts["4"] != "50" {
		t.Errorf("start of job 3 %s (want 100), job 4 %s (want 50)", starts["3"], starts["4"])
	}

	// Pooled: a warning says so, and job 3 starts at once.
	code, _, errOut = runCLI(t, "simulate", log, "--scheduler", "fcfs")
	if code != 0 || !strings.Contains(errOut, "jobs of 2 partitions pooled into one machine of 6 processors") {
		t.Errorf("pooled run: exit %d, stderr %q", code, errOut)
	}
}

func TestSimulatePartitionsRefused(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "two.swf")
	os.WriteFile(log, []byte(twoPartitionLog), 0o644)
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("partitions:\n  - id: 1\n    procs: many\n"), 0o644)
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--partitions", "split"}, exitUsage, `unknown --partitions "split"; valid: pool, separate`},
		{[]string{"--partitions", "separate", "--replay", "feedback"}, exitUsage, "rigid replays only"},
		{[]string{"--partitions", "separate", "--procs", "8"}, exitUsage, "--procs sizes one pooled machine"},
		{[]string{"--platform", bad}, exitError, `bad.yaml: line 3: partitions[0].procs: "many": expected a whole number >= 1`},
		{[]string{"--platform", filepath.Join(dir, "absent.yaml")}, exitError, "absent.yaml"},
	}
	for _, tt := range tests {
		code, _, errOut := runCLI(t, append([]string{"simulate", log}, tt.args...)...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tt.args, code, errOut, tt.code, tt.want)
		}
	}
}
