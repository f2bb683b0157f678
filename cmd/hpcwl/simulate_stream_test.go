package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
)

// TestSimulateStreamedMatchesLoaded runs simulate with the log read as the
// simulation goes and with it loaded whole, and compares the reports, the
// jobs.csv files and the warnings: on a real log under several schedulers
// and options, and on logs the stream must hand back to the whole-log path
// (jobs out of submit order, a record out of range).
func TestSimulateStreamedMatchesLoaded(t *testing.T) {
	dir := t.TempDir()
	kth := filepath.Join("..", "..", "builtin", "KTH-SP2-1996-2.1-cln.swf.gz")
	unordered := filepath.Join(dir, "unordered.swf")
	if err := os.WriteFile(unordered, []byte("; MaxProcs: 8\n"+
		"1 0 -1 100 3 -1 -1 3 120 -1 1 7 -1 -1 -1 -1 -1 -1\n"+
		"2 50 -1 50 2 -1 -1 2 60 -1 1 8 -1 -1 -1 -1 -1 -1\n"+
		"3 50 -1 50 2 -1 -1 2 60 -1 1 8 -1 -1 -1 -1 -1 -1\n"+
		"4 20 -1 30 8 -1 -1 8 60 -1 1 7 -1 -1 -1 -1 -1 -1\n"+
		"4 60 -1 30 1 -1 -1 1 60 -1 1 7 -1 -1 -1 2 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dups := filepath.Join(dir, "dups.swf")
	if err := os.WriteFile(dups, []byte("; MaxProcs: 8\n"+
		"1 0 -1 100 3 -1 -1 3 120 -1 1 7 -1 -1 -1 1 -1 -1\n"+
		"1 10 -1 50 20 -1 -1 2 60 -1 1 8 -1 -1 -1 2 -1 -1\n"+
		"2 20 -1 30 8 -1 -1 8 -1 -1 1 7 -1 -1 -1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	type run struct {
		log  string
		args []string
	}
	runs := []run{
		{kth, []string{"--scheduler", "easy"}},
		{kth, []string{"--scheduler", "sjbf", "--predictor", "ruh", "--kill", "--speed", "0.6"}},
		{kth, []string{"--scheduler", "conservative", "--semantics", "pyss", "--warmup-jobs", "50", "--by", "user"}},
		{kth, []string{"--scheduler", "fcfs", "--missing-estimate", "3600", "--procs-factor", "0.5", "--oversize", "clamp", "--ci-level", "0"}},
		{unordered, []string{"--scheduler", "easy"}},
		{dups, []string{"--scheduler", "easy", "--missing-estimate", "300"}},
	}
	if d, ok := testdata.Find(t); ok {
		runs = append(runs, run{filepath.Join(d, "SDSC-SP2-1998-4.2-cln.swf.gz"), []string{"--scheduler", "easy", "--kill"}})
	}
	defer func() { streamLogs = true }()
	for k, r := range runs {
		var outs [2][3]string
		for i, stream := range []bool{true, false} {
			streamLogs = stream
			jobs := filepath.Join(dir, "jobs.csv")
			args := append([]string{"simulate", r.log, "--jobs", jobs}, r.args...)
			for _, f := range []string{"", "--json"} {
				a := args
				if f != "" {
					a = append(slices.Clone(args), f)
				}
				code, out, errOut := runCLI(t, a...)
				if code != 0 {
					t.Fatalf("run %d (stream %v): exit %d: %s", k, stream, code, errOut)
				}
				lines := strings.Split(errOut, "\n")
				slices.Sort(lines) // the streamed run warns after the simulation
				outs[i][0] += out
				outs[i][1] += strings.Join(lines, "\n")
			}
			b, err := os.ReadFile(jobs)
			if err != nil {
				t.Fatal(err)
			}
			outs[i][2] = string(b)
		}
		for j, what := range []string{"report", "warnings", "jobs.csv"} {
			if outs[0][j] != outs[1][j] {
				t.Errorf("run %d %v: streamed %s differs:\n%s\nloaded:\n%s", k, r.args, what, outs[0][j], outs[1][j])
			}
		}
		if r.log == dups && !strings.Contains(outs[0][1], "reuse an earlier job number") {
			t.Errorf("dups: warnings %q", outs[0][1])
		}
	}
}
