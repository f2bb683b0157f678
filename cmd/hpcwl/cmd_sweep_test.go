//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/hpcwl/hpcwl/sweep"
)

const sweepExperiment = `name: kill-test
logs: [builtin:KTH-SP2]
schedulers: [fcfs, easy]
variants: 12
`

// TestSweepKilledResumes kills a sweep (SIGKILL, no chance to clean up)
// once some of its runs are stored, resumes it with the same command, and
// compares the results table with an uninterrupted sweep's: identical rows,
// none lost or stored twice.
func TestSweepKilledResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	exp := filepath.Join(dir, "exp.yaml")
	os.WriteFile(exp, []byte(sweepExperiment), 0o644)

	whole := filepath.Join(dir, "whole.csv")
	if code, _, errOut := runCLI(t, "sweep", exp, "--db", filepath.Join(dir, "whole.db"), "--csv", whole); code != 0 {
		t.Fatalf("uninterrupted sweep: exit %d: %s", code, errOut)
	}

	db := filepath.Join(dir, "killed.db")
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), "HPCWL_RUN_MAIN=1", "HPCWL_ARGS=sweep "+exp+" --db "+db+" --workers 1")
	var childErr bytes.Buffer
	cmd.Stderr = &childErr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	e, err := sweep.Read(strings.NewReader(sweepExperiment), exp)
	if err != nil {
		t.Fatal(err)
	}
	stored := 0
	deadline := time.Now().Add(30 * time.Second)
	for stored == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
		if _, err := os.Stat(db); err != nil {
			continue
		}
		if s, err := sweep.Open(db, e, "test"); err == nil {
			stored, _ = s.Count()
			s.Close()
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	if stored == 0 {
		t.Fatalf("no run was stored within 30 s; the sweep said: %s", childErr.String())
	}
	s, err := sweep.Open(db, e, "test")
	if err != nil {
		t.Fatal(err)
	}
	atKill, _ := s.Count()
	s.Close()
	if atKill >= e.NumRuns() {
		t.Logf("the sweep finished before it was killed (%d runs): resume not exercised", atKill)
	}

	resumed := filepath.Join(dir, "resumed.csv")
	code, out, errOut := runCLI(t, "sweep", exp, "--db", db, "--csv", resumed)
	if code != 0 {
		t.Fatalf("resumed sweep: exit %d: %s", code, errOut)
	}
	if want := "(" + strconv.Itoa(e.NumRuns()-atKill) + " simulated now)"; !strings.Contains(out+errOut, want) {
		t.Errorf("resumed sweep output lacks %q:\n%s%s", want, out, errOut)
	}
	a, _ := os.ReadFile(whole)
	b, _ := os.ReadFile(resumed)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("results after kill and resume differ from the uninterrupted sweep's (%d and %d bytes)", len(b), len(a))
	}
	code, out, _ = runCLI(t, "sweep", exp, "--db", db, "--status")
	if code != 0 || !strings.Contains(out, "24 of 24 runs done") {
		t.Errorf("--status: exit %d, %q", code, out)
	}
}

// TestSweepParquet checks that --csv x.parquet writes the CSV's rows as
// typed Parquet columns, with the experiment in the metadata.
func TestSweepParquet(t *testing.T) {
	dir := t.TempDir()
	exp := filepath.Join(dir, "exp.yaml")
	os.WriteFile(exp, []byte("name: pq\nlogs: [builtin:KTH-SP2]\nschedulers: [fcfs, easy]\nvariants: 1\n"), 0o644)
	csvPath, pqPath := filepath.Join(dir, "r.csv"), filepath.Join(dir, "r.parquet")
	if code, _, errOut := runCLI(t, "sweep", exp, "--csv", csvPath); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "sweep", exp, "--csv", pqPath); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rows, err := parquet.ReadFile[sweepRow](pqPath)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(csvPath)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(rows) != 2 || len(lines) != 3 {
		t.Fatalf("%d Parquet rows, %d CSV lines", len(rows), len(lines))
	}
	for i, r := range rows {
		f := strings.Split(lines[i+1], ",")
		if f[0] != r.Key || f[4] != r.Scheduler || f[9] != strconv.FormatFloat(r.WaitMean, 'g', -1, 64) {
			t.Errorf("row %d: Parquet %+v, CSV %q", i, r, lines[i+1])
		}
	}
	f, _ := os.Open(pqPath)
	defer f.Close()
	fi, _ := f.Stat()
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := pf.Lookup("hpcwl.experiment"); !ok || !strings.Contains(v, "name: pq") {
		t.Errorf("metadata hpcwl.experiment = %q, %v", v, ok)
	}
}
