package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/gen/lublin"
)

// TestFitLublinSizeGroups fits the paper's KTH size groups to ln(total work)
// on the built-in KTH log: the job counts and the parameters pinned by the
// library's Table 4 test come out of the command.
func TestFitLublinSizeGroups(t *testing.T) {
	code, out, errOut := runCLI(t, "fit", "lublin", "--size-groups", "paper:KTH", "--work", "--json", "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep fitLublinReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.Work || len(rep.SizeGroups) != 2 {
		t.Fatalf("work %v, %d groups", rep.Work, len(rep.SizeGroups))
	}
	g := rep.SizeGroups[0]
	if g.Jobs != 12666 || g.Sizes != (lublin.SizeRange{Min: 1, Max: 4}) || !(math.Abs(g.HG.A1*g.HG.B1-5.42) <= 0.01) || !(math.Abs(g.HG.P-0.736) <= 0.001) {
		t.Errorf("group 1-4: %+v", g)
	}
	code, text, _ := runCLI(t, "fit", "lublin", "--size-groups", "1-4,5-100", "builtin:KTH-SP2")
	if code != 0 || !strings.Contains(text, "hyper-Gamma of ln(runtime) per size group") || !strings.Contains(text, "5-100") {
		t.Errorf("table output (exit %d):\n%s", code, text)
	}
}

func TestFitLublinSizeGroupsBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--size-groups", "5-3"}, "not a size range"},
		{[]string{"--size-groups", "1-8,4-16"}, "overlaps"},
		{[]string{"--size-groups", "paper:CTC"}, "unknown log"},
		{[]string{"--work"}, "--work needs --size-groups"},
	} {
		code, _, errOut := runCLI(t, append(append([]string{"fit", "lublin"}, tc.args...), "builtin:KTH-SP2")...)
		if code != 2 || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, %q", tc.args, code, errOut)
		}
	}
}

// TestFitLublinAverage averages two parameter files and compares with the
// library's Average.
func TestFitLublinAverage(t *testing.T) {
	dir := t.TempDir()
	a, b, out := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"), filepath.Join(dir, "avg.json")
	pa, pb := lublin.DefaultParams(lublin.Typed), lublin.DefaultParams(lublin.Whole)
	pa.Mode, pa.Whole = lublin.Whole, lublin.BatchParams
	for _, f := range []struct {
		name string
		p    lublin.Params
	}{{a, pa}, {b, pb}} {
		fh, err := os.Create(f.name)
		if err != nil {
			t.Fatal(err)
		}
		if err := lublin.WriteParams(fh, f.p); err != nil {
			t.Fatal(err)
		}
		fh.Close()
	}
	// a.json was fitted to a log of offered load 0.6 (its target); b.json
	// carries none.
	pa.Target = &lublin.Target{Jobs: 1000, JobsPerDay: 100, OfferedLoad: 0.6, MachineProcs: 64}
	fh, err := os.Create(a)
	if err != nil {
		t.Fatal(err)
	}
	if err := lublin.WriteParams(fh, pa); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	code, _, e := runCLI(t, "fit", "lublin-average", "--procs", "256", "--no-size-fractions", b, "-o", out, a, b)
	if code != 0 {
		t.Fatal(e)
	}
	if want := "warning: the averaged parameters carry no arrival-rate target"; !strings.Contains(e, want) || !strings.Contains(e, a+" 0.600") || !strings.Contains(e, "--offered-load 0.600") {
		t.Errorf("no warning of the lost target: %q", e)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := lublin.ReadParams(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	want, err := lublin.Average([]lublin.LogFit{{Name: a, Params: lublin.BatchParams}, {Name: b, Params: lublin.WholeParams, NoSizeFractions: true}}, 256)
	if err != nil {
		t.Fatal(err)
	}
	if got.Whole != want {
		t.Errorf("averaged %+v, want %+v", got.Whole, want)
	}
	if got.Whole.SerialProb != lublin.BatchParams.SerialProb || got.Whole.UHi != 8 {
		t.Errorf("serial %v (only a.json's counts), u_hi %v", got.Whole.SerialProb, got.Whole.UHi)
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"lublin-average"}, "at least one PARAMS"},
		{[]string{"lublin-average", "--procs", "1", a}, "--procs"},
		{[]string{"lublin-average", "--no-size-fractions", "x.json", a}, "not one of the PARAMS"},
	} {
		code, _, errOut := runCLI(t, append([]string{"fit"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, %q", tc.args, code, errOut)
		}
	}
	if code, _, errOut := runCLI(t, "fit", "lublin-average", filepath.Join(dir, "missing.json")); code == 0 || !strings.Contains(errOut, "missing.json") {
		t.Errorf("missing file: exit %d, %q", code, errOut)
	}
}

// TestGenerateLublinOptions runs --hyper-erlang and --arrivals and checks
// that the header records them and that the usage errors say what to do.
func TestGenerateLublinOptions(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "g.swf")
	if code, _, e := runCLI(t, "generate", "lublin", "--hyper-erlang", "--arrivals", "expected-interarrival", "--count", "300", "-o", out); code != 0 {
		t.Fatal(e)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Runtimes: hyper-Erlang", "Arrivals: method expected-interarrival", `"a1":4,`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("header lacks %q", want)
		}
	}
	params := filepath.Join(dir, "p.json")
	if code, _, e := runCLI(t, "fit", "lublin", "builtin:KTH-SP2", "-o", params); code != 0 {
		t.Fatal(e)
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--arrivals", "poisson"}, "unknown --arrivals"},
		{[]string{"--arrivals", "expected-interarrival", "--offered-load", "0.7"}, "cannot be combined with --offered-load"},
		{[]string{"--arrivals", "expected-interarrival", "--params", params}, "add --own-rate"},
	} {
		code, _, errOut := runCLI(t, append(append([]string{"generate", "lublin", "--count", "10"}, tc.args...), "-o", filepath.Join(dir, "x.swf"))...)
		if code != 2 || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, %q", tc.args, code, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.swf")); err == nil {
		t.Error("a refused run wrote its output")
	}
}

// TestFitLublinNoStatus fits a log that records no status (as
// NASA-iPSC): the default, completed jobs only, names the file and the
// way out instead of failing on zero jobs; --status all fits it, and a
// log with one completed job fits that job's class past the check.
func TestFitLublinNoStatus(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	for i := range 400 {
		// Sizes 1, 2, 4 ... 64 and runtimes 10 s to 2 h; status -1.
		fmt.Fprintf(&b, "%d %d -1 %d %d -1 -1 -1 -1 -1 -1 1 1 -1 1 -1 -1 -1\n", i+1, i*600+i%7*37, 10+i*17%7200, 1<<(i%7))
	}
	name := filepath.Join(dir, "nostatus.swf")
	if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, "fit", "lublin", name)
	for _, want := range []string{name, "none of the 400 jobs completed", "400 have an unknown status", "--status all"} {
		if code != 1 || !strings.Contains(errOut, want) {
			t.Errorf("exit %d, want %q in %q", code, want, errOut)
		}
	}
	if code, _, errOut := runCLI(t, "fit", "lublin", "--status", "all", name); code != 0 {
		t.Errorf("--status all: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "fit", "--status", "completed", name); code != 1 || !strings.Contains(errOut, "none of the 400 jobs completed") {
		t.Errorf("fit --status completed: exit %d: %s", code, errOut)
	}
}
