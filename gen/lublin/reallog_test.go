package lublin

import (
	"errors"
	"io"
	"testing"
	"time"
	_ "time/tzdata" // the logs' time zones, independent of the host

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/swf"
)

// readLog reads a log's successful jobs (status 1, the paper's filter, §2)
// into a Log. Without the real logs the test is skipped, or fails when
// HPCWL_REQUIRE_DATA is set (internal/testdata).
func readLog(t testing.TB, name string, keep func(swf.Job) bool) (Log, []swf.Job) {
	t.Helper()
	path := testdata.Path(t, name)
	f, err := swf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hdr, err := f.Header()
	if err != nil {
		t.Fatal(err)
	}
	var l Log
	var jobs []swf.Job
	for {
		j, err := f.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if j.Status != 1 || (keep != nil && !keep(j)) {
			continue
		}
		jobs = append(jobs, j)
		l.Submit = append(l.Submit, j.Submit)
		l.Runtime = append(l.Runtime, j.Runtime)
		l.Procs = append(l.Procs, j.Procs)
		l.Queue = append(l.Queue, j.Queue)
	}
	l.StartTime, _ = hdr.UnixStartTime()
	if p, ok := hdr.MaxProcs(); ok {
		l.MachineProcs = int(p)
	}
	if tz, ok := hdr.TimeZoneString(); ok {
		if loc, err := time.LoadLocation(tz); err == nil {
			l.Location = loc
		}
	}
	return l, jobs
}

// columns returns runtimes, sizes and interarrival times of jobs sorted by
// submit time.
func columns(jobs []swf.Job) (rt, n, ia []float64) {
	for i, j := range jobs {
		rt = append(rt, float64(j.Runtime))
		n = append(n, float64(j.Procs))
		if i > 0 {
			ia = append(ia, float64(j.Submit-jobs[i-1].Submit))
		}
	}
	return rt, n, ia
}

// BenchmarkFitSDSCBlue times FitLog on the SDSC-BLUE log (243,306 jobs,
// about 224,000 successful); reading the log is not timed.
func BenchmarkFitSDSCBlue(b *testing.B) {
	l, _ := readLog(b, "SDSC-BLUE-2000-4.2-cln.swf.gz", nil)
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := FitLog(l, nil); err != nil {
			b.Fatal(err)
		}
	}
}
