package external_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hpcwl/hpcwl/sched/external"
	"github.com/hpcwl/hpcwl/sim"
)

// policy writes a shell policy into a temporary directory: it answers the
// handshake, appends every later line it reads to log, answers the first
// pass with first and every later pass with an empty start list, and on
// the end message writes "exited" to log 0.3 s later and exits.
func policy(t *testing.T, first string) (script, log string) {
	t.Helper()
	dir := t.TempDir()
	script, log = filepath.Join(dir, "policy.sh"), filepath.Join(dir, "received")
	body := "#!/bin/sh\nread hello\necho '{\"type\":\"hello\",\"protocol\":\"hpcwl-sched/1\",\"name\":\"once\"}'\nn=0\n" +
		"while read line; do echo \"$line\" >> " + log + "\ncase \"$line\" in *'\"end\"'*) sleep 0.3; echo exited >> " + log + "; exit 0;; esac\n" +
		"n=$((n+1)); if [ $n = 1 ]; then " + first + "; else echo '{\"start\":[]}'; fi\ndone\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, log
}

// TestPassesAndEnd: Passes counts the passes the child answered, which is
// the number of pass messages it read, and Close sends the end message
// after a run without error and leaves the child time to exit (it takes
// 0.3 s here, within the two seconds Close grants). The name is the command's until the
// handshake.
func TestPassesAndEnd(t *testing.T) {
	script, log := policy(t, `echo '{"start":[1]}'`)
	s, err := external.Start(external.Config{Command: []string{script}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Name() != "exec:"+script {
		t.Errorf("name before the handshake %q, want exec: and the command", s.Name())
	}
	r, err := sim.Run(context.Background(), sim.NewReplay([]sim.Job{job(1, 0, 10, 10, 2)}), s, sim.Config{Procs: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Jobs) != 1 || r.Jobs[0].Start != 0 {
		t.Fatalf("jobs %+v, want job 1 started at 0", r.Jobs)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	passes := 0
	for _, l := range lines {
		if strings.Contains(l, `"type":"pass"`) {
			passes++
		}
	}
	if passes == 0 || s.Passes() != passes {
		t.Errorf("Passes() = %d, the child read %d pass messages", s.Passes(), passes)
	}
	if n := len(lines); n < 2 || lines[n-2] != `{"type":"end"}` || lines[n-1] != "exited" {
		t.Errorf("the child's log ends %q, want the end message and its exit", lines[max(0, n-2):])
	}
}

// TestLongAnswer: an answer longer than the 64 KiB read buffer (here the
// start list padded with 70,000 spaces, valid JSON) is read whole.
func TestLongAnswer(t *testing.T) {
	script, _ := policy(t, `printf '{"start":[1%70000s]}\n' ''`)
	s, err := external.Start(external.Config{Command: []string{script}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := run(t, s, []sim.Job{job(1, 0, 10, 10, 2)}, 4, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Jobs) != 1 || r.Jobs[0].Start != 0 {
		t.Errorf("jobs %+v, want job 1 started at 0", r.Jobs)
	}
}

// TestQuotedAnswer: an invalid answer is quoted in the error whole up to
// 80 bytes, and cut at 80 bytes with its length beyond.
func TestQuotedAnswer(t *testing.T) {
	for _, n := range []int{80, 81} {
		line := strings.Repeat("x", n)
		script, _ := policy(t, "echo "+line)
		s, err := external.Start(external.Config{Command: []string{script}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = run(t, s, []sim.Job{job(1, 0, 10, 10, 2)}, 4, false)
		want := fmt.Sprintf("%q", line)
		if n > 80 {
			want = fmt.Sprintf("%q... (%d bytes)", line[:80], n)
		}
		if !errors.Is(err, external.ErrProtocol) || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%d bytes: error %v, want it to end with %s", n, err, want)
		}
	}
}

// TestStderrTail: the error keeps the last 500 bytes of the child's
// standard error.
func TestStderrTail(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "noisy.sh")
	body := "#!/bin/sh\nread hello\necho '{\"type\":\"hello\",\"protocol\":\"hpcwl-sched/1\"}'\nread pass\n" +
		"printf 'BEGIN%0600dEND' 0 >&2\nexit 3\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := external.Start(external.Config{Command: []string{script}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = run(t, s, []sim.Job{job(1, 0, 10, 10, 2)}, 4, false)
	if err == nil {
		t.Fatal("no error")
	}
	_, tail, ok := strings.Cut(err.Error(), "its last standard error: ")
	if want := strings.Repeat("0", 497) + "END"; !ok || tail != want {
		t.Errorf("standard error in the error %q, want the last 500 bytes", tail)
	}
}

// TestFailureKillsChild: a child that stops answering is killed when the
// run fails, so that Close does not wait the two seconds it grants a child
// to exit.
func TestFailureKillsChild(t *testing.T) {
	s, err := external.Start(external.Config{Command: []string{filepath.Join("testdata", "silent.sh")}, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = sim.Run(context.Background(), sim.NewReplay(slices.Clone([]sim.Job{job(1, 0, 10, 10, 2)})), s, sim.Config{Procs: 4})
	if !errors.Is(err, external.ErrProtocol) {
		t.Fatalf("err = %v, want ErrProtocol", err)
	}
	t0 := time.Now()
	s.Close()
	if d := time.Since(t0); d > time.Second {
		t.Errorf("Close took %v: the child was still running", d)
	}
}

// TestAnswerWithoutNewline: a last answer cut short by the end of the
// child's output, without its newline, is still read: the job it starts
// runs (nothing waits after it, so no pass asks again).
func TestAnswerWithoutNewline(t *testing.T) {
	script, _ := policy(t, `printf '{"start":[1]}'; exit 0`)
	s, err := external.Start(external.Config{Command: []string{script}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := run(t, s, []sim.Job{job(1, 0, 10, 10, 2)}, 4, false)
	if err != nil || len(r.Jobs) != 1 || r.Jobs[0].Start != 0 {
		t.Errorf("err = %v, want job 1 started at 0", err)
	}
}
