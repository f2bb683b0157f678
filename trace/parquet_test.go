package trace_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"pgregory.net/rapid"
)

func writeParquet(t interface {
	Helper()
	Fatal(...any)
}, tr *trace.Trace, meta map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := tr.WriteParquet(&buf, meta); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readParquet(data []byte) (*trace.Trace, error) {
	return trace.ReadParquet(bytes.NewReader(data), int64(len(data)), "x.parquet", trace.Options{})
}

// TestParquetRoundTripKTH converts the built-in KTH-SP2 log SWF -> Parquet
// -> SWF and checks that the SWF text (header and job lines) comes back
// byte for byte.
func TestParquetRoundTripKTH(t *testing.T) {
	orig, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data := writeParquet(t, orig, map[string]string{"hpcwl.version": "test"})
	if !trace.IsParquet(data) {
		t.Fatalf("output starts with %q", data[:4])
	}
	back, err := readParquet(data)
	if err != nil {
		t.Fatal(err)
	}
	sameTrace(t, back, orig)
	var a, b bytes.Buffer
	if err := orig.WriteSWF(&a); err != nil {
		t.Fatal(err)
	}
	if err := back.WriteSWF(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("SWF -> Parquet -> SWF changed the SWF text")
	}
	// The Parquet file is smaller than the SWF text: columns are typed and
	// compressed.
	if len(data) >= a.Len()/2 {
		t.Errorf("Parquet %d bytes, SWF %d bytes: compression seems off", len(data), a.Len())
	}
	pf, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := pf.Lookup("hpcwl.version"); v != "test" {
		t.Errorf("metadata hpcwl.version = %q", v)
	}
	for _, rg := range pf.Metadata().RowGroups {
		for _, c := range rg.Columns {
			if c.MetaData.Codec.String() != "ZSTD" {
				t.Errorf("column %v codec %s", c.MetaData.PathInSchema, c.MetaData.Codec)
			}
		}
	}
}

func TestParquetRoundTripRealLogs(t *testing.T) {
	for _, lg := range realLogs() {
		t.Run(lg.File, func(t *testing.T) {
			tr, err := trace.Load(testdata.Path(t, lg.File), trace.Options{})
			if err != nil {
				t.Fatal(err)
			}
			back, err := readParquet(writeParquet(t, tr, nil))
			if err != nil {
				t.Fatal(err)
			}
			sameTrace(t, back, tr)
		})
	}
}

// TestParquetRoundTripProperty writes random traces, with every field
// unknown now and then, and reads them back.
func TestParquetRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(0, 50).Draw(rt, "jobs")
		i64 := func(name string) int64 {
			return rapid.OneOf(rapid.Just(int64(-1)), rapid.Int64Range(0, 1<<40)).Draw(rt, name)
		}
		i32 := func(name string) int32 {
			return rapid.OneOf(rapid.Just(int32(-1)), rapid.Int32Range(0, math.MaxInt32)).Draw(rt, name)
		}
		f64 := func(name string) float64 {
			return rapid.OneOf(rapid.Just(-1.0), rapid.Float64Range(0, 1e9)).Draw(rt, name)
		}
		jobs := make([]trace.Job, n)
		for i := range jobs {
			jobs[i] = trace.Job{ID: i64("id"), Submit: i64("submit"), Wait: i64("wait"), Runtime: i64("run"),
				ReqTime: i64("req"), ThinkTime: rapid.Int64Range(-1<<40, 1<<40).Draw(rt, "think"),
				AvgCPU: f64("cpu"), UsedMem: f64("mem"), ReqMem: f64("reqmem"),
				Procs: i32("procs"), ReqProcs: i32("reqprocs"), User: i32("user"), Group: i32("group"),
				App: i32("app"), Queue: i32("queue"), Partition: i32("part"), Preceding: i32("prec"),
				Status: rapid.Int32Range(-1, 5).Draw(rt, "status")}
		}
		var h swf.Header
		h.Add("MaxProcs", "64")
		h.AddNote("random")
		tr := trace.New(h, jobs, trace.Options{})
		back, err := readParquet(writeParquet(rt, tr, nil))
		if err != nil {
			rt.Fatal(err)
		}
		if len(back.Jobs) != n || back.Procs != 64 {
			rt.Fatalf("%d jobs, procs %d", len(back.Jobs), back.Procs)
		}
		for i := range jobs {
			if back.Jobs[i] != jobs[i] {
				rt.Fatalf("job %d = %+v, want %+v", i, back.Jobs[i], jobs[i])
			}
		}
	})
}

// TestParquetUnknownIsNull checks that SWF's -1 is stored as null.
func TestParquetUnknownIsNull(t *testing.T) {
	j := trace.Job{ID: 1, Submit: 0, Wait: -1, Runtime: 10, ReqTime: -1, ThinkTime: -1, AvgCPU: -1, UsedMem: 2.5, ReqMem: -1,
		Procs: 4, ReqProcs: -1, User: 0, Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: -1, Status: 1}
	data := writeParquet(t, trace.New(swf.Header{}, []trace.Job{j}, trace.Options{}), nil)
	pf, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]parquet.Row, 1)
	r := pf.RowGroups()[0].Rows()
	defer r.Close()
	if n, _ := r.ReadRows(rows); n != 1 {
		t.Fatalf("read %d rows", n)
	}
	nulls := map[string]bool{}
	for _, v := range rows[0] {
		if v.IsNull() {
			nulls[trace.CSVColumns[v.Column()]] = true
		}
	}
	for _, c := range []string{"wait_time", "requested_time", "think_time", "average_cpu_time", "requested_memory",
		"requested_processors", "group_id", "preceding_job_number"} {
		if !nulls[c] {
			t.Errorf("%s: -1 not stored as null", c)
		}
	}
	for _, c := range []string{"job_number", "submit_time", "run_time", "used_memory", "user_id", "status"} {
		if nulls[c] {
			t.Errorf("%s: a known value stored as null", c)
		}
	}
}

// Rows of files written by other tools, for the bad-input tests.
type (
	missingRunTime struct {
		JobNumber  int64 `parquet:"job_number"`
		SubmitTime int64 `parquet:"submit_time"`
	}
	stringUser struct {
		JobNumber int64  `parquet:"job_number"`
		UserID    string `parquet:"user_id"`
	}
)

// fullRow returns a map row with every SWF column as INT64, with the
// column named over replaced by value.
func fullRow(over string, value any) map[string]any {
	m := map[string]any{}
	for _, c := range trace.CSVColumns {
		m[c] = int64(1)
	}
	if over != "" {
		if value == nil {
			delete(m, over)
		} else {
			m[over] = value
		}
	}
	return m
}

func writeRows[T any](t *testing.T, rows []T, opts ...parquet.WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf, opts...)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func schemaOf(over string, node parquet.Node) *parquet.Schema {
	g := parquet.Group{}
	for _, c := range trace.CSVColumns {
		g[c] = parquet.Int(64)
	}
	if over != "" {
		if node == nil {
			delete(g, over)
		} else {
			g[over] = node
		}
	}
	return parquet.NewSchema("jobs", g)
}

func TestParquetBadColumns(t *testing.T) {
	cases := []struct {
		name   string
		data   func(t *testing.T) []byte
		column string // the error must say this, naming the column
	}{
		{"run_time missing", func(t *testing.T) []byte {
			s := schemaOf("run_time", nil)
			return writeRows(t, []map[string]any{fullRow("run_time", nil)}, s)
		}, "missing column run_time "},
		{"user_id a string", func(t *testing.T) []byte {
			s := schemaOf("user_id", parquet.String())
			return writeRows(t, []map[string]any{fullRow("user_id", "alice")}, s)
		}, `"user_id" (SWF field 12, User ID) has type`},
		{"used_memory a boolean", func(t *testing.T) []byte {
			s := schemaOf("used_memory", parquet.Leaf(parquet.BooleanType))
			return writeRows(t, []map[string]any{fullRow("used_memory", true)}, s)
		}, `"used_memory" (SWF field 7, Used Memory) has type`},
		{"only two columns", func(t *testing.T) []byte {
			return writeRows(t, []missingRunTime{{1, 2}})
		}, "missing column wait_time, run_time, allocated_processors,"},
		{"string user, other columns missing", func(t *testing.T) []byte {
			return writeRows(t, []stringUser{{1, "bob"}})
		}, `"user_id" (SWF field 12, User ID) has type`},
		{"fractional run time", func(t *testing.T) []byte {
			s := schemaOf("run_time", parquet.Leaf(parquet.DoubleType))
			return writeRows(t, []map[string]any{fullRow("run_time", 1.5)}, s)
		}, `"run_time": 1.5 is not a whole number`},
		{"negative wait", func(t *testing.T) []byte {
			return writeRows(t, []map[string]any{fullRow("wait_time", int64(-7))}, schemaOf("", nil))
		}, `"wait_time": -7`},
		{"negative memory", func(t *testing.T) []byte {
			s := schemaOf("used_memory", parquet.Leaf(parquet.DoubleType))
			return writeRows(t, []map[string]any{fullRow("used_memory", -2.5)}, s)
		}, `"used_memory": -2.5 is not a valid Used Memory`},
		{"infinite CPU time", func(t *testing.T) []byte {
			s := schemaOf("average_cpu_time", parquet.Leaf(parquet.DoubleType))
			return writeRows(t, []map[string]any{fullRow("average_cpu_time", math.Inf(1))}, s)
		}, `"average_cpu_time": +Inf is not a valid Average CPU Time`},
		{"run time beyond 2^53", func(t *testing.T) []byte {
			s := schemaOf("run_time", parquet.Leaf(parquet.DoubleType))
			return writeRows(t, []map[string]any{fullRow("run_time", float64(1<<53+2))}, s)
		}, `"run_time": 9.007199254740994e+15 is not a whole number`},
		{"processors beyond int32", func(t *testing.T) []byte {
			return writeRows(t, []map[string]any{fullRow("allocated_processors", int64(math.MaxInt32)+1)}, schemaOf("", nil))
		}, `"allocated_processors": 2147483648: value out of range (at most 2147483647)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readParquet(tc.data(t))
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, trace.ErrParquetColumn) {
				t.Errorf("error %v does not wrap ErrParquetColumn", err)
			}
			if !strings.Contains(err.Error(), tc.column) {
				t.Errorf("error %q does not name %s", err, tc.column)
			}
		})
	}
	// The same table with all 18 integer columns reads fine: the failures
	// above come from the column named, not from the way the files are made.
	tr, err := readParquet(writeRows(t, []map[string]any{fullRow("", nil)}, schemaOf("", nil)))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() != 1 || tr.Jobs[0].Runtime != 1 || tr.Jobs[0].AvgCPU != 1 {
		t.Errorf("read %+v", tr.Jobs)
	}
	// The bounds themselves are read: 2^53 as a double run time, the
	// largest int32 as processors, -1 as a double memory, a negative think
	// time.
	row := fullRow("run_time", float64(1<<53))
	row["allocated_processors"], row["requested_memory"], row["think_time"] = int64(math.MaxInt32), -1.0, int64(-30)
	s := schemaOf("run_time", parquet.Leaf(parquet.DoubleType))
	s = parquet.NewSchema("jobs", parquet.Group(func() parquet.Group {
		g := parquet.Group{}
		for _, f := range s.Fields() {
			g[f.Name()] = f
		}
		g["requested_memory"] = parquet.Leaf(parquet.DoubleType)
		return g
	}()))
	tr, err = readParquet(writeRows(t, []map[string]any{row}, s))
	if err != nil {
		t.Fatal(err)
	}
	if j := tr.Jobs[0]; j.Runtime != 1<<53 || j.Procs != math.MaxInt32 || j.ReqMem != -1 || j.ThinkTime != -30 {
		t.Errorf("read %+v", j)
	}
}

// TestParquetTruncated cuts a Parquet trace at every length and flips bytes:
// each must give an error, never a panic or a wrong trace.
func TestParquetTruncated(t *testing.T) {
	var jobs []trace.Job
	for i := range 300 {
		jobs = append(jobs, trace.Job{ID: int64(i + 1), Submit: int64(10 * i), Wait: int64(i % 7), Runtime: int64(100 + i),
			ReqTime: 3600, ThinkTime: -1, AvgCPU: -1, UsedMem: 1.5, ReqMem: -1, Procs: 4, ReqProcs: 4,
			User: int32(i % 5), Group: 1, App: -1, Queue: 1, Partition: 1, Preceding: -1, Status: 1})
	}
	var h swf.Header
	h.Add("MaxProcs", "16")
	data := writeParquet(t, trace.New(h, jobs, trace.Options{}), nil)

	// Every length near the ends, where the magic bytes and the footer are;
	// every 7th in between (29th under the mutation tag).
	for n := 0; n < len(data); n++ {
		if n > 64 && n < len(data)-600 && n%quickStep() != 0 {
			continue
		}
		_, err := readParquet(data[:n])
		if err == nil {
			t.Fatalf("cut at %d of %d bytes: no error", n, len(data))
		}
		if !errors.Is(err, trace.ErrParquetFile) {
			t.Fatalf("cut at %d: %v does not wrap ErrParquetFile", n, err)
		}
	}
	// A damaged byte anywhere: an error or (where the byte is not checked,
	// e.g. inside a value) a trace, never a panic.
	for i := range data {
		if i > 64 && i < len(data)-600 && i%quickStep() != 0 {
			continue
		}
		bad := bytes.Clone(data)
		bad[i] ^= 0x5a
		_, _ = readParquet(bad)
	}
	// The message says what happened.
	_, err := readParquet(data[:len(data)-100])
	if err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("error %v does not say the file is truncated", err)
	}
	// A footer length beyond the file is refused before anything is
	// allocated for it.
	bad := bytes.Clone(data)
	copy(bad[len(bad)-8:], []byte{0xff, 0xff, 0xff, 0x7f})
	_, err = readParquet(bad)
	if err == nil || !strings.Contains(err.Error(), "footer's length (2147483647 bytes) exceeds the file") {
		t.Errorf("error %v does not say the footer length is wrong", err)
	}
	// The bound is the file less its two magic numbers and the length
	// itself: one byte more is refused here, the bound itself goes on to
	// the Parquet library (which finds no footer there).
	for _, extra := range []int{-12, -11} {
		bad := bytes.Clone(data)
		binary.LittleEndian.PutUint32(bad[len(bad)-8:], uint32(len(bad)+extra))
		_, err = readParquet(bad)
		want := fmt.Sprintf("footer's length (%d bytes) exceeds the file", len(bad)+extra)
		if err == nil || strings.Contains(err.Error(), want) != (extra == -11) {
			t.Errorf("footer length of the file's %d bytes %+d: %v", len(bad), extra, err)
		}
	}
	// Eleven bytes are too short for any Parquet file; twelve are not
	// refused for their length.
	for _, n := range []int{11, 12} {
		_, err := readParquet(data[:n])
		if err == nil || strings.Contains(err.Error(), "shorter than any Parquet file") != (n == 11) {
			t.Errorf("cut at %d bytes: %v", n, err)
		}
	}
}

// TestParquetCodecs reads files compressed with every codec hpcwl accepts
// and refuses LZ4, whose decoder in the Parquet library grows its buffer
// without end on damaged data.
func TestParquetCodecs(t *testing.T) {
	rows := []map[string]any{fullRow("", nil), fullRow("run_time", int64(7))}
	for _, tc := range []struct {
		codec compress.Codec
		ok    bool
	}{{&parquet.Uncompressed, true}, {&parquet.Snappy, true}, {&parquet.Gzip, true}, {&parquet.Zstd, true},
		{&parquet.Brotli, true}, {&parquet.Lz4Raw, false}} {
		t.Run(tc.codec.String(), func(t *testing.T) {
			tr, err := readParquet(writeRows(t, rows, schemaOf("", nil), parquet.Compression(tc.codec)))
			switch {
			case tc.ok && err != nil:
				t.Fatal(err)
			case tc.ok && (tr.Len() != 2 || tr.Jobs[1].Runtime != 7):
				t.Errorf("read %+v", tr.Jobs)
			case !tc.ok && (err == nil || !strings.Contains(err.Error(), "is compressed with LZ4_RAW, which hpcwl does not read")):
				t.Errorf("error %v", err)
			}
		})
	}
}

func TestLoadParquet(t *testing.T) {
	orig, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data := writeParquet(t, orig, nil)
	dir := t.TempDir()
	// Load recognizes Parquet by its magic bytes, whatever the name.
	name := filepath.Join(dir, "kth.data")
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, load := range []func(string, trace.Options) (*trace.Trace, error){trace.Load, trace.LoadParquet} {
		back, err := load(name, trace.Options{Procs: 7})
		if err != nil {
			t.Fatal(err)
		}
		sameTrace(t, back, &trace.Trace{Jobs: orig.Jobs, Header: orig.Header, Procs: 7})
		if back.Name != name || len(back.SHA256) != 64 {
			t.Errorf("name %q sha256 %q", back.Name, back.SHA256)
		}
	}
	if _, err := trace.LoadParquet(dir, trace.Options{}); err == nil {
		t.Error("a directory: no error")
	}
}

// foreignJob is a row as another tool might write it: columns in another
// order, all INT64 or DOUBLE (pandas' float64 with NaN for a missing
// integer), names in capitals, an extra column.
type foreignJob struct {
	Extra     string   `parquet:"comment"`
	ThinkTime *int64   `parquet:"THINK_TIME,optional"`
	RunTime   float64  `parquet:"run_time"`
	JobNumber int64    `parquet:"job_number"`
	Submit    int64    `parquet:"submit_time"`
	Wait      int64    `parquet:"wait_time"`
	Procs     int64    `parquet:"allocated_processors"`
	CPU       float32  `parquet:"average_cpu_time"`
	Mem       *float64 `parquet:"used_memory,optional"`
	ReqProcs  int64    `parquet:"requested_processors"`
	ReqTime   int64    `parquet:"requested_time"`
	ReqMem    float64  `parquet:"requested_memory"`
	Status    int32    `parquet:"status"`
	User      float64  `parquet:"user_id"`
	Group     int64    `parquet:"group_id"`
	App       int64    `parquet:"executable_number"`
	Queue     int64    `parquet:"queue_number"`
	Partition int64    `parquet:"partition_number"`
	Preceding int64    `parquet:"preceding_job_number"`
}

// TestParquetForeignFile reads a file in several row groups and pages with
// the columns of another tool.
func TestParquetForeignFile(t *testing.T) {
	var rows []foreignJob
	for i := range 1000 {
		r := foreignJob{Extra: "x", RunTime: float64(i * 3), JobNumber: int64(i + 1), Submit: int64(i * 10), Wait: int64(i % 4),
			Procs: 2, CPU: 1.5, ReqProcs: 2, ReqTime: 100, ReqMem: -1, Status: 1, User: float64(i % 9), Group: -1,
			App: -1, Queue: 3, Partition: -1, Preceding: -1}
		if i%3 == 0 {
			think := int64(-i)
			r.ThinkTime = &think
		}
		if i%5 == 0 {
			r.User = math.NaN()
		} else {
			m := float64(i)
			r.Mem = &m
		}
		rows = append(rows, r)
	}
	data := writeRows(t, rows, parquet.MaxRowsPerRowGroup(77), parquet.PageBufferSize(256))
	tr, err := readParquet(data)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() != len(rows) {
		t.Fatalf("%d jobs", tr.Len())
	}
	for i, r := range rows {
		j := tr.Jobs[i]
		want := trace.Job{ID: r.JobNumber, Submit: r.Submit, Wait: r.Wait, Runtime: int64(r.RunTime), ReqTime: 100, ThinkTime: -1,
			AvgCPU: 1.5, UsedMem: -1, ReqMem: -1, Procs: 2, ReqProcs: 2, User: int32(r.User), Group: -1, App: -1,
			Queue: 3, Partition: -1, Preceding: -1, Status: 1}
		if r.ThinkTime != nil {
			want.ThinkTime = *r.ThinkTime
		}
		if r.Mem != nil {
			want.UsedMem = *r.Mem
		}
		if math.IsNaN(r.User) {
			want.User = -1
		}
		if j != want {
			t.Fatalf("row %d: %+v, want %+v", i+1, j, want)
		}
	}
	// An error in a later row group names the row in the file.
	rows[500].Wait = -5
	_, err = readParquet(writeRows(t, rows, parquet.MaxRowsPerRowGroup(77)))
	if err == nil || !strings.Contains(err.Error(), "row 501: ") || !strings.Contains(err.Error(), `"wait_time"`) {
		t.Errorf("error %v does not name row 501 and wait_time", err)
	}
}

// FuzzReadParquet feeds damaged Parquet files to the reader: it must return
// a trace or an error, never panic.
func FuzzReadParquet(f *testing.F) {
	var h swf.Header
	h.Add("MaxProcs", "8")
	jobs := []trace.Job{
		{ID: 1, Submit: 0, Wait: 5, Runtime: 10, ReqTime: 20, ThinkTime: -1, AvgCPU: 2.5, UsedMem: -1, ReqMem: -1,
			Procs: 2, ReqProcs: 2, User: 1, Group: -1, App: -1, Queue: 1, Partition: -1, Preceding: -1, Status: 1},
		{ID: 2, Submit: 3, Wait: -1, Runtime: -1, ReqTime: -1, ThinkTime: 7, AvgCPU: -1, UsedMem: 100, ReqMem: -1,
			Procs: 8, ReqProcs: -1, User: 2, Group: 1, App: 3, Queue: -1, Partition: 1, Preceding: 1, Status: 0},
	}
	var buf bytes.Buffer
	if err := trace.New(h, jobs, trace.Options{}).WriteParquet(&buf, nil); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte("PAR1PAR1"))
	f.Add([]byte("PAR1\x00\x00\x00\x00\x00\x00\x00\x00PAR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := readParquet(data)
		if err == nil && tr == nil {
			t.Fatal("no trace and no error")
		}
	})
}

// TestLoadParquetStdin reads a Parquet trace from standard input, which
// cannot seek.
func TestLoadParquetStdin(t *testing.T) {
	orig, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data := writeParquet(t, orig, nil)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write(data)
		w.Close()
	}()
	stdin := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = stdin; r.Close() }()
	back, err := trace.Load("-", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sameTrace(t, back, orig)
	if back.Name != "-" || len(back.SHA256) != 64 {
		t.Errorf("name %q, sha256 %q", back.Name, back.SHA256)
	}
}

// TestParquetDictionaryPages reads a file whose columns start with a
// dictionary page, as pandas and Spark write them: the page check starts
// each column chunk at its dictionary page.
func TestParquetDictionaryPages(t *testing.T) {
	g := parquet.Group{}
	for _, c := range trace.CSVColumns {
		g[c] = parquet.Encoded(parquet.Int(64), &parquet.RLEDictionary)
	}
	var rows []map[string]any
	for i := range 500 {
		r := fullRow("", nil)
		r["job_number"], r["submit_time"], r["user_id"] = int64(i+1), int64(10*i), int64(i%3)
		rows = append(rows, r)
	}
	tr, err := readParquet(writeRows(t, rows, parquet.NewSchema("jobs", g)))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() != 500 || tr.Jobs[499].Submit != 4990 || tr.Jobs[499].User != 1 || tr.Jobs[7].Runtime != 1 {
		t.Errorf("read %d jobs, the last %+v", tr.Len(), tr.Jobs[tr.Len()-1])
	}
}

// TestParquetCreatedBy: the file names hpcwl's version and the revision it
// was built from ("unknown" when the version has none).
func TestParquetCreatedBy(t *testing.T) {
	data := writeParquet(t, trace.New(swf.Header{}, nil, trace.Options{}), nil)
	pf, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	ver, build, _ := strings.Cut(version.String(), "+")
	if build == "" {
		build = "unknown"
	}
	if got, want := pf.Metadata().CreatedBy, "hpcwl version "+ver+"(build "+build+")"; got != want {
		t.Errorf("created_by %q, want %q", got, want)
	}
}
