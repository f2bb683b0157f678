package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenerateTalbyDeterministic(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.swf"), filepath.Join(dir, "b.swf"), filepath.Join(dir, "c.swf")
	for _, x := range []struct {
		out  string
		seed string
	}{{a, "7"}, {b, "7"}, {c, "8"}} {
		if code, _, e := runCLI(t, "generate", "talby", "--weeks", "8", "--seed", x.seed, "-o", x.out); code != 0 {
			t.Fatalf("exit %d: %s", code, e)
		}
	}
	ba, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	bc, _ := os.ReadFile(c)
	if len(ba) == 0 || !bytes.Equal(withoutCommandLine(ba), withoutCommandLine(bb)) {
		t.Fatal("the same seed gave different outputs")
	}
	if bytes.Equal(withoutCommandLine(ba), withoutCommandLine(bc)) {
		t.Error("seeds 7 and 8 gave the same output")
	}
	for _, want := range []string{"; MaxProcs: 128", "Seed: 7", "Weeks: 8", "generate talby --seed 7", "HpcwlCommand:", "Parameters: {"} {
		if !strings.Contains(string(ba), want) {
			t.Errorf("header lacks %q", want)
		}
	}
	// Users and sessions: sessions finds them.
	code, out, e := runCLI(t, "sessions", "--json", a)
	if code != 0 || !strings.Contains(out, "sessions") {
		t.Errorf("sessions on the generated log: exit %d: %s", code, e)
	}
}

func TestGenerateTalbyInstances(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "w.swf")
	code, stdout, e := runCLI(t, "generate", "talby", "--weeks", "4", "--instances", "2", "--json", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	for _, f := range []string{"w-001.swf", "w-002.swf"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	var r struct {
		Instances []struct{ Seed uint64 }
		Average   map[string]struct{ Mean, SD float64 }
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || len(r.Instances) != 2 || r.Instances[1].Seed != 2 || r.Average["jobs"].Mean <= 0 {
		t.Errorf("summary %s: %v", stdout, err)
	}
}

func TestFitTalbyRoundTrip(t *testing.T) {
	dir := t.TempDir()
	params, gen := filepath.Join(dir, "p.json"), filepath.Join(dir, "g.swf")
	code, out, e := runCLI(t, "fit", "talby", "--json", "-o", params, "builtin:KTH-SP2")
	if code != 0 {
		t.Fatalf("fit talby: exit %d: %s", code, e)
	}
	var r struct {
		Report struct{ Weeks, Users int }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Report.Weeks < 40 || r.Report.Users < 100 {
		t.Fatalf("report %+v: %v", r, err)
	}
	b, _ := os.ReadFile(params)
	if !strings.Contains(string(b), `"log": "builtin:KTH-SP2"`) {
		t.Error("the parameter file does not name its log")
	}
	if code, _, e := runCLI(t, "generate", "talby", "--params", params, "--weeks", "6", "-o", gen); code != 0 {
		t.Fatalf("generate from the fitted parameters: %s", e)
	}
	if g, _ := os.ReadFile(gen); !strings.Contains(string(g), "; MaxProcs: 100") || !strings.Contains(string(g), "HpcwlInput: "+params) {
		t.Error("generated log lacks the fitted machine size or the parameter file's provenance")
	}
}

func TestTalbyBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"inactivity": {"class": [{"a": 0.07, "b": 5}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "short.swf")
	if err := os.WriteFile(short, []byte("; MaxProcs: 64\n1 0 0 100 1 -1 -1 1 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n2 50000 0 100 1 -1 -1 1 -1 -1 1 2 -1 -1 -1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"generate", "talby", "--params", bad, "-o", filepath.Join(dir, "x.swf")}, 1, "inactivity.class[0] (LTLU).b = 5: must be in [-1, 2]"},
		{[]string{"generate", "talby", "--weeks", "0"}, 2, "--weeks"},
		{[]string{"generate", "talby", "--instances", "2", "--weeks", "1"}, 2, "give -o FILE"},
		{[]string{"generate", "talby", "--procs", "100000000"}, 2, "give --cm and --cl"},
		{[]string{"fit", "talby", short}, 1, "session layer"},
		{[]string{"generate", "talby", "--startup-activity", "fitted"}, 2, "needs parameters from fit talby"},
		{[]string{"generate", "talby", "--startup-activity", "late"}, 2, "--startup-activity must be thesis or fitted"},
		{[]string{"generate", "talby", "--placement", "jobs"}, 2, "--placement must be sessions or starts"},
		{[]string{"generate", "talby", "--instances", "2", "-o", filepath.Join(dir, "i.swf"), "--ext-users", "-"}, 2, "give --ext-users FILE"},
		{[]string{"metamodel"}, 2, "give --cm with --jd"},
		{[]string{"metamodel", "--cm", "25", "--jd", "100", "--cl", "0.5"}, 2, "give --cm with --jd"},
	} {
		code, _, e := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(e, c.want) {
			t.Errorf("%v: exit %d, %q; want exit %d and %q", c.args, code, e, c.code, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.swf")); err == nil {
		t.Error("a failed run left an output")
	}
}

func TestMetamodelCommand(t *testing.T) {
	code, out, e := runCLI(t, "metamodel", "--json", "--cm", "25", "--cl", "0.45")
	var r struct{ Prediction struct{ JD, Am float64 } }
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Prediction.JD < 416 || r.Prediction.JD > 416.2 {
		t.Errorf("exit %d, %s %s", code, out, e)
	}
	code, out, e = runCLI(t, "metamodel", "--agreement", "builtin:KTH-SP2")
	if code != 0 || !strings.Contains(out, "JD/Cm") || !strings.Contains(out, "MS") {
		t.Errorf("exit %d: %s %s", code, out, e)
	}
}

func TestGenerateTalbyEstimates(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.swf"), filepath.Join(dir, "b.swf")
	if code, _, e := runCLI(t, "generate", "talby", "--weeks", "4", "-o", a); code != 0 {
		t.Fatal(e)
	}
	if code, _, e := runCLI(t, "generate", "talby", "--weeks", "4", "--estimates", "tsafrir", "--max-estimate", "2d", "-o", b); code != 0 {
		t.Fatal(e)
	}
	ja, jb := jobLines(t, a), jobLines(t, b)
	if len(ja) == 0 || len(ja) != len(jb) {
		t.Fatalf("%d and %d jobs", len(ja), len(jb))
	}
	for i := range ja {
		fa, fb := strings.Fields(ja[i]), strings.Fields(jb[i])
		if fa[8] != "-1" || fb[8] == "-1" || fa[1] != fb[1] || fa[3] != fb[3] {
			t.Fatalf("job %d: %q and %q: want the same job, requested time -1 and then set", i, ja[i], jb[i])
		}
	}
	if code, _, e := runCLI(t, "generate", "talby", "--max-estimate", "2d"); code != 2 || !strings.Contains(e, "needs --estimates tsafrir") {
		t.Errorf("exit %d: %s", code, e)
	}
}

func jobLines(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" && !strings.HasPrefix(l, ";") {
			out = append(out, l)
		}
	}
	return out
}

// The generated SWF keeps the model's structure: fields 17-18 order the
// jobs of a session, the extended formats carry the generated classes,
// and "sessions" and "classes" read the output.
func TestGenerateTalbyStructure(t *testing.T) {
	dir := t.TempDir()
	out, ss, us := filepath.Join(dir, "g.swf"), filepath.Join(dir, "g.sessions"), filepath.Join(dir, "g.users")
	code, _, e := runCLI(t, "generate", "talby", "--weeks", "10", "--seed", "3", "-o", out, "--ext-sessions", ss, "--ext-users", us)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	// The summary names users created and users with jobs.
	var jobs, sessions, withJobs, created, startup int
	var dest string
	if _, err := fmt.Sscanf(e, "wrote %d jobs (%d sessions; %d users with jobs of %d created, %d of them at start-up) to %s",
		&jobs, &sessions, &withJobs, &created, &startup, &dest); err != nil || withJobs > created || withJobs == 0 {
		t.Fatalf("summary %q: %v", e, err)
	}
	b, _ := os.ReadFile(out)
	if !strings.Contains(string(b), fmt.Sprintf("Users: %d created (%d active at start-up), %d with at least one job", created, startup, withJobs)) {
		t.Error("header does not count users created and users with jobs")
	}
	users := map[string]bool{}
	linked := 0
	for _, l := range jobLines(t, out) {
		f := strings.Fields(l)
		users[f[11]] = true
		if f[16] != "-1" {
			linked++
		}
	}
	if len(users) != withJobs || linked == 0 {
		t.Errorf("%d users in the log, %d reported; %d jobs with a preceding job", len(users), withJobs, linked)
	}
	// One extended line per generated session and per user with jobs; the
	// session classes are the generated ones (header counts).
	sl, ul := jobLines(t, ss), jobLines(t, us)
	if len(sl) != sessions || len(ul) != withJobs {
		t.Errorf("%d session lines, %d user lines; generated %d sessions, %d users with jobs", len(sl), len(ul), sessions, withJobs)
	}
	var count [5]int
	for _, l := range sl {
		f := strings.Fields(l)
		var c int
		fmt.Sscan(f[21], &c)
		count[c]++
	}
	want := fmt.Sprintf("Sessions: %d; classes IWD %d, IWN %d, IW %d, BHP %d, BHD %d;", sessions, count[0], count[1], count[2], count[3], count[4])
	if !strings.Contains(string(b), want) {
		t.Errorf("extended sessions' classes %v do not match the header (want %q)", count, want)
	}
	for _, args := range [][]string{{"sessions", "--json", out}, {"classes", out}, {"sessions", "--method", "last", "--threshold", "20m", out}, {"evaluate", "--json", out}} {
		if code, o, e := runCLI(t, args...); code != 0 || o == "" {
			t.Errorf("%v: exit %d: %s", args, code, e)
		}
	}
}
