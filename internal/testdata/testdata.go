// Package testdata locates the Parallel Workloads Archive logs that the
// tests and benchmarks read, and lists what they are known to hold.
package testdata

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// Log describes one of the archive's logs kept beside the repository.
type Log struct {
	File  string // file name in the data directory
	Jobs  int    // number of jobs (its README's table)
	Users int    // distinct non-negative user IDs
	Procs int    // MaxProcs
}

// Logs lists the eleven logs of the Parallel Workloads Archive that the tests
// read (see README), with the figures their README gives.
var Logs = []Log{
	{"NASA-iPSC-1993-3.1-cln.swf.gz", 18239, 69, 128},
	{"LANL-CM5-1994-4.1-cln.swf.gz", 122060, 213, 1024},
	{"SDSC-Par-1996-3.1-cln.swf.gz", 32135, 60, 400},
	{"CTC-SP2-1996-3.1-cln.swf.gz", 77222, 679, 338},
	{"KTH-SP2-1996-2.1-cln.swf.gz", 28476, 214, 100},
	{"SDSC-SP2-1998-4.2-cln.swf.gz", 59715, 437, 128},
	{"SDSC-BLUE-2000-4.2-cln.swf.gz", 243306, 468, 1152},
	{"OSC-Clust-2000-3.1-cln.swf.gz", 36097, 253, 178},
	{"HPC2N-2002-2.2-cln.swf.gz", 202871, 257, 240},
	{"SDSC-DS-2004-2.1-cln.swf.gz", 96069, 460, 1664},
	{"LLNL-Atlas-2006-2.1-cln.swf.gz", 43778, 130, 9216},
}

// Dir returns the directory holding the real logs: $HPCWL_DATA if set, else
// shared/data/swf beside the repository. When the logs are not there the
// test is skipped with a message saying so, or fails when
// $HPCWL_REQUIRE_DATA is set.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir, ok := Find(tb)
	if !ok {
		skipped.Add(1)
		tb.Skipf("NOT RUN: real logs not found in %s (set HPCWL_DATA to their directory)", dir)
	}
	return dir
}

// Find is [Dir] for tests that also do something useful without the real
// logs (a fuzz target seeding its corpus from them, the help examples that
// do not name one): it reports whether the logs are there instead of
// skipping. When they are not and $HPCWL_REQUIRE_DATA is set, the test
// fails all the same.
func Find(tb testing.TB) (dir string, ok bool) {
	tb.Helper()
	dir, ok = locate()
	if !ok && Required() {
		tb.Fatalf("real logs required (HPCWL_REQUIRE_DATA is set) but not found in %s", dir)
	}
	return dir, ok
}

// locate returns the directory of the real logs and whether they are there.
func locate() (string, bool) {
	dir := os.Getenv("HPCWL_DATA")
	if dir == "" {
		_, file, _, _ := runtime.Caller(0)
		dir = filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "data", "swf")
	}
	_, err := os.Stat(filepath.Join(dir, Logs[0].File))
	return dir, err == nil
}

// Required reports whether $HPCWL_REQUIRE_DATA asks that every test reading
// the real logs run: set to anything but "" or "0".
func Required() bool {
	v := os.Getenv("HPCWL_REQUIRE_DATA")
	return v != "" && v != "0"
}

// Path returns the path of the named real log, skipping the test when the
// logs are absent.
func Path(tb testing.TB, file string) string {
	tb.Helper()
	return filepath.Join(Dir(tb), file)
}

// skipped counts the tests of this test binary skipped for want of the
// real logs.
var skipped atomic.Int64

// Where tells where the real logs come from.
const Where = "the cleaned logs of the Parallel Workloads Archive, https://www.cs.huji.ac.il/labs/parallel/workload/logs.html " +
	"(file names in internal/testdata.Logs), in ../shared/data/swf beside the repository or in $HPCWL_DATA"

// Main runs the tests of a package that reads the real logs; call it from
// TestMain: os.Exit(testdata.Main(m)). When the logs are missing and
// $HPCWL_REQUIRE_DATA is set, it fails at once, saying where it looked. When
// tests were skipped because the logs are missing, it says how many and
// where to get the logs in one line on the terminal (go test shows nothing
// of a passing package otherwise), or on standard error when there is no
// terminal.
func Main(m *testing.M) int {
	if dir, ok := locate(); !ok && Required() {
		fmt.Fprintf(os.Stderr, "FAIL: real logs required (HPCWL_REQUIRE_DATA is set) but not found in %s; get %s\n", dir, Where)
		return 1
	}
	code := m.Run()
	if n := skipped.Load(); n > 0 {
		pkg := strings.TrimSuffix(filepath.Base(os.Args[0]), ".test")
		var w io.Writer = os.Stderr
		if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
			defer tty.Close()
			w = tty
		}
		fmt.Fprintf(w, "NOT RUN: %d tests of %s need the real logs; get %s\n", n, pkg, Where)
	}
	return code
}

// Odd returns the path of a hand-made log in internal/testdata/odd, each
// reproducing one oddity of real logs (see the README there).
func Odd(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "odd", name)
}

// OddLogs lists the hand-made logs of internal/testdata/odd.
var OddLogs = []string{"status.swf", "reqtime.swf", "nowait.swf", "gap.swf", "serial.swf",
	"idle.swf", "batsim.swf", "dropped.swf", "daily.swf"}
