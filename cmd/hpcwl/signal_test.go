//go:build unix

package main

import (
	"errors"
	"github.com/hpcwl/hpcwl/internal/testdata"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary run the command itself, so that a test can
// start hpcwl as a child process and signal it.
func TestMain(m *testing.M) {
	if os.Getenv("HPCWL_RUN_MAIN") == "1" {
		if n, err := strconv.ParseUint(os.Getenv("HPCWL_FSIZE"), 10, 64); err == nil {
			// The largest file the process may write: a full disk, for tests.
			if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
				panic(err)
			}
		}
		os.Args = append([]string{"hpcwl"}, strings.Fields(os.Getenv("HPCWL_ARGS"))...)
		main()
		return
	}
	os.Exit(testdata.Main(m))
}

// TestInterrupt checks that SIGINT and SIGTERM stop a long command promptly
// with exit status 130 and leave neither the output nor a temporary file,
// whether the signal comes while the command computes or while it writes.
func TestInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	tests := []struct {
		name    string
		sig     syscall.Signal
		writing bool   // signal once the temporary output file exists
		args    string // default: generate lublin --count 2000000
	}{
		{"SIGINT while computing", syscall.SIGINT, false, ""},
		{"SIGTERM while computing", syscall.SIGTERM, false, ""},
		{"SIGINT while writing", syscall.SIGINT, true, ""},
		// The header counts the jobs a duration ends: they wait in a
		// scratch file, which goes too.
		{"SIGINT while writing the jobs before the header", syscall.SIGINT, true, "generate lublin --duration 3000w"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(exe, "-test.run=^$")
			args := tt.args
			if args == "" {
				args = "generate lublin --count 2000000"
			}
			cmd.Env = append(os.Environ(), "HPCWL_RUN_MAIN=1",
				"HPCWL_ARGS="+args+" -o "+filepath.Join(dir, "out.swf"))
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(20 * time.Second)
			if tt.writing {
				for {
					entries, _ := os.ReadDir(dir)
					if len(entries) > 0 {
						break
					}
					if time.Now().After(deadline) {
						cmd.Process.Kill()
						t.Fatal("no temporary file appeared")
					}
					time.Sleep(2 * time.Millisecond)
				}
			} else {
				time.Sleep(150 * time.Millisecond)
			}
			sent := time.Now()
			cmd.Process.Signal(tt.sig)
			err := cmd.Wait()
			if d := time.Since(sent); d > 2*time.Second {
				t.Errorf("stopped %v after the signal", d)
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitCanceled {
				t.Errorf("exit: %v, want status %d", err, exitCanceled)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("left behind: %v", entries)
			}
		})
	}
}

// TestOutputFull checks that a write that fails part-way (here the file
// size limit, as a full disk would) stops the command with exit status 1
// and an error naming the output, and leaves no partial file.
func TestOutputFull(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	for _, args := range []string{
		"simulate builtin:KTH-SP2 --jobs OUT/jobs.csv",
		"generate lublin --count 100000 -o OUT/out.swf",
		"convert builtin:KTH-SP2 -o OUT/kth.parquet",
		"convert builtin:KTH-SP2 -o OUT/kth.swf",
		"generate lublin --duration 100w -o OUT/out.swf",
		"resample builtin:KTH-SP2 --duration 100w -o OUT/r.swf",
		"scale builtin:KTH-SP2 --by runtime --load 1.1 -o OUT/s.csv",
		"clean builtin:KTH-SP2 --flurries weekly -o OUT/c.json",
	} {
		t.Run(args, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(exe, "-test.run=^$")
			cmd.Env = append(os.Environ(), "HPCWL_RUN_MAIN=1", "HPCWL_FSIZE=65536",
				"HPCWL_ARGS="+strings.ReplaceAll(args, "OUT", dir))
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitError {
				t.Fatalf("exit: %v, want status %d; output %s", err, exitError, out)
			}
			if !strings.Contains(string(out), "file too large") || !strings.Contains(string(out), dir) || strings.Contains(string(out), ".tmp-") || strings.Contains(string(out), "spill") {
				t.Errorf("message %q: want the output's name and the cause, not the temporary file's", out)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("left behind: %v", entries)
			}
		})
	}
}
