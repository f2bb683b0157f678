package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/hpcwl/hpcwl/builtin"
	"github.com/hpcwl/hpcwl/internal/testdata"
)

// slowExamples are help examples that take more than a few seconds; they
// run in the full test and are skipped under -short.
var slowExamples = map[string]bool{
	"hpcwl fit builtin:KTH-SP2":                                                                                   true,
	"hpcwl replicate builtin:KTH-SP2 --variants 1000 --scheduler easy":                                            true,
	"hpcwl replicate builtin:KTH-SP2 --variants 100 --scheduler fcfs --feedback --csv fcfs.csv":                   true,
	"hpcwl replicate SDSC-SP2-1998-4.2-cln.swf.gz --variants 20 --feedback --scheduler ups --alpha-user 1 --json": true,
	"hpcwl resample OSC-Clust-2000-3.1-cln.swf.gz --load 6 -o osc6.swf.gz --json":                                 true,
}

// TestHelpExamples runs every line of every command's Example text that
// starts with "hpcwl", as written, in one temporary directory where the
// real logs are linked by file name and small fixtures exist under the
// names the examples use (raw.swf, log.swf, log.swf.gz, out_jobs.csv, jobs.txt). The commands run
// in the order of the command tree, so an example may read what an earlier
// one wrote (fit lublin's kth-params.json feeds generate lublin). Examples
// naming a real log are skipped when the logs are absent; slow ones (listed
// in slowExamples) are skipped under -short.
func TestHelpExamples(t *testing.T) {
	dir := t.TempDir()
	haveLogs := linkRealLogs(t, dir)
	writeExampleFixtures(t, dir)
	// The repository's examples/ (the external scheduler in Python).
	if abs, err := filepath.Abs(filepath.Join("..", "..", "examples")); err != nil {
		t.Fatal(err)
	} else if err := os.Symlink(abs, filepath.Join(dir, "examples")); err != nil {
		t.Fatal(err)
	}
	// jobs.txt: Slurm accounting as sacct prints it (made by a real Slurm).
	if b, err := os.ReadFile(filepath.Join("..", "..", "sacct", "testdata", "slurm-22.05.txt")); err != nil {
		t.Fatal(err)
	} else if err := os.WriteFile(filepath.Join(dir, "jobs.txt"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, pyErr := exec.LookPath("python3")
	t.Chdir(dir)
	// out_jobs.csv: the jobs.csv of a run, as Batsim writes it.
	if code := run([]string{"simulate", "log.swf", "--jobs", "out_jobs.csv"}, io.Discard, io.Discard); code != 0 {
		t.Fatalf("writing out_jobs.csv: exit %d", code)
	}

	var examples []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, line := range strings.Split(c.Example, "\n") {
			line = strings.TrimSpace(line)
			if strings.HasPrefix(line, "hpcwl ") {
				examples = append(examples, line)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCommand(io.Discard, io.Discard))
	if len(examples) < 20 {
		t.Fatalf("found %d examples, expected the help of every command to show some", len(examples))
	}
	for ex := range slowExamples {
		if !slices.Contains(examples, ex) {
			t.Errorf("slowExamples lists %q, which no help shows", ex)
		}
	}
	for _, ex := range examples {
		t.Run(ex, func(t *testing.T) {
			if strings.Contains(ex, "--executor slurm") {
				t.Skip("needs a Slurm cluster: scripts/slurm-sweep-check runs a sweep through one")
			}
			if strings.Contains(ex, "exec:") && pyErr != nil && os.Getenv("HPCWL_REQUIRE_PYTHON") != "1" {
				t.Skip("python3 not found: the example policy was not run")
			}
			args, redirect, err := splitCommandLine(strings.TrimPrefix(ex, "hpcwl "))
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range args {
				if strings.HasSuffix(a, "-cln.swf.gz") && !haveLogs {
					t.Skipf("NOT RUN: needs the real log %s (set HPCWL_DATA)", a)
				}
			}
			if testing.Short() && slowExamples[ex] {
				t.Skip("slow example; runs without -short")
			}
			var stdout, stderr bytes.Buffer
			start := time.Now()
			code := run(args, &stdout, &stderr)
			t.Logf("%.1fs", time.Since(start).Seconds())
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, stderr.String())
			}
			if redirect != "" {
				if err := os.WriteFile(redirect, stdout.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// splitCommandLine splits a command line as a POSIX shell would for the
// simple lines of the examples: words separated by blanks, '...' and "..."
// quoting, and a final "> FILE" redirection of standard output.
func splitCommandLine(s string) (args []string, redirect string, err error) {
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote = r
			inWord = true
		case r == ' ' || r == '\t':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, "", fmt.Errorf("unterminated quote in %q", s)
	}
	if inWord {
		args = append(args, cur.String())
	}
	for i, a := range args {
		if a == ">" {
			if i != len(args)-2 {
				return nil, "", fmt.Errorf("redirection must end the line: %q", s)
			}
			return args[:i], args[i+1], nil
		}
	}
	return args, "", nil
}

// linkRealLogs links every real log into dir by its file name and reports
// whether the logs are present (with HPCWL_REQUIRE_DATA they must be).
func linkRealLogs(t *testing.T, dir string) bool {
	t.Helper()
	src, ok := testdata.Find(t)
	if !ok {
		return false
	}
	src, err := filepath.Abs(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range testdata.Logs {
		p := filepath.Join(src, l.File)
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("real log missing: %v", err)
		}
		if err := os.Symlink(p, filepath.Join(dir, l.File)); err != nil {
			t.Fatal(err)
		}
	}
	return true
}

// writeExampleFixtures writes the small logs the examples name: the header
// and first 3000 jobs of the built-in KTH log as raw.swf, log.swf and
// log.swf.gz.
func writeExampleFixtures(t *testing.T, dir string) {
	t.Helper()
	data, _, err := builtin.Open("builtin:KTH-SP2")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var small bytes.Buffer
	sc := bufio.NewScanner(zr)
	jobs := 0
	for sc.Scan() && jobs < 3000 {
		line := sc.Text()
		if !strings.HasPrefix(strings.TrimSpace(line), ";") {
			jobs++
		}
		small.WriteString(line + "\n")
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"raw.swf", "log.swf"} {
		if err := os.WriteFile(filepath.Join(dir, name), small.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// experiment.yaml: a small sweep (one resampled variant of KTH-SP2).
	exp := "name: example\nlogs: [builtin:KTH-SP2]\nschedulers: [fcfs, easy]\nvariants: 1\n"
	if err := os.WriteFile(filepath.Join(dir, "experiment.yaml"), []byte(exp), 0o644); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(small.Bytes())
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "log.swf.gz"), gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
