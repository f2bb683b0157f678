package external_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sched/external"
	"github.com/hpcwl/hpcwl/sim"
)

func job(id, submit, run, est, procs int) sim.Job {
	return sim.Job{ID: int64(id), Submit: sim.Time(submit), Runtime: sim.Time(run), Estimate: sim.Time(est), Procs: int32(procs), User: 7}
}

// python3 returns the interpreter for the example policy, or skips the test
// when there is none (it fails instead under HPCWL_REQUIRE_PYTHON=1, as in
// CI).
func python3(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("HPCWL_REQUIRE_PYTHON") == "1" {
			t.Fatalf("python3 not found and HPCWL_REQUIRE_PYTHON=1: %v", err)
		}
		t.Skip("python3 not found: the example policy was not run")
	}
	return p
}

var examplePolicy = filepath.Join("..", "..", "examples", "schedulers", "easy.py")

func run(t *testing.T, s sim.Scheduler, jobs []sim.Job, procs int, kill bool) (*sim.Result, error) {
	t.Helper()
	if c, ok := s.(interface{ Close() error }); ok {
		defer c.Close()
	}
	return sim.Run(context.Background(), sim.NewReplay(slices.Clone(jobs)), s, sim.Config{Procs: procs, Kill: kill})
}

func starts(r *sim.Result) map[int64]sim.Time {
	m := make(map[int64]sim.Time, len(r.Jobs))
	for _, o := range r.Jobs {
		m[o.ID] = o.Start
	}
	return m
}

// TestExampleEASYMatchesBuiltin runs the Python EASY of examples/schedulers
// against the built-in EASY on generated workloads with ties (equal submit
// times, equal ends, zero runtimes, jobs overrunning their requested time),
// with and without killing at the requested time, on machines of 1 to 16
// processors: the schedules must be identical. Each run holds 150 small
// random workloads, a million seconds apart so that each starts on an empty
// machine: one process per run keeps the test fast.
func TestExampleEASYMatchesBuiltin(t *testing.T) {
	py := python3(t)
	for _, tc := range []struct {
		procs int
		kill  bool
		seed  uint64
	}{{1, false, 1}, {4, true, 2}, {4, false, 3}, {16, true, 4}, {16, false, 5}} {
		rng := rand.New(rand.NewPCG(tc.seed, 99))
		var jobs []sim.Job
		for seg := 0; seg < 150; seg++ {
			submit := seg * 1_000_000
			for i, n := 0, 1+rng.IntN(40); i < n; i++ {
				submit += rng.IntN(4) * 10
				est := (1 + rng.IntN(6)) * 10
				run := rng.IntN(9) * 10 // may overrun est
				jobs = append(jobs, job(len(jobs)+1, submit, run, est, 1+rng.IntN(tc.procs)))
			}
		}
		ext, err := external.Start(external.Config{Command: []string{py, examplePolicy}})
		if err != nil {
			t.Fatal(err)
		}
		got, err := run(t, ext, jobs, tc.procs, tc.kill)
		if err != nil {
			t.Fatal(err)
		}
		want, err := run(t, sched.NewEASY(0), jobs, tc.procs, tc.kill)
		if err != nil {
			t.Fatal(err)
		}
		g, w := starts(got), starts(want)
		diff := 0
		for _, j := range jobs {
			if g[j.ID] != w[j.ID] {
				if diff == 0 {
					t.Errorf("procs %d kill %v: job %d starts at %d under easy.py, at %d under the built-in EASY",
						tc.procs, tc.kill, j.ID, g[j.ID], w[j.ID])
				}
				diff++
			}
		}
		if diff > 0 {
			t.Errorf("procs %d kill %v: %d of %d start times differ", tc.procs, tc.kill, diff, len(jobs))
		}
	}
}

// TestHandshake checks the name and parameters the child receives and
// gives back.
func TestHandshake(t *testing.T) {
	dir := t.TempDir()
	got := filepath.Join(dir, "hello.json")
	script := filepath.Join(dir, "echo.sh")
	os.WriteFile(script, []byte("#!/bin/sh\nread hello; echo \"$hello\" > "+got+
		"\necho '{\"type\":\"hello\",\"protocol\":\"hpcwl-sched/1\",\"name\":\"fifo-sh\"}'\n"+
		"while read line; do case \"$line\" in *'\"end\"'*) exit 0;; esac; echo '{\"start\":[]}'; done\n"), 0o755)
	s, err := external.Start(external.Config{Command: []string{script}, Params: map[string]string{"depth": "3"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = run(t, s, []sim.Job{job(1, 0, 10, 10, 2)}, 4, false)
	if !errors.Is(err, sim.ErrStalled) {
		t.Fatalf("err = %v, want a stall (the policy starts nothing)", err)
	}
	b, _ := os.ReadFile(got)
	if want := `{"type":"hello","protocol":"hpcwl-sched/1","procs":4,"params":{"depth":"3"}}`; strings.TrimSpace(string(b)) != want {
		t.Errorf("hello sent %s, want %s", b, want)
	}
	if s.Name() != "exec:fifo-sh" {
		t.Errorf("Name() = %q, want the name from the handshake", s.Name())
	}
}

// TestWrongAnswers checks that every kind of wrong behaviour stops the run
// with an error that names the pass and what went wrong.
func TestWrongAnswers(t *testing.T) {
	jobs := []sim.Job{job(1, 0, 10, 10, 3), job(2, 0, 10, 10, 3)}
	tests := []struct {
		script string
		want   []string
	}{
		{"bad-hello.sh", []string{"handshake", `protocol "hpcwl-sched/0"`}},
		{"not-waiting.sh", []string{"the pass at t=0", "job 999, which is not waiting", "line 2"}},
		{"too-wide.sh", []string{"the pass at t=0", "job 2 needing 3 processors with 1 free"}},
		{"twice.sh", []string{"starts job 1 twice"}},
		{"malformed.sh", []string{"line 2", "not a valid message", `"{\"start\":[1,}"`}},
		{"unknown-field.sh", []string{"not a valid message", `unknown field "starts"`}},
		{"crash.sh", []string{"closed its output before answering the pass at t=0", "exit status 3", "policy failed: division by zero"}},
		{"silent.sh", []string{"no answer to the pass at t=0 within 1s"}},
		{"past-wake.sh", []string{"wake-up at 0, not after now"}},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			s, err := external.Start(external.Config{Command: []string{filepath.Join("testdata", tt.script)}, Timeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			t0 := time.Now()
			_, err = run(t, s, jobs, 4, false)
			if !errors.Is(err, external.ErrProtocol) {
				t.Fatalf("err = %v, want ErrProtocol", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if d := time.Since(t0); d > 10*time.Second {
				t.Errorf("the run took %v to stop", d)
			}
		})
	}
}

func TestStartErrors(t *testing.T) {
	if _, err := external.Start(external.Config{}); !errors.Is(err, external.ErrProtocol) {
		t.Errorf("no command: %v", err)
	}
	if _, err := external.Start(external.Config{Command: []string{"/nonexistent/policy"}}); err == nil || !strings.Contains(err.Error(), "/nonexistent/policy") {
		t.Errorf("missing program: %v", err)
	}
}
