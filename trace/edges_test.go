package trace_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// TestLenientInt32Limit: in lenient mode a value of 2^31 - 1, the largest a
// 32-bit field holds, is kept; 2^31 is read as unknown and counted.
func TestLenientInt32Limit(t *testing.T) {
	const hdr = "; MaxProcs: 64\n"
	for _, tc := range []struct {
		user string
		want int32
		odd  int
	}{
		{"2147483647", 2147483647, 0},
		{"2147483648", -1, 1},
	} {
		tr := load(t, hdr+"1 0 0 10 4 -1 -1 4 -1 -1 1 "+tc.user+" -1 -1 -1 -1 -1 -1\n", trace.Options{Lenient: true})
		if got, odd := tr.Jobs[0].User, tr.Oddities.OutOfRange["User ID"]; got != tc.want || odd != tc.odd {
			t.Errorf("user %s: read %d, %d replaced; want %d, %d", tc.user, got, odd, tc.want, tc.odd)
		}
	}
}

// TestMaxRecordsHint: the header's MaxRecords only sizes the reader's first
// allocation. A damaged value (negative, or 10^12 records for a log of two
// jobs) must not fail the read or make it allocate for jobs that are not
// there.
func TestMaxRecordsHint(t *testing.T) {
	const jobs = "1 0 0 10 4 -1 -1 4 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n2 5 0 10 4 -1 -1 4 -1 -1 1 1 -1 -1 -1 -1 -1 -1\n"
	for _, n := range []string{"-5", "0", "2", "50000000", "1000000000000"} {
		tr := load(t, "; MaxProcs: 64\n; MaxRecords: "+n+"\n"+jobs, trace.Options{})
		if tr.Len() != 2 {
			t.Errorf("MaxRecords %s: %d jobs, want 2", n, tr.Len())
		}
	}
}

// TestMachineSizeFallsBackToNodes: a MaxProcs of 0 says nothing about the
// machine; MaxNodes gives its size then.
func TestMachineSizeFallsBackToNodes(t *testing.T) {
	tr := load(t, "; MaxProcs: 0\n; MaxNodes: 64\n", trace.Options{})
	if n, err := tr.MachineSize(); n != 64 || err != nil {
		t.Errorf("machine size %d, %v; want 64 from MaxNodes", n, err)
	}
}

// TestClockWeeksFromThursday: weeks start on Monday 00:00 even when the log
// does not. 1970-01-01 was a Thursday, so in UTC week 0 runs from Monday
// 1969-12-29 to Sunday 1970-01-04 23:59:59, and week 1 starts 4 days after
// relative time 0.
func TestClockWeeksFromThursday(t *testing.T) {
	c := load(t, "; UnixStartTime: 0\n", trace.Options{}).Clock()
	for _, tc := range []struct {
		s    int64
		week int
	}{
		{-3 * 86400, 0}, {-3*86400 - 1, -1}, {0, 0}, {4*86400 - 1, 0}, {4 * 86400, 1}, {11 * 86400, 2},
	} {
		if got := c.Week(tc.s); got != tc.week {
			t.Errorf("Week(%d) = %d, want %d", tc.s, got, tc.week)
		}
	}
}

// failAfter accepts n bytes, then fails every write.
type failAfter struct{ n int }

func (w *failAfter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errors.New("disk full")
	}
	w.n -= len(p)
	return len(p), nil
}

// TestWriterReportsFailures: a failing output is reported by the call that
// met it, not only by Close: by WriteJob when the job went straight to the
// output, by WriteHeader when the jobs spilled before the header are copied
// out.
func TestWriterReportsFailures(t *testing.T) {
	var h swf.Header
	h.Add("MaxProcs", "4")
	j := trace.Job{ID: 1, Procs: 1, Runtime: 10, Submit: 0}
	// Straight to the output: the writer's buffer fills and meets the
	// failure within 10,000 jobs of 20 bytes or more.
	w := trace.NewWriter(&failAfter{n: 1000}, trace.SWFLayout{})
	if err := w.WriteHeader(&h); err != nil {
		t.Fatal(err)
	}
	var err error
	for i := 0; i < 10000 && err == nil; i++ {
		j.ID = int64(i + 1)
		err = w.WriteJob(&j)
	}
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("10,000 jobs to a failing output: %v, want the failure", err)
	}
	// Spilled: the header comes last, and copying the spill out fails.
	w = trace.NewWriter(&failAfter{n: 1000}, trace.SWFLayout{})
	spill, err := os.CreateTemp(t.TempDir(), "spill")
	if err != nil {
		t.Fatal(err)
	}
	defer spill.Close()
	w.Defer(spill)
	for i := 0; i < 10000; i++ {
		j.ID = int64(i + 1)
		if err := w.WriteJob(&j); err != nil {
			t.Fatalf("spilled job %d: %v", i+1, err)
		}
	}
	if err := w.WriteHeader(&h); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("copying 10,000 spilled jobs to a failing output: %v, want the failure", err)
	}
	if err := w.Close(); err == nil {
		t.Error("Close after a failed copy: no error")
	}
}

// TestParquetWriterReportsFlushFailure: the job that completes a row group
// (2^18 rows) writes the group out, and a failing output is reported by
// that WriteJob, not only by Close.
func TestParquetWriterReportsFlushFailure(t *testing.T) {
	pw := trace.NewParquetWriter(&failAfter{n: 0}, nil)
	j := trace.Job{Procs: 1, Runtime: 10, ReqProcs: -1, ReqTime: -1, UsedMem: -1, ReqMem: -1, Status: 1,
		User: 1, Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1}
	var err error
	n := 0
	for ; n < 1<<18 && err == nil; n++ {
		j.ID, j.Submit = int64(n+1), int64(n)
		err = pw.WriteJob(&j)
	}
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("a row group of %d jobs to a failing output: %v, want the failure", n, err)
	}
	t.Logf("failure reported at job %d", n)
}
