package trace_test

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// sameTrace fails the test unless a and b hold the same jobs and header.
func sameTrace(t *testing.T, got, want *trace.Trace) {
	t.Helper()
	if len(got.Jobs) != len(want.Jobs) {
		t.Fatalf("%d jobs, want %d", len(got.Jobs), len(want.Jobs))
	}
	for i := range want.Jobs {
		if got.Jobs[i] != want.Jobs[i] {
			t.Fatalf("job %d = %+v, want %+v", i, got.Jobs[i], want.Jobs[i])
		}
	}
	if len(got.Header.Lines) != len(want.Header.Lines) {
		t.Fatalf("%d header lines, want %d", len(got.Header.Lines), len(want.Header.Lines))
	}
	for i, l := range want.Header.Lines {
		g := got.Header.Lines[i]
		// Lines built in memory have no raw text; once written and read back
		// they parse as they print.
		if g.String() != l.String() || l.Raw != "" && (g.Key != l.Key || g.Value != l.Value) {
			t.Fatalf("header line %d = %q, want %q", i, g.String(), l.String())
		}
	}
	if got.Procs != want.Procs {
		t.Errorf("procs = %d, want %d", got.Procs, want.Procs)
	}
}

func TestCSVRoundTripRealLogs(t *testing.T) {
	for _, lg := range realLogs() {
		t.Run(lg.File, func(t *testing.T) {
			tr, err := trace.Load(testdata.Path(t, lg.File), trace.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := tr.WriteCSV(&buf); err != nil {
				t.Fatal(err)
			}
			back, err := trace.ReadCSV(&buf, lg.File+".csv", trace.Options{})
			if err != nil {
				t.Fatal(err)
			}
			sameTrace(t, back, tr)
		})
	}
}

func TestCSVRoundTripSmall(t *testing.T) {
	var h swf.Header
	h.Add("Version", "2.2")
	h.Add("MaxProcs", "8")
	h.Lines = append(h.Lines, swf.HeaderLine{Value: "a free comment, with a comma"})
	jobs := []trace.Job{
		{ID: 1, Submit: 0, Wait: 5, Runtime: 100, ReqTime: 200, ThinkTime: -3, AvgCPU: 12.625, UsedMem: 1e-7,
			ReqMem: 123456789.5, Procs: 4, ReqProcs: 4, User: 1, Group: 2, App: 3, Queue: 4, Partition: 5, Preceding: -1, Status: 1},
		{ID: 2, Submit: 7, Wait: -1, Runtime: -1, ReqTime: -1, ThinkTime: -1, AvgCPU: -1, UsedMem: -1,
			ReqMem: -1, Procs: -1, ReqProcs: 2, User: -1, Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: 1, Status: 5},
	}
	tr := trace.New(h, jobs, trace.Options{})
	var buf bytes.Buffer
	if err := tr.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := trace.ReadCSV(bytes.NewReader(buf.Bytes()), "small.csv", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sameTrace(t, back, tr)
}

// TestCSVFloatCells pins how the fractional fields are written: whole
// numbers as integers, others in the shortest decimal form, and whole
// numbers beyond int64 (1e20 kB of memory) in decimal, not wrapped round.
func TestCSVFloatCells(t *testing.T) {
	j := trace.Job{ID: 1, Submit: 0, Wait: 0, Runtime: 10, Procs: 1, AvgCPU: 3, UsedMem: 1e20, ReqProcs: -1, ReqTime: -1,
		ReqMem: 0.25, Status: 1, User: 1, Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1}
	var buf bytes.Buffer
	if err := trace.New(swf.Header{}, []trace.Job{j}, trace.Options{}).WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	want := strings.Join(trace.CSVColumns[:], ",") + "\n1,0,0,10,1,3,100000000000000000000,-1,-1,0.25,1,1,-1,-1,-1,-1,-1,-1\n"
	if buf.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestReadCSVLenient(t *testing.T) {
	rest := ",wait_time,average_cpu_time,used_memory,requested_processors,requested_time,requested_memory,status," +
		"group_id,executable_number,queue_number,partition_number,preceding_job_number,think_time"
	empty := strings.Repeat(",", 13)
	in := "\ufeff# a note\n#; MaxProcs: 16\n\"Job Number\", submit_time ,RUN_TIME,allocated_processors,user_id" + rest + "\n" +
		"1,0,10,2,\"\"" + empty + "\n\"2\",5,20.0,4,7" + empty + "\r\n"
	tr, err := trace.ReadCSV(strings.NewReader(in), "x.csv", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Procs != 16 || tr.Len() != 2 {
		t.Fatalf("procs %d jobs %d", tr.Procs, tr.Len())
	}
	j := tr.Jobs[1]
	if j.ID != 2 || j.Submit != 5 || j.Runtime != 20 || j.Procs != 4 || j.User != 7 || j.Wait != -1 || j.ReqTime != -1 {
		t.Errorf("job = %+v", j)
	}
	// The first row's user is "", its other cells empty.
	if j := tr.Jobs[0]; j.User != -1 || j.AvgCPU != -1 || j.UsedMem != -1 || j.ReqMem != -1 {
		t.Errorf("empty cells read as user %d, CPU %v, memory %v and %v; want -1", j.User, j.AvgCPU, j.UsedMem, j.ReqMem)
	}
	if got := tr.Header.Lines[0].String(); got != "; a note" {
		t.Errorf("free comment = %q", got)
	}
}

// TestReadCSVWholeFloats: an integer field written as a float reads as
// the integer up to 2^62; beyond, it is refused rather than wrapped.
func TestReadCSVWholeFloats(t *testing.T) {
	cols := strings.Join(trace.CSVColumns[:], ",")
	for _, tc := range []struct {
		cell string
		want int64 // -2: refused
	}{{"20.0", 20}, {"4.611686018427387904e18", 1 << 62}, {"4.611686018427389e18", -2}, {"1e300", -2}} {
		in := cols + "\n1,0,5," + tc.cell + ",2,-1,-1,2,60,-1,1,3,3,-1,-1,-1,-1,-1\n"
		tr, err := trace.ReadCSV(strings.NewReader(in), "w.csv", trace.Options{})
		switch {
		case tc.want == -2 && !errors.Is(err, swf.ErrNotInteger):
			t.Errorf("run time %s: error %v, want ErrNotInteger", tc.cell, err)
		case tc.want != -2 && (err != nil || tr.Jobs[0].Runtime != tc.want):
			t.Errorf("run time %s: %v, want %d", tc.cell, err, tc.want)
		}
	}
}

func TestReadCSVErrors(t *testing.T) {
	cols := strings.Join(trace.CSVColumns[:], ",")
	row := "1,0,5,10,2,-1,-1,2,60,-1,1,3,3,-1,-1,-1,-1,-1"
	tests := []struct {
		name  string
		in    string
		cause error
		want  []string // substrings of the message
	}{
		{"empty", "", swf.ErrEmpty, []string{"bad.csv", "no column row", "job_number"}},
		{"header only", "#; MaxProcs: 4\n", swf.ErrEmpty, []string{"no column row"}},
		{"no column row", row + "\n", trace.ErrCSVColumns, []string{"line 1", "must name the columns"}},
		{"unknown column", "job_number,foo\n", trace.ErrCSVColumns, []string{"line 1", `column 2: unknown column "foo"`, "expected names"}},
		{"duplicate column", "job_number,Job Number\n", trace.ErrCSVColumns, []string{`column 2: "Job Number" appears twice`}},
		{"missing column", strings.Replace(cols, ",user_id", "", 1) + "\n", trace.ErrCSVColumns,
			[]string{"line 1", "missing column(s) user_id"}},
		{"17 fields", cols + "\n" + row[:strings.LastIndexByte(row, ',')] + "\n", swf.ErrFieldCount, []string{"line 2", "expected 18, found 17"}},
		{"19 fields", cols + "\n" + row + ",7\n", swf.ErrFieldCount, []string{"line 2", "expected 18, found 19"}},
		{"truncated", cols + "\n" + row + "\n1,0,5", swf.ErrFieldCount, []string{"line 3", "truncated"}},
		{"not a number", cols + "\n" + strings.Replace(row, "1,0,5,10", "1,0,5,ten", 1) + "\n", swf.ErrNotInteger,
			[]string{"line 2", "field 4 (Run Time)", `"ten"`}},
		{"fraction in integer", cols + "\n" + strings.Replace(row, "1,0,5,10", "1,0,5,10.5", 1) + "\n", swf.ErrNotInteger,
			[]string{"field 4 (Run Time)", `"10.5"`}},
		{"bad float", cols + "\n" + strings.Replace(row, "2,-1,-1,2", "2,x,-1,2", 1) + "\n", swf.ErrNotNumber,
			[]string{"field 6 (Average CPU Time)"}},
		{"NaN", cols + "\n" + strings.Replace(row, "2,-1,-1,2", "2,NaN,-1,2", 1) + "\n", swf.ErrNotNumber,
			[]string{"field 6"}},
		{"negative float", cols + "\n" + strings.Replace(row, "2,-1,-1,2", "2,-1.5,-1,2", 1) + "\n", swf.ErrNegative,
			[]string{"line 2", "field 6 (Average CPU Time)", `"-1.5"`}},
		{"negative", cols + "\n" + strings.Replace(row, "1,0,5,10", "1,0,-5,10", 1) + "\n", swf.ErrNegative,
			[]string{"field 3 (Wait Time)", `"-5"`}},
		{"out of range", cols + "\n" + strings.Replace(row, "1,0,5,10,2", "1,0,5,10,99999999999", 1) + "\n", nil,
			[]string{"line 2", "field 5", "out of range"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := trace.ReadCSV(strings.NewReader(tt.in), "bad.csv", trace.Options{})
			if err == nil {
				t.Fatal("no error")
			}
			if tt.cause != nil && !errors.Is(err, tt.cause) {
				t.Errorf("error %q is not %v", err, tt.cause)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if !strings.HasPrefix(err.Error(), "bad.csv: ") {
				t.Errorf("error %q does not start with the file name", err)
			}
		})
	}
}

func ExampleTrace_WriteCSV() {
	var h swf.Header
	h.Add("MaxProcs", "64")
	tr := trace.New(h, []trace.Job{{ID: 1, Submit: 0, Wait: 10, Runtime: 300, Procs: 8, ReqProcs: 8,
		ReqTime: 600, AvgCPU: -1, UsedMem: -1, ReqMem: -1, Status: 1, User: 3, Group: 1, App: -1,
		Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1}}, trace.Options{})
	tr.WriteCSV(os.Stdout)
	// Output:
	// #; MaxProcs: 64
	// job_number,submit_time,wait_time,run_time,allocated_processors,average_cpu_time,used_memory,requested_processors,requested_time,requested_memory,status,user_id,group_id,executable_number,queue_number,partition_number,preceding_job_number,think_time
	// 1,0,10,300,8,-1,-1,8,600,-1,1,3,1,-1,-1,-1,-1,-1
}

// FuzzReadCSV checks that no input makes ReadCSV panic, and that whatever it
// accepts survives a round trip.
func FuzzReadCSV(f *testing.F) {
	cols := strings.Join(trace.CSVColumns[:], ",")
	f.Add([]byte("#; MaxProcs: 4\n" + cols + "\n1,0,5,10,2,-1,-1,2,60,-1,1,3,3,-1,-1,-1,-1,-1\n"))
	f.Add([]byte(cols + "\n1" + strings.Repeat(",", 17) + "\n\"2\",3.0" + strings.Repeat(",", 16) + "\n"))
	f.Add([]byte("# free\n#;\n" + cols + "\n1,0,5,10,2,1.5e-9,-1,2,60,-1,1,3,3,-1,-1,-1,-1,-7\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := trace.ReadCSV(bytes.NewReader(data), "fuzz.csv", trace.Options{})
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := tr.WriteCSV(&out); err != nil {
			t.Fatal(err)
		}
		back, err := trace.ReadCSV(&out, "again.csv", trace.Options{})
		if err != nil {
			t.Fatalf("reading what was written: %v\n%s", err, out.Bytes())
		}
		if back.Len() != tr.Len() {
			t.Fatalf("%d jobs, want %d", back.Len(), tr.Len())
		}
		for i := range tr.Jobs {
			if back.Jobs[i] != tr.Jobs[i] {
				t.Fatalf("job %d = %+v, want %+v", i, back.Jobs[i], tr.Jobs[i])
			}
		}
	})
}

// TestReadCSVLongColumnQuotedShort checks that a huge unknown column name is
// not echoed whole.
func TestReadCSVLongColumnQuotedShort(t *testing.T) {
	_, err := trace.ReadCSV(strings.NewReader("job_number,"+strings.Repeat("y", 1<<20)+"\n"), "big.csv", trace.Options{})
	if err == nil {
		t.Fatal("no error")
	}
	if n := len(err.Error()); n > 1000 {
		t.Errorf("message is %d bytes long, want a short prefix", n)
	}
	// A name of 120 bytes is quoted whole, one of 121 cut to 117 and "...".
	for _, n := range []int{120, 121} {
		name := strings.Repeat("y", n)
		want := `"` + name + `"`
		if n > 120 {
			want = `"` + name[:117] + `..."`
		}
		_, err := trace.ReadCSV(strings.NewReader("job_number,"+name+"\n"), "big.csv", trace.Options{})
		if err == nil || !strings.Contains(err.Error(), "unknown column "+want+";") {
			t.Errorf("a name of %d bytes: %v", n, err)
		}
	}
}
