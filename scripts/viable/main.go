// Command viable recounts a gremlins report. gremlins v0.6.0 takes the exit
// status of `go test` for the mutant's fate, and `go test` exits with 1 both
// when a test fails and when the package does not compile: a mutant that does
// not compile (the + of a string concatenation turned into -) is counted as
// killed although no test ran. viable builds each killed arithmetic mutant
// of the report (the only kind that can fail to compile: a string's + or a
// constant divisor of 0) and reports those that do not build as not viable,
// with the efficacy and mutator coverage recomputed without them.
//
// Usage, from the module's root:
//
//	go run ./scripts/viable [-w] PACKAGE REPORT.json
//
// PACKAGE is the directory gremlins was given (./resample); the report is
// the file written by gremlins' --output, of a run or of a dry run (whose
// covered mutants are all RUNNABLE: viable then says how many of them a run
// would count as killed without building). With -w the report of a run is rewritten
// with those mutants' status set to NOT VIABLE and its totals recomputed.
// The source files are never changed: each mutant is built through an
// overlay (go build -overlay).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// report is the part of gremlins' JSON output that viable reads and
// rewrites; the rest is kept as it is.
type report struct {
	Files []struct {
		Name      string     `json:"file_name"`
		Mutations []mutation `json:"mutations"`
	} `json:"files"`
}

type mutation struct {
	Type   string `json:"type"`
	Status string `json:"status"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// arithmetic gives gremlins' ARITHMETIC_BASE replacement of each operator.
var arithmetic = map[string]string{"+": "-", "-": "+", "*": "/", "/": "*", "%": "*"}

func main() {
	write := flag.Bool("w", false, "rewrite the report with the mutants that do not build as NOT VIABLE")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/viable [-w] PACKAGE REPORT.json")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), flag.Arg(1), *write); err != nil {
		fmt.Fprintln(os.Stderr, "viable:", err)
		os.Exit(1)
	}
}

func run(pkg, path string, write bool) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var rep report
	if err := json.Unmarshal(raw, &rep); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	tmp, err := os.MkdirTemp("", "viable")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var killed, lived, notCovered, notViable, runnable int
	for fi := range rep.Files {
		f := &rep.Files[fi]
		src, err := findFile(pkg, f.Name)
		if err != nil {
			return err
		}
		text, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		for mi := range f.Mutations {
			m := &f.Mutations[mi]
			if (m.Status == "KILLED" || m.Status == "RUNNABLE") && m.Type == "ARITHMETIC_BASE" {
				ok, err := builds(src, text, m, tmp)
				if err != nil {
					return fmt.Errorf("%s:%d:%d: %w", f.Name, m.Line, m.Column, err)
				}
				if !ok {
					m.Status = "NOT VIABLE"
					fmt.Printf("NOT VIABLE %s at %s:%d:%d\n", m.Type, f.Name, m.Line, m.Column)
				}
			}
			switch m.Status {
			case "KILLED":
				killed++
			case "LIVED":
				lived++
			case "NOT COVERED":
				notCovered++
			case "NOT VIABLE":
				notViable++
			case "RUNNABLE":
				runnable++
			}
		}
	}
	if runnable > 0 {
		// A dry run's report: every covered mutant is RUNNABLE.
		fmt.Printf("dry run: %d runnable mutants build, %d do not (a full run would count them as killed), %d not covered\n",
			runnable, notViable, notCovered)
		return nil
	}
	eff, cov := 0.0, 0.0
	if killed+lived > 0 {
		eff = 100 * float64(killed) / float64(killed+lived)
		cov = 100 * float64(killed+lived) / float64(killed+lived+notCovered)
	}
	fmt.Printf("killed %d, lived %d, not covered %d, not viable %d: efficacy %.2f %%, mutator coverage %.2f %%\n",
		killed, lived, notCovered, notViable, eff, cov)
	if !write {
		return nil
	}
	// Rewrite the report: the files' mutations and the totals; every other
	// field as gremlins wrote it.
	var all map[string]any
	if err := json.Unmarshal(raw, &all); err != nil {
		return err
	}
	all["files"] = rep.Files
	all["mutants_killed"], all["mutants_lived"], all["mutants_not_viable"] = killed, lived, notViable
	all["mutants_not_covered"], all["mutants_total"] = notCovered, killed+lived+notViable
	all["test_efficacy"], all["mutations_coverage"] = eff, cov
	out, err := json.Marshal(all)
	if err != nil {
		return err
	}
	next := path + ".tmp"
	if err := os.WriteFile(next, out, 0o644); err != nil {
		return err
	}
	return os.Rename(next, path)
}

// findFile returns the path of the non-test Go file named name in the
// package directory pkg or below it (gremlins reports base names).
func findFile(pkg, name string) (string, error) {
	var found []string
	err := filepath.WalkDir(pkg, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == name {
			found = append(found, p)
		}
		return nil
	})
	switch {
	case err != nil:
		return "", err
	case len(found) == 0:
		return "", fmt.Errorf("%s: no file %s (is %s the package the report is of?)", pkg, name, pkg)
	case len(found) > 1:
		return "", fmt.Errorf("%s: %d files named %s below it: %s", pkg, len(found), name, strings.Join(found, ", "))
	}
	return found[0], nil
}

// builds applies m to text, the contents of src, through an overlay and
// reports whether the package of src still builds.
func builds(src string, text []byte, m *mutation, tmp string) (bool, error) {
	off, err := offset(text, m.Line, m.Column)
	if err != nil {
		return false, err
	}
	rep, ok := arithmetic[string(text[off:off+1])]
	if !ok || off+1 < len(text) && strings.ContainsRune("=+-", rune(text[off+1])) {
		return false, fmt.Errorf("no arithmetic operator at the position (%q): is the report of this source?", text[off:min(off+8, len(text))])
	}
	mutated := append(append(append([]byte(nil), text[:off]...), rep...), text[off+1:]...)
	abs, err := filepath.Abs(src)
	if err != nil {
		return false, err
	}
	file := filepath.Join(tmp, "mutant.go")
	if err := os.WriteFile(file, mutated, 0o644); err != nil {
		return false, err
	}
	overlay, err := json.Marshal(map[string]any{"Replace": map[string]string{abs: file}})
	if err != nil {
		return false, err
	}
	ov := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ov, overlay, 0o644); err != nil {
		return false, err
	}
	var stderr bytes.Buffer
	dir := filepath.Dir(src)
	if !filepath.IsAbs(dir) {
		dir = "./" + dir
	}
	cmd := exec.Command("go", "build", "-tags", "mutation", "-overlay", ov, "-o", os.DevNull, dir)
	cmd.Stderr = &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return false, nil
	}
	return err == nil, err
}

// offset returns the byte offset of line and column (1-based, in bytes, as
// go/token counts them) in text.
func offset(text []byte, line, col int) (int, error) {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(text[off:], '\n')
		if i < 0 {
			return 0, fmt.Errorf("the file has fewer than %d lines", line)
		}
		off += i + 1
	}
	if off+col-1 >= len(text) {
		return 0, fmt.Errorf("no column %d on line %d", col, line)
	}
	return off + col - 1, nil
}
