package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionFlag requires --version to print what `hpcwl version` prints.
func TestVersionFlag(t *testing.T) {
	c1, flag, _ := runCLI(t, "--version")
	c2, cmd, _ := runCLI(t, "version")
	if c1 != 0 || c2 != 0 || flag != cmd || !strings.HasPrefix(flag, "hpcwl ") {
		t.Errorf("--version: %d %q; version: %d %q", c1, flag, c2, cmd)
	}
}

// TestManPages writes the manual pages and checks one per command, each
// with the command's options.
func TestManPages(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := runCLI(t, "man", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, name := range []string{"hpcwl.1", "hpcwl-simulate.1", "hpcwl-fit-lublin.1", "hpcwl-man.1"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), ".TH \"HPCWL\" \"1\"") {
			t.Errorf("%s: no man header", name)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "hpcwl-simulate.1"))
	if !strings.Contains(string(b), "scheduler") || !strings.Contains(string(b), "procs-field") {
		t.Error("hpcwl-simulate.1 lacks the simulate options")
	}
	if code, _, _ := runCLI(t, "man"); code != 2 {
		t.Errorf("man without a directory: exit %d, want 2", code)
	}
}
