package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecount: in a package where a string concatenation's + and a
// product's * were both reported killed, the + turned into - does not
// compile and is recounted as not viable; the * turned into / compiles
// and stays killed. The report is rewritten with -w, the source is not.
func TestRecount(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nvar S = \"a\" + \"b\"\n\nvar N = 2 * 3\n"
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/p\n\ngo 1.22\n"), 0o644))
	must(os.MkdirAll(filepath.Join(dir, "p"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "p", "p.go"), []byte(src), 0o644))
	plus, times := strings.Index(src, "+"), strings.Index(src, "*")
	col := func(off int) int { return off - strings.LastIndex(src[:off], "\n") }
	rep := map[string]any{"files": []map[string]any{{"file_name": "p.go", "mutations": []map[string]any{
		{"type": "ARITHMETIC_BASE", "status": "KILLED", "line": 3, "column": col(plus)},
		{"type": "ARITHMETIC_BASE", "status": "KILLED", "line": 5, "column": col(times)},
		{"type": "CONDITIONALS_BOUNDARY", "status": "LIVED", "line": 5, "column": 1},
	}}}, "mutants_killed": 2}
	b, err := json.Marshal(rep)
	must(err)
	report := filepath.Join(dir, "report.json")
	must(os.WriteFile(report, b, 0o644))
	t.Chdir(dir)
	must(run("./p", report, true))
	var got struct {
		Files []struct {
			Mutations []mutation `json:"mutations"`
		} `json:"files"`
		Killed    int     `json:"mutants_killed"`
		NotViable int     `json:"mutants_not_viable"`
		Efficacy  float64 `json:"test_efficacy"`
	}
	b, err = os.ReadFile(report)
	must(err)
	must(json.Unmarshal(b, &got))
	m := got.Files[0].Mutations
	if m[0].Status != "NOT VIABLE" || m[1].Status != "KILLED" || m[2].Status != "LIVED" {
		t.Errorf("statuses %q, %q, %q; want NOT VIABLE, KILLED, LIVED", m[0].Status, m[1].Status, m[2].Status)
	}
	if got.Killed != 1 || got.NotViable != 1 || got.Efficacy != 50 {
		t.Errorf("killed %d, not viable %d, efficacy %v; want 1, 1, 50", got.Killed, got.NotViable, got.Efficacy)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "p", "p.go")); string(after) != src {
		t.Errorf("the source changed:\n%s", after)
	}
}

// TestRecountWrongSource: a report whose position holds no arithmetic
// operator is of another version of the source, and is an error.
func TestRecountWrongSource(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/p\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p", "p.go"), []byte("package p\n\nvar N = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "report.json")
	b := `{"files":[{"file_name":"p.go","mutations":[{"type":"ARITHMETIC_BASE","status":"KILLED","line":3,"column":5}]}]}`
	if err := os.WriteFile(report, []byte(b), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if err := run("./p", report, false); err == nil || !strings.Contains(err.Error(), "p.go:3:5") {
		t.Errorf("got %v, want an error naming p.go:3:5", err)
	}
}
