package sched

import (
	"context"
	"io"
	"math"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/hpcwl/hpcwl/sim"
)

// TestDurationParam: a duration is a number of seconds or a number with
// unit s, m, h, d or w, of at least 1 s and at most 1e12 s.
func TestDurationParam(t *testing.T) {
	for _, c := range []struct {
		in   string
		want sim.Time // 0: an error
	}{
		{"300", 300}, {"30s", 30}, {"5m", 300}, {"0.5m", 30}, {"2h", 7200},
		{"1d", 86400}, {"2w", 14 * 86400}, {" 12H ", 12 * 3600}, {"1", 1}, {"1e12", 1e12},
		{"0.5", 0}, {"0", 0}, {"-5m", 0}, {"1.5e12", 0}, {"", 0}, {"m", 0}, {"5x", 0}, {"NaN", 0},
	} {
		p := params{policy: "pbas", v: map[string]string{"switch": c.in}}
		got, err := p.duration("switch")
		if c.want == 0 {
			if err == nil || !strings.Contains(err.Error(), `pbas parameter switch="`+c.in+`": must be a duration of at least 1s`) {
				t.Errorf("duration %q = %d, %v; want an error", c.in, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("duration %q = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

// TestFloatParam: a number within [lo, hi]; the error names the range,
// as ">= lo" when there is no upper bound.
func TestFloatParam(t *testing.T) {
	for _, c := range []struct {
		in      string
		hi      float64
		ok      bool
		message string
	}{
		{"0", 1, true, ""}, {"1", 1, true, ""}, {" 0.5 ", 1, true, ""},
		{"1.01", 1, false, "must be a number in [0, 1]"},
		{"-0.1", 1, false, "must be a number in [0, 1]"},
		{"1e300", inf, true, ""},
		{"-1", inf, false, "must be a number >= 0"},
		{"NaN", inf, false, "must be a number >= 0"},
		{"x", 1, false, `ups parameter alpha_user="x": must be a number in [0, 1]`},
	} {
		p := params{policy: "ups", v: map[string]string{"alpha_user": c.in}}
		_, err := p.float("alpha_user", 0, c.hi)
		if c.ok != (err == nil) || err != nil && !strings.Contains(err.Error(), c.message) {
			t.Errorf("float %q in [0, %v]: %v", c.in, c.hi, err)
		}
	}
}

var inf = math.Inf(1)

// TestOptionErrors: the registry's errors for an estimate factor below 1
// or for a policy that does not plan with estimates, and for an unknown
// parameter (listing the valid ones with their defaults, or none).
func TestOptionErrors(t *testing.T) {
	for _, c := range []struct {
		name    string
		o       Options
		message string // "" for no error
	}{
		{"easy", Options{EstimateFactor: 1}, ""},
		{"easy", Options{EstimateFactor: 2.5}, ""},
		{"easy", Options{EstimateFactor: 0.99}, "estimate factor 0.99: must be >= 1"},
		{"easy", Options{EstimateFactor: inf}, "must be >= 1"},
		{"fcfs", Options{EstimateFactor: 2}, "scheduler fcfs does not plan with estimates, so an estimate factor does not apply; it applies to: conservative, easy, easy-x2, flex, maui, pbas, pbas-indirect, sjbf, wbas"},
		{"fcfs", Options{Params: map[string]string{"slack": "1"}}, `scheduler fcfs has no parameter "slack"; valid: none`},
		{"maui", Options{Params: map[string]string{"Slack": "1"}}, `scheduler maui has no parameter "slack"; valid: queuetime (default 1), xfactor (default 0)`},
		{"flex", Options{Params: map[string]string{"SLACK": "2"}}, ""},
		{"maui", Options{Params: map[string]string{"xfactor": "-1"}}, "maui parameter xfactor"},
		{"maui", Options{Params: map[string]string{"queuetime": "-1"}}, "maui parameter queuetime"},
	} {
		s, err := NewWithOptions(c.name, c.o)
		switch {
		case c.message == "" && err != nil:
			t.Errorf("%s %+v: %v", c.name, c.o, err)
		case c.message == "" && s == nil:
			t.Errorf("%s %+v: no scheduler", c.name, c.o)
		case c.message != "" && (err == nil || !strings.Contains(err.Error(), c.message)):
			t.Errorf("%s %+v: got %v, want %q", c.name, c.o, err, c.message)
		}
	}
}

// TestExternalOptions: an external scheduler refuses an estimate factor,
// an empty command and a bad timeout, and reports a command that cannot
// start; its timeout parameter bounds the wait for the handshake.
func TestExternalOptions(t *testing.T) {
	for _, c := range []struct {
		name    string
		o       Options
		message string
	}{
		{"exec:./policy", Options{EstimateFactor: 2}, "an estimate factor does not apply to an external scheduler"},
		{"EXEC:  ", Options{}, `scheduler "EXEC:  " names no command`},
		{"exec:", Options{}, `scheduler "exec:" names no command`},
		{"exec:./policy", Options{Params: map[string]string{"Timeout": "0"}}, `exec parameter timeout="0": must be a duration`},
		{"exec:/nonexistent/policy", Options{}, "starting /nonexistent/policy"},
	} {
		_, err := NewWithOptions(c.name, c.o)
		if err == nil || !strings.Contains(err.Error(), c.message) {
			t.Errorf("%s %+v: got %v, want %q", c.name, c.o, err, c.message)
		}
	}
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	// A child that never answers: the run fails after the 1 s timeout
	// given, not the default 30 s.
	s, err := NewWithOptions("exec:sleep 4", Options{Params: map[string]string{"timeout": "1s"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.(io.Closer).Close()
	t0 := time.Now()
	jobs := []sim.Job{{ID: 1, Submit: 0, Runtime: 10, Estimate: 10, Procs: 1}}
	_, err = sim.Run(context.Background(), sim.NewReplay(jobs), s, sim.Config{Procs: 1})
	if err == nil || !strings.Contains(err.Error(), "within 1s") {
		t.Fatalf("got %v, want no answer within 1s", err)
	}
	if d := time.Since(t0); d > 3*time.Second {
		t.Errorf("the run failed after %v, want about 1 s", d)
	}
}
