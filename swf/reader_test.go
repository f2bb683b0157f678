package swf

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/inputlimit"
)

func TestReadSmall(t *testing.T) {
	f, err := Open("testdata/small.swf")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, err := f.Header()
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := f.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 3 {
		t.Fatalf("read %d jobs, want 3", len(jobs))
	}
	want := Job{ID: 1, Submit: 0, Wait: 10, Runtime: 100, Procs: 4, AvgCPU: 95.5, UsedMem: -1,
		ReqProcs: 4, ReqTime: 3600, ReqMem: -1, Status: 1, User: 3, Group: 2, App: -1,
		Queue: 1, Partition: 1, Preceding: -1, ThinkTime: -1}
	if jobs[0] != want {
		t.Errorf("job 1 = %+v\nwant %+v", jobs[0], want)
	}
	if jobs[1].ThinkTime != -5 || jobs[1].Preceding != 1 {
		t.Errorf("job 2 preceding/think = %d/%d, want 1/-5", jobs[1].Preceding, jobs[1].ThinkTime)
	}
	if jobs[2].AvgCPU != 0.03 || jobs[2].ReqTime != -1 || jobs[2].ReqMem != 2048 {
		t.Errorf("job 3 (tab separated) = %+v", jobs[2])
	}
	for _, c := range []struct {
		key  string
		want int64
	}{{"MaxProcs", 64}, {"MaxNodes", 16}, {"UnixStartTime", 843480031}} {
		if v, ok := h.Int(c.key); !ok || v != c.want {
			t.Errorf("%s = %d, %v; want %d", c.key, v, ok, c.want)
		}
	}
	if v, _ := h.Get("Installation"); v != "no space after the semicolon" {
		t.Errorf("Installation = %q", v)
	}
	if v, _ := h.Get("Copyright"); v != "kept although not standard" {
		t.Errorf("unknown key Copyright = %q", v)
	}
	if tz, _ := h.TimeZoneString(); tz != "Europe/Stockholm" {
		t.Errorf("TimeZoneString = %q", tz)
	}
	if n := len(h.Lines); n != 11 {
		t.Errorf("header has %d lines, want 11", n)
	}
	if h.Lines[8].Key != "" {
		t.Errorf("continuation line parsed as key %q", h.Lines[8].Key)
	}
}

func TestRoundTripSmall(t *testing.T) {
	src, err := os.ReadFile("testdata/small.swf")
	if err != nil {
		t.Fatal(err)
	}
	r := NewReader(bytes.NewReader(src))
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := NewWriter(&out).WriteAll(h, jobs); err != nil {
		t.Fatal(err)
	}
	// Header lines come back byte for byte.
	srcLines := strings.Split(string(src), "\n")
	outLines := strings.Split(out.String(), "\n")
	for i := range h.Lines {
		if srcLines[i] != outLines[i] {
			t.Errorf("header line %d = %q, want %q", i+1, outLines[i], srcLines[i])
		}
	}
	r2 := NewReader(&out)
	jobs2, err := r2.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for i := range jobs {
		if jobs[i] != jobs2[i] {
			t.Errorf("job %d = %+v after round trip, want %+v", i, jobs2[i], jobs[i])
		}
	}
}

const goodLine = "1 0 10 100 4 -1 -1 4 3600 -1 1 3 2 -1 1 1 -1 -1\n"

func TestBadInput(t *testing.T) {
	tests := []struct {
		name  string
		input string
		line  int
		field int
		text  string
		cause error
	}{
		{"17 fields", "; Version: 2\n1 0 10 100 4 -1 -1 4 3600 -1 1 3 2 -1 1 1 -1\n", 2, 0, "1 0 10 100 4 -1 -1 4 3600 -1 1 3 2 -1 1 1 -1", ErrFieldCount},
		{"19 fields", goodLine + "2 0 10 100 4 -1 -1 4 3600 -1 1 3 2 -1 1 1 -1 -1 7\n", 2, 0, "", ErrFieldCount},
		{"non-numeric runtime", "1 0 10 abc 4 -1 -1 4 3600 -1 1 3 2 -1 1 1 -1 -1\n", 1, 4, "abc", ErrNotInteger},
		{"fraction in integer field", "1 0 10 100 4.5 -1 -1 4 3600 -1 1 3 2 -1 1 1 -1 -1\n", 1, 5, "4.5", ErrNotInteger},
		{"non-numeric cpu", "1 0 10 100 4 x1 -1 4 3600 -1 1 3 2 -1 1 1 -1 -1\n", 1, 6, "x1", ErrNotNumber},
		{"negative wait", "1 0 -7 100 4 -1 -1 4 3600 -1 1 3 2 -1 1 1 -1 -1\n", 1, 3, "-7", ErrNegative},
		{"negative cpu", "1 0 7 100 4 -2.5 -1 4 3600 -1 1 3 2 -1 1 1 -1 -1\n", 1, 6, "-2.5", ErrNegative},
		{"truncated last line", goodLine + "2 0 10 100 4 -1 -1", 2, 0, "", ErrFieldCount},
		{"empty file", "", 0, 0, "", ErrEmpty},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tc.input))
			r.Name = "bad.swf"
			_, err := r.ReadAll()
			if !errors.Is(err, tc.cause) {
				t.Fatalf("err = %v, want cause %v", err, tc.cause)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err %v is not a *ParseError", err)
			}
			if pe.File != "bad.swf" || pe.Line != tc.line || pe.Field != tc.field {
				t.Errorf("position = %s:%d field %d, want bad.swf:%d field %d", pe.File, pe.Line, pe.Field, tc.line, tc.field)
			}
			if tc.text != "" && pe.Text != tc.text {
				t.Errorf("text = %q, want %q", pe.Text, tc.text)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "bad.swf: ") {
				t.Errorf("message %q does not name the file", msg)
			}
			if tc.field > 0 && !strings.Contains(msg, FieldNames[tc.field-1]) {
				t.Errorf("message %q does not name the field", msg)
			}
		})
	}
}

func TestTruncatedHint(t *testing.T) {
	_, err := NewReader(strings.NewReader(goodLine + "2 0 10")).ReadAll()
	if err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("err = %v, want a hint that the file may be truncated", err)
	}
}

func TestHeaderOnly(t *testing.T) {
	r := NewReader(strings.NewReader("; Version: 2.2\n; MaxProcs: 8\n"))
	jobs, err := r.ReadAll()
	if err != nil || len(jobs) != 0 {
		t.Fatalf("header-only file: %d jobs, err %v; want 0 jobs and no error", len(jobs), err)
	}
	h, _ := r.Header()
	if n, _ := h.MaxProcs(); n != 8 {
		t.Errorf("MaxProcs = %d, want 8", n)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(filepath.Join(dir, "missing.swf")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: err = %v, want not-exist", err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: err = %v", err)
	}
	// A gzip stream cut in the middle.
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	for i := 0; i < 2000; i++ {
		io.WriteString(zw, goodLine)
	}
	zw.Close()
	cut := filepath.Join(dir, "cut.swf.gz")
	os.WriteFile(cut, buf.Bytes()[:buf.Len()/2], 0o644)
	f, err := Open(cut)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.ReadAll()
	f.Close()
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(err, io.ErrUnexpectedEOF) || !errors.Is(err, ErrTruncatedGzip) || !strings.Contains(err.Error(), "the file is truncated") {
		t.Errorf("truncated gzip: err = %v, want a ParseError saying the gzip stream is truncated, wrapping unexpected EOF", err)
	}
	// Corrupted bytes in the middle of the stream.
	bad := append([]byte(nil), buf.Bytes()...)
	for i := len(bad) / 3; i < len(bad)/3+64; i++ {
		bad[i] ^= 0x5a
	}
	corrupt := filepath.Join(dir, "corrupt.swf.gz")
	os.WriteFile(corrupt, bad, 0o644)
	f, err = Open(corrupt)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.ReadAll()
	f.Close()
	if err == nil || !strings.Contains(err.Error(), "corrupt.swf.gz") {
		t.Errorf("corrupted gzip: err = %v, want an error naming the file", err)
	}
}

func TestParseDecimalMatchesStrconv(t *testing.T) {
	for _, s := range []string{"0.03", "123.456", "-0.5", "99999999999.9999", "1.", ".5", "0.1", "3.14159265358979"} {
		got, ok := parseDecimal([]byte(s))
		if !ok {
			continue
		}
		var want float64
		if _, err := fmtSscan(s, &want); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("parseDecimal(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestBuiltHeaderLinesReadBack(t *testing.T) {
	var h Header
	h.Add("MaxProcs", "64")
	h.Lines = append(h.Lines, HeaderLine{Value: "free text"}, HeaderLine{Value: "   indented continuation"}, HeaderLine{})
	h.AddNote("cleaned")
	var buf bytes.Buffer
	if err := NewWriter(&buf).WriteAll(&h, nil); err != nil {
		t.Fatal(err)
	}
	r := NewReader(&buf)
	back, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Lines) != len(h.Lines) {
		t.Fatalf("%d lines read back, want %d", len(back.Lines), len(h.Lines))
	}
	for i, l := range h.Lines {
		if b := back.Lines[i]; b.Key != l.Key || b.Value != l.Value {
			t.Errorf("line %d read back as %q/%q, want %q/%q", i, b.Key, b.Value, l.Key, l.Value)
		}
	}
}

// TestLongTextQuotedShort checks that an error quotes only a prefix of a
// malformed field, however long it is.
func TestLongTextQuotedShort(t *testing.T) {
	long := strings.Repeat("x", 100000)
	in := "1 0 10 " + long + " 4 -1 -1 4 3600 -1 1 3 2 -1 1 1 -1 -1\n"
	_, err := NewReader(strings.NewReader(in)).ReadAll()
	if err == nil {
		t.Fatal("no error")
	}
	if n := len(err.Error()); n > 300 {
		t.Errorf("message is %d bytes long, want a short prefix", n)
	}
	if !strings.Contains(err.Error(), "(100000 bytes)") {
		t.Errorf("message %.200q does not give the text's length", err)
	}
}

// TestLineLimit checks the 1 MiB line limit: a job line padded to exactly
// the limit is read, one byte more is refused with the line's number, and
// the reader reads nothing after it.
func TestLineLimit(t *testing.T) {
	job := "1 0 10 100 4 -1 -1 4 3600 -1 1 3 2 -1 1 1 -1 -1"
	pad := func(n int) string { return job + strings.Repeat(" ", n-len(job)) + "\n" }
	for _, tt := range []struct {
		name    string
		lineLen int
		crlf    bool
		ok      bool
	}{
		{"at the limit", inputlimit.MaxLine, false, true},
		{"at the limit with CRLF", inputlimit.MaxLine, true, true},
		{"one byte over", inputlimit.MaxLine + 1, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			second := pad(tt.lineLen)
			if tt.crlf {
				second = strings.TrimSuffix(second, "\n") + "\r\n"
			}
			in := "; MaxProcs: 8\n" + second + job + "\n"
			r := NewReader(strings.NewReader(in))
			r.Name = "t.swf"
			jobs, err := r.ReadAll()
			if tt.ok {
				if err != nil || len(jobs) != 2 {
					t.Fatalf("got %d jobs, %v; want 2 jobs", len(jobs), err)
				}
				return
			}
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrLineTooLong) || !errors.Is(err, inputlimit.ErrTooLong) {
				t.Fatalf("err = %v, want a ParseError for ErrLineTooLong", err)
			}
			if pe.Line != 2 || pe.File != "t.swf" {
				t.Errorf("error at %s line %d, want t.swf line 2", pe.File, pe.Line)
			}
			if _, err2 := r.Read(); !errors.Is(err2, ErrLineTooLong) {
				t.Errorf("Read after the error returned %v, want the same error again", err2)
			}
		})
	}
}
