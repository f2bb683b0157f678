package main

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TestREADMEOutputs runs every command the README shows with its output
// ("$ go run ./cmd/hpcwl ARGS" followed by output lines, "..." where the
// listing is cut) and requires the shown lines to be the command's first
// output lines, so that the numbers a reader sees there are the numbers
// hpcwl prints.
func TestREADMEOutputs(t *testing.T) {
	f, err := os.Open("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type shown struct {
		args  []string
		lines []string
	}
	var all []shown
	var cur *shown
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "$ go run ./cmd/hpcwl "):
			all = append(all, shown{args: strings.Fields(strings.TrimPrefix(line, "$ go run ./cmd/hpcwl "))})
			cur = &all[len(all)-1]
		case cur == nil:
		case line == "```" || line == "...":
			cur = nil
		default:
			cur.lines = append(cur.lines, line)
		}
	}
	if len(all) == 0 {
		t.Fatal("README shows no command with its output")
	}
	for _, s := range all {
		t.Run(strings.Join(s.args, " "), func(t *testing.T) {
			if len(s.lines) == 0 {
				t.Fatal("no output shown")
			}
			code, out, errOut := runCLI(t, s.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			got := strings.Split(out, "\n")
			for i, want := range s.lines {
				if i >= len(got) || strings.TrimRight(got[i], " ") != strings.TrimRight(want, " ") {
					g := ""
					if i < len(got) {
						g = got[i]
					}
					t.Errorf("README line %d of the output of %v:\n  shown: %q\n  got:   %q", i+1, s.args, want, g)
				}
			}
		})
	}
}
