package sweep

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
)

const small = `name: small
logs: [builtin:KTH-SP2]
schedulers: [fcfs, EASY]
speeds: [1, 0.5]
variants: 2
`

func read(t *testing.T, text string) *Experiment {
	t.Helper()
	e, err := Read(strings.NewReader(text), "exp.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestReadAndRuns(t *testing.T) {
	e := read(t, small)
	if e.NumRuns() != 8 || len(e.Runs()) != 8 {
		t.Fatalf("%d runs (listed %d), want 1 log x 2 variants x 2 speeds x 2 schedulers = 8", e.NumRuns(), len(e.Runs()))
	}
	r := e.Runs()[0]
	want := Run{Log: "builtin:KTH-SP2", Variant: 1, Load: 1, Scheduler: "fcfs", Speed: 1, ProcsFactor: 1, Replay: "rigid"}
	if r != want || r.Key() != "builtin:KTH-SP2|1|1|fcfs|1|1|rigid" {
		t.Errorf("first run %+v (key %s)", r, r.Key())
	}
	if e.Seed != 1 {
		t.Errorf("default seed %d", e.Seed)
	}
	logsOnly := read(t, "logs: [a.swf, b.swf]\nschedulers: [easy]\nreplays: [rigid, madon]\n")
	if logsOnly.NumRuns() != 4 || logsOnly.Runs()[0].Variant != 0 {
		t.Errorf("without variants: %d runs, first %+v", logsOnly.NumRuns(), logsOnly.Runs()[0])
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"logs: [a]\nschedulers: [easyy]\n", `unknown scheduler "easyy"`},
		{"logs: [a]\nschedulers: [easy]\nspeed: [1]\n", "field speed not found"},
		{"logs: [a]\nschedulers: [easy]\nloads: [1.5]\n", "need variants"},
		{"logs: [a]\nschedulers: [easy]\nspeeds: [0]\n", "speeds: 0 must be a number > 0"},
		{"logs: [a]\nschedulers: [easy]\nreplays: [elastic]\n", `replays: "elastic"`},
		{"schedulers: [easy]\n", "logs: at least one log"},
		{"logs: [a]\nschedulers: [easy]\nvariants: -1\n", "variants: -1"},
		{"", "empty file"},
		{"logs: [a\n", "exp.yaml"},
	}
	for _, tt := range tests {
		_, err := Read(strings.NewReader(tt.in), "exp.yaml")
		if !errors.Is(err, ErrExperiment) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want an experiment error with %q", tt.in, err, tt.want)
		}
	}
}

// stopAfter cancels a context after n runs are done.
type stopAfter struct {
	n      int64
	done   atomic.Int64
	cancel context.CancelFunc
}

func (s *stopAfter) Done() {
	if s.done.Add(1) == s.n {
		s.cancel()
	}
}

// TestResume stops a sweep after two runs, resumes it, and compares the
// rows with those of a sweep that ran uninterrupted: identical, none lost
// or stored twice. It also checks that the variants are the same workload
// for both schedulers (equal job counts) and differ between variants.
func TestResume(t *testing.T) {
	e := read(t, small)
	dir := t.TempDir()
	whole, err := Open(filepath.Join(dir, "whole.db"), e, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	if n, err := Execute(context.Background(), e, whole, Options{Workers: 2}); err != nil || n != 8 {
		t.Fatalf("uninterrupted: %d runs, %v", n, err)
	}
	want, _ := whole.Rows()

	path := filepath.Join(dir, "resumed.db")
	s, err := Open(path, e, "test")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n1, err := Execute(ctx, e, s, Options{Workers: 1, Progress: &stopAfter{n: 2, cancel: cancel}})
	if !errors.Is(err, context.Canceled) || n1 < 2 || n1 >= 8 {
		t.Fatalf("stopped sweep: %d runs, %v; want a few runs and context.Canceled", n1, err)
	}
	s.Close()
	s, err = Open(path, e, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n2, err := Execute(context.Background(), e, s, Options{Workers: 2})
	if err != nil || n1+n2 != 8 {
		t.Fatalf("resumed: %d more runs after %d, %v; want 8 in all", n2, n1, err)
	}
	got, _ := s.Rows()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("resumed rows differ from the uninterrupted sweep's:\n%+v\n%+v", got, want)
	}
	jobs := map[[2]any]int{}
	for _, r := range got {
		k := [2]any{r.Variant, r.Speed}
		if j, ok := jobs[k]; ok && j != r.Jobs {
			t.Errorf("variant %d speed %v: %d jobs under one scheduler, %d under another", r.Variant, r.Speed, j, r.Jobs)
		}
		jobs[k] = r.Jobs
	}
	if jobs[[2]any{1, 1.0}] == jobs[[2]any{2, 1.0}] {
		t.Errorf("variants 1 and 2 have the same number of jobs (%d): not different resamplings?", jobs[[2]any{1, 1.0}])
	}
}

func TestOtherExperimentRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	s, err := Open(path, read(t, small), "test")
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(path, read(t, small+"kill: true\n"), "test"); !errors.Is(err, ErrOtherExperiment) {
		t.Errorf("another experiment in the same database: %v", err)
	}
	s, err = Open(path, read(t, small), "test")
	if err != nil {
		t.Errorf("the same experiment again: %v", err)
	} else {
		s.Close()
	}
}

// TestTasks splits a sweep into three tasks, as a job array does, with one
// task killed part-way (its file ends in a cut line) and run again, then
// collects the task files: the rows equal those of one local sweep, and
// collecting again adds nothing.
func TestTasks(t *testing.T) {
	e := read(t, small)
	seen := map[string]int{}
	for i := 0; i < 3; i++ {
		for _, r := range TaskRuns(e, i, 3) {
			seen[r.Key()]++
		}
	}
	if len(seen) != e.NumRuns() {
		t.Fatalf("the tasks cover %d runs of %d", len(seen), e.NumRuns())
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("run %s is in %d tasks", k, n)
		}
	}
	dir := t.TempDir()
	results := filepath.Join(dir, "results")
	for i := 0; i < 3; i++ {
		tf, err := OpenTaskFile(results, i)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ExecuteRuns(context.Background(), e, TaskRuns(e, i, 3), tf, Options{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		tf.Close()
	}
	// Task 1 "was killed" while writing: cut its last line in half, then
	// run it again: it redoes only the cut run.
	path := filepath.Join(results, "task-1.jsonl")
	b, _ := os.ReadFile(path)
	os.WriteFile(path, b[:len(b)-40], 0o644)
	tf, _ := OpenTaskFile(results, 1)
	n, err := ExecuteRuns(context.Background(), e, TaskRuns(e, 1, 3), tf, Options{Workers: 1})
	tf.Close()
	if err != nil || n != 1 {
		t.Fatalf("task 1 run again: %d runs, %v; want 1 (the cut one)", n, err)
	}
	s, err := Open(filepath.Join(dir, "r.db"), e, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if added, err := Collect(results, s); err != nil || added != e.NumRuns() {
		t.Fatalf("collected %d rows, %v; want %d", added, err, e.NumRuns())
	}
	if added, err := Collect(results, s); err != nil || added != 0 {
		t.Errorf("collecting again added %d rows, %v", added, err)
	}
	local, _ := Open(filepath.Join(dir, "local.db"), e, "test")
	defer local.Close()
	Execute(context.Background(), e, local, Options{})
	got, _ := s.Rows()
	want, _ := local.Rows()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("collected rows differ from a local sweep's")
	}
}

func TestSlurmScript(t *testing.T) {
	s := &Slurm{Binary: "/opt/hpcwl", Experiment: "/home/me/exp's.yaml", DB: "/home/me/r.db", Dir: "/home/me/r.db.tasks", Tasks: 8,
		Args: []string{"--partition=batch", "--time=1:00:00"}}
	want := `#!/bin/sh
#SBATCH --job-name=hpcwl-sweep
#SBATCH --array=0-7
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=/home/me/r.db.tasks/task-%a.log
#SBATCH --partition=batch
#SBATCH --time=1:00:00
exec '/opt/hpcwl' sweep '/home/me/exp'\''s.yaml' --db '/home/me/r.db' --task "$SLURM_ARRAY_TASK_ID" --task-count 8 --workers 1
`
	if got := s.Script(); got != want {
		t.Errorf("script:\n%s\nwant:\n%s", got, want)
	}
}
