package trace_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// streamed writes t job by job: the header first, or (deferred) last
// through a spill file.
func streamed(t *testing.T, tr *trace.Trace, l trace.Layout, deferred bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := trace.NewWriter(&buf, l)
	if deferred {
		spill, err := os.CreateTemp(t.TempDir(), "spill")
		if err != nil {
			t.Fatal(err)
		}
		defer spill.Close()
		w.Defer(spill)
	} else if err := w.WriteHeader(&tr.Header); err != nil {
		t.Fatal(err)
	}
	for i := range tr.Jobs {
		if err := w.WriteJob(&tr.Jobs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if deferred {
		if err := w.WriteHeader(&tr.Header); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if w.Jobs() != len(tr.Jobs) {
		t.Errorf("Jobs() = %d, want %d", w.Jobs(), len(tr.Jobs))
	}
	return buf.Bytes()
}

// The streamed writers give the bytes of the whole-trace writers, on the
// embedded log and every real log.
func TestWritersMatchWholeTrace(t *testing.T) {
	names := []string{"builtin:KTH-SP2"}
	for _, l := range realLogs() {
		names = append(names, testdata.Path(t, l.File))
	}
	for _, name := range names {
		tr, err := trace.Load(name, trace.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Run(tr.Name[strings.LastIndex(tr.Name, "/")+1:], func(t *testing.T) {
			var swfWant, csvWant, pqWant bytes.Buffer
			if err := tr.WriteSWF(&swfWant); err != nil {
				t.Fatal(err)
			}
			if err := tr.WriteCSV(&csvWant); err != nil {
				t.Fatal(err)
			}
			meta := map[string]string{"hpcwl.input": tr.Name}
			if err := tr.WriteParquet(&pqWant, meta); err != nil {
				t.Fatal(err)
			}
			for _, deferred := range []bool{false, true} {
				if got := streamed(t, tr, trace.SWFLayout{}, deferred); !bytes.Equal(got, swfWant.Bytes()) {
					t.Errorf("SWF (header last: %v) differs from WriteSWF", deferred)
				}
				if got := streamed(t, tr, trace.CSVLayout{}, deferred); !bytes.Equal(got, csvWant.Bytes()) {
					t.Errorf("CSV (header last: %v) differs from WriteCSV", deferred)
				}
			}
			var pq bytes.Buffer
			pw := trace.NewParquetWriter(&pq, map[string]string{"hpcwl.input": "?"})
			for i := range tr.Jobs {
				if err := pw.WriteJob(&tr.Jobs[i]); err != nil {
					t.Fatal(err)
				}
			}
			pw.SetHeader(&tr.Header) // after the jobs, as a header known last
			if err := pw.SetMetadata("hpcwl.input", tr.Name); err != nil {
				t.Fatal(err)
			}
			if err := pw.Close(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(pq.Bytes(), pqWant.Bytes()) {
				t.Errorf("Parquet differs from WriteParquet (%d and %d bytes)", pq.Len(), pqWant.Len())
			}
		})
	}
}

// A Scanner reads what Load reads, job by job, from SWF and Parquet.
func TestScannerMatchesLoad(t *testing.T) {
	names := []string{"builtin:KTH-SP2", testdata.Odd("reqtime.swf")}
	// The odd log as Parquet: its requested times at the limit are read
	// as unknown, and the oddities are kept in the file's header.
	odd, err := trace.Load(testdata.Odd("reqtime.swf"), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pq := t.TempDir() + "/reqtime.parquet"
	if err := os.WriteFile(pq, writeParquet(t, odd, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	names = append(names, pq)
	for _, l := range realLogs() {
		names = append(names, testdata.Path(t, l.File))
	}
	for _, name := range names {
		want, err := trace.Load(name, trace.Options{Procs: 7})
		if err != nil {
			t.Fatal(err)
		}
		s, err := trace.OpenScanner(name, trace.Options{Procs: 7})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Trace(); err == nil {
			t.Errorf("%s: Trace before the end gave no error", name)
		}
		i := 0
		for {
			var j trace.Job
			err := s.Next(&j)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if i >= len(want.Jobs) || j != want.Jobs[i] {
				t.Fatalf("%s: job %d differs", name, i)
			}
			i++
		}
		if s.Len() != i || fmt.Sprint(*s.Header()) != fmt.Sprint(want.Header) && !want.Oddities.Any() {
			t.Errorf("%s: Len() = %d after %d jobs, header %v", name, s.Len(), i, *s.Header())
		}
		if err := s.Next(new(trace.Job)); err != io.EOF {
			t.Errorf("%s: Next after the end gave %v, want io.EOF", name, err)
		}
		got, err := s.Trace()
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		if i != len(want.Jobs) || got.SHA256 != want.SHA256 || got.Procs != want.Procs || got.Oddities.String() != want.Oddities.String() ||
			fmt.Sprint(got.Header) != fmt.Sprint(want.Header) || fmt.Sprint(s.Warnings()) != fmt.Sprint(want.Check()) {
			t.Errorf("%s: scanned %d jobs, sha %s, procs %d, oddities %+v; want %d, %s, %d, %+v", name,
				i, got.SHA256, got.Procs, got.Oddities, len(want.Jobs), want.SHA256, want.Procs, want.Oddities)
		}
	}
}

func TestCheckerFindsReusedNumbersAndDisorder(t *testing.T) {
	jobs := []trace.Job{{ID: 5, Submit: 10}, {ID: -70000, Submit: 20}, {ID: 5, Submit: 15}, {ID: 1 << 40, Submit: 30}, {ID: -70000, Submit: 30}}
	tr := trace.New(swf.Header{}, jobs, trace.Options{})
	tr.Name = "x"
	ws := tr.Check()
	if len(ws) != 2 || !strings.Contains(ws[0], "2 job(s) reuse") || !strings.Contains(ws[0], "first: job 5") ||
		!strings.Contains(ws[1], "1 job(s) are submitted before") || !strings.Contains(ws[1], "(first: job 5)") {
		t.Errorf("warnings %q", ws)
	}
	// A first job with an unknown submit time (-1) is not out of order.
	if ws := trace.New(swf.Header{}, []trace.Job{{ID: 1, Submit: -1}, {ID: 2, Submit: 0}}, trace.Options{}).Check(); ws != nil {
		t.Errorf("warnings %q, want none", ws)
	}
}

// ExampleWriter writes a trace job by job whose header, counting the jobs,
// is known only after them: the jobs wait in a spill file.
func ExampleWriter() {
	spill, err := os.CreateTemp("", "jobs")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.Remove(spill.Name())
	defer spill.Close()
	w := trace.NewWriter(os.Stdout, trace.SWFLayout{})
	w.Defer(spill)
	for i := int64(1); i <= 3; i++ {
		j := trace.Job{ID: i, Submit: 60 * i, Wait: -1, Runtime: 100, ReqTime: -1, ThinkTime: -1, AvgCPU: -1, UsedMem: -1, ReqMem: -1,
			Procs: 4, ReqProcs: -1, User: -1, Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: -1, Status: 1}
		if err := w.WriteJob(&j); err != nil {
			fmt.Println(err)
			return
		}
	}
	var h swf.Header
	h.Add("MaxJobs", fmt.Sprint(w.Jobs()))
	if err := w.WriteHeader(&h); err != nil {
		fmt.Println(err)
		return
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// ; MaxJobs: 3
	// 1 60 -1 100 4 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
	// 2 120 -1 100 4 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
	// 3 180 -1 100 4 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
}

// Past several row groups (2^18 rows each), the ParquetWriter still gives
// WriteParquet's bytes, and the file reads back as the jobs written.
func TestParquetWriterRowGroups(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 1.1 million rows twice")
	}
	n, groups := 1<<20+70001, 5
	if quick {
		n, groups = 1<<18+1, 2 // one row past the first group
	}
	jobs := make([]trace.Job, n)
	for i := range jobs {
		jobs[i] = trace.Job{ID: int64(i + 1), Submit: int64(i * 7), Wait: int64(i % 13), Runtime: int64(i % 977), Procs: int32(1 + i%64),
			ReqProcs: -1, ReqTime: -1, AvgCPU: float64(i%5) / 2, UsedMem: -1, ReqMem: -1, Status: 1, User: int32(i % 101),
			Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1}
	}
	var h swf.Header
	h.Add("MaxJobs", fmt.Sprint(n))
	tr := trace.New(h, jobs, trace.Options{})
	var want, got bytes.Buffer
	if err := tr.WriteParquet(&want, nil); err != nil {
		t.Fatal(err)
	}
	pw := trace.NewParquetWriter(&got, nil)
	pw.SetHeader(&tr.Header)
	for i := range jobs {
		if err := pw.WriteJob(&jobs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("Parquet differs from WriteParquet (%d and %d bytes)", got.Len(), want.Len())
	}
	back, err := trace.ReadParquet(bytes.NewReader(got.Bytes()), int64(got.Len()), "rows.parquet", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Jobs, jobs) || fmt.Sprint(back.Header.Lines) != fmt.Sprint(tr.Header.Lines) {
		for i := range min(len(back.Jobs), n) {
			if back.Jobs[i] != jobs[i] {
				t.Errorf("read back: job %d is %+v, written %+v", i, back.Jobs[i], jobs[i])
				break
			}
		}
		t.Errorf("read back: %d jobs of %d, header %v, written %v", len(back.Jobs), n, back.Header, tr.Header)
	}
	f, err := parquet.OpenFile(bytes.NewReader(got.Bytes()), int64(got.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if g := len(f.RowGroups()); g != groups {
		t.Errorf("%d row groups, want %d of at most 262,144 rows", g, groups)
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestWriterMisuse: a job or Close before the header without a spill file,
// and a second header, are errors, and the first error sticks; a failing
// output's error comes back from Close. JobWriterFunc calls its function.
func TestWriterMisuse(t *testing.T) {
	j := trace.Job{ID: 1, Procs: 1}
	w := trace.NewWriter(io.Discard, trace.SWFLayout{})
	if err := w.WriteJob(&j); !errors.Is(err, trace.ErrNoHeader) {
		t.Errorf("job before the header: %v, want ErrNoHeader", err)
	}
	if err := w.WriteHeader(&swf.Header{}); !errors.Is(err, trace.ErrNoHeader) {
		t.Errorf("header after a failed job: %v, want the first error", err)
	}
	if err := w.Close(); !errors.Is(err, trace.ErrNoHeader) || w.Jobs() != 0 {
		t.Errorf("Close after a failed job: %v, %d jobs", err, w.Jobs())
	}
	if err := trace.NewWriter(io.Discard, trace.CSVLayout{}).Close(); !errors.Is(err, trace.ErrNoHeader) {
		t.Errorf("Close without a header: %v, want ErrNoHeader", err)
	}
	w = trace.NewWriter(io.Discard, trace.SWFLayout{})
	if err := w.WriteHeader(&swf.Header{}); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteHeader(&swf.Header{}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("second header: %v", err)
	}
	if err := w.WriteJob(&j); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("job after the second header: %v, want the first error", err)
	}
	w = trace.NewWriter(failWriter{}, trace.CSVLayout{})
	var h swf.Header
	h.Add("MaxProcs", "4")
	if err := w.WriteHeader(&h); err != nil {
		t.Fatal(err) // buffered
	}
	if err := w.WriteJob(&j); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Close on a failing output: %v", err)
	}
	n := 0
	f := trace.JobWriterFunc(func(j *trace.Job) error { n += int(j.ID); return nil })
	if err := f.WriteJob(&trace.Job{ID: 5}); err != nil || n != 5 {
		t.Errorf("JobWriterFunc: %v, %d", err, n)
	}
}

// TestParquetWriterEdges: a trace without jobs gives WriteParquet's bytes,
// and only the metadata keys given at creation may change (the header's
// has its own setter).
func TestParquetWriterEdges(t *testing.T) {
	var h swf.Header
	h.Add("MaxProcs", "4")
	var want, got bytes.Buffer
	if err := trace.New(h, nil, trace.Options{}).WriteParquet(&want, map[string]string{"k": "v"}); err != nil {
		t.Fatal(err)
	}
	pw := trace.NewParquetWriter(&got, map[string]string{"k": "?"})
	pw.SetHeader(&h)
	for _, key := range []string{"other", trace.ParquetHeaderKey} {
		if err := pw.SetMetadata(key, "x"); err == nil || !strings.Contains(err.Error(), "not given at creation") {
			t.Errorf("SetMetadata(%q): %v", key, err)
		}
	}
	if err := pw.SetMetadata("k", "v"); err != nil {
		t.Fatal(err)
	}
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("no jobs: Parquet differs from WriteParquet (%d and %d bytes)", got.Len(), want.Len())
	}
	// It reads back as a trace without jobs, with its header.
	back, err := trace.ReadParquet(bytes.NewReader(got.Bytes()), int64(got.Len()), "empty.parquet", trace.Options{})
	if err != nil || back.Len() != 0 || back.Procs != 4 {
		t.Errorf("read back: %v, %+v", err, back)
	}
}
