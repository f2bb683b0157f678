package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/trace"
)

func TestSemiopenMixedCommand(t *testing.T) {
	code, out, errOut := runCLI(t, "semiopen", "mixed", "--lambda", "0.3", "--think", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The rows of N = 1 and 20 (MVA, S = 1, Z = 5; R_c(20) = 20/0.7 - 5).
	for _, want := range []string{"knee N* = (µ - lambda)(Z + S_c) = 4.500",
		"1  partial   1.429  0.1556   1.746  0.4556  0.4556     -3.571",
		"20     full  23.571  0.7000  25.000  1.0000  1.0000     23.571"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = runCLI(t, "semiopen", "mixed", "--lambda", "0.3", "--users", "2,5", "--simulate", "--horizon", "5000", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Seed uint64 `json:"seed"`
		Rows []struct {
			N         int     `json:"n"`
			X         float64 `json:"throughput"`
			Rc        float64 `json:"closed_response"`
			Simulated struct {
				X  float64 `json:"throughput"`
				Rc float64 `json:"closed_response"`
			} `json:"simulated"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Seed != 1 || len(r.Rows) != 2 || r.Rows[1].N != 5 {
		t.Fatalf("%+v", r)
	}
	for _, row := range r.Rows {
		// A shorter run than the library's test: 3% on X, 10% on R_c.
		if !(math.Abs(row.Simulated.X/row.X-1) <= 0.03) || !(math.Abs(row.Simulated.Rc/row.Rc-1) <= 0.1) {
			t.Errorf("N=%d: MVA X %.4f R_c %.3f, simulated %.4f %.3f", row.N, row.X, row.Rc, row.Simulated.X, row.Simulated.Rc)
		}
	}
	swf := filepath.Join(t.TempDir(), "m.swf")
	if code, _, errOut := runCLI(t, "semiopen", "mixed", "--users", "3", "--horizon", "100", "--swf", swf); code != 0 {
		t.Fatalf("--swf: exit %d: %s", code, errOut)
	}
	tr, err := trace.Load(swf, trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Procs != 1 || tr.Len() < 50 {
		t.Errorf("written log: %d processors, %d jobs", tr.Procs, tr.Len())
	}
	if code, _, errOut := runCLI(t, "evaluate", swf, "--scheduler", "fcfs", "--users", "adjusted"); code != 0 {
		t.Errorf("evaluate of the written log: exit %d: %s", code, errOut)
	}
}

func TestSemiopenReopenCommand(t *testing.T) {
	code, out, errOut := runCLI(t, "semiopen", "reopen", "--lambda", "0.5", "--p", "0.36,exp", "--think", "0,1", "--users", "2000", "--runs", "2", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Runs int `json:"runs"`
		Rows []struct {
			P        string                        `json:"p"`
			Think    float64                       `json:"think"`
			Analytic *struct{ Throughput float64 } `json:"analytic"`
			Mean     struct {
				Users int     `json:"users"`
				X     float64 `json:"throughput"`
			} `json:"mean"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Runs != 2 || len(r.Rows) != 4 || r.Rows[2].P != "exp" || r.Rows[1].Think != 1 {
		t.Fatalf("%+v", r)
	}
	for _, row := range r.Rows {
		if (row.Analytic != nil) != (row.P == "0.36") || row.Mean.Users != 2000 || !(row.Mean.X > 0.5 && row.Mean.X < 1) {
			t.Errorf("row %+v", row)
		}
	}
	code, out, _ = runCLI(t, "semiopen", "reopen", "--lambda", "0.5", "--p", "0", "--users", "500", "--runs", "1")
	if code != 0 || !strings.Contains(out, "n/a") {
		t.Errorf("p = 0 (no continue jobs): exit %d\n%s", code, out)
	}
}

// TestSemiopenUsageErrors: parameters out of range are usage errors (exit
// status 2) whose message names the flag and the valid range.
func TestSemiopenUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"semiopen"}, "available: mixed, reopen"},
		{[]string{"semiopen", "closed"}, "unknown model"},
		{[]string{"semiopen", "mixed", "--lambda", "1"}, "--lambda 1: out of range; valid: 0 <= lambda < 1/service = 1"},
		{[]string{"semiopen", "mixed", "--lambda", "0.3", "--service", "4"}, "valid: 0 <= lambda < 1/service = 0.25"},
		{[]string{"semiopen", "mixed", "--service", "0"}, "--service 0: out of range; valid: a finite number > 0"},
		{[]string{"semiopen", "mixed", "--think", "-1"}, "--think -1: out of range; valid: a finite number >= 0"},
		{[]string{"semiopen", "mixed", "--users", "5-2"}, "valid: whole numbers 1 to 100000"},
		{[]string{"semiopen", "mixed", "--users", "x"}, "--users: \"x\" is out of range"},
		{[]string{"semiopen", "mixed", "--unit", "0", "--simulate"}, "--unit 0: out of range; valid: 1 to 86400"},
		{[]string{"semiopen", "mixed", "--horizon", "5", "--simulate"}, "--horizon 5: out of range; valid: 10 to 1e7"},
		{[]string{"semiopen", "mixed", "--users", "2,3", "--swf", "x.swf"}, "give a single --users N"},
		{[]string{"semiopen", "mixed", "--users", "2", "--swf", "x.dat"}, "cannot tell the format"},
		{[]string{"semiopen", "mixed", "--to", "csv"}, "give --swf FILE"},
		{[]string{"semiopen", "reopen", "--lambda", "0"}, "--lambda: \"0\" is out of range; valid: 0 < lambda < 1/service = 1"},
		{[]string{"semiopen", "reopen", "--lambda", "0.5", "--p", "0.5"}, "valid: p < 1 - lambda*service = 0.5"},
		{[]string{"semiopen", "reopen", "--p", "1"}, "valid: a probability 0 <= p < 1, exp"},
		{[]string{"semiopen", "reopen", "--p", "shmueli:-1"}, "shmueli:SCALE (SCALE > 0"},
		{[]string{"semiopen", "reopen", "--think", "-2"}, "--think: \"-2\" is out of range; valid: a finite number >= 0"},
		{[]string{"semiopen", "reopen", "--users", "0"}, "--users 0: out of range; valid: 1 to 10000000"},
		{[]string{"semiopen", "reopen", "--runs", "1001"}, "--runs 1001: out of range; valid: 1 to 1000"},
		{[]string{"semiopen", "reopen", "--service", "-1"}, "--service -1: out of range"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}
