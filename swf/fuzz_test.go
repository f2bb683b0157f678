package swf

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
)

// FuzzReader checks that no input makes the reader panic, that every error
// is a *ParseError, and that whatever parses writes back to the same jobs.
func FuzzReader(f *testing.F) {
	if b, err := os.ReadFile("testdata/small.swf"); err == nil {
		f.Add(b)
	}
	// The first lines of each real log, when they are present (required
	// with HPCWL_REQUIRE_DATA).
	if dir, ok := testdata.Find(f); ok {
		for _, l := range testdata.Logs {
			f.Add(firstLines(f, filepath.Join(dir, l.File), 40))
		}
	}
	f.Add([]byte(goodLine))
	f.Add([]byte("; MaxProcs: 1\n1 2 3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		h, herr := r.Header()
		var jobs []Job
		var err error
		if herr == nil {
			jobs, err = r.ReadAll()
		} else {
			err = herr
		}
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		if len(jobs) == 0 && len(h.Lines) == 0 {
			return // blank input: nothing to write back
		}
		var out bytes.Buffer
		if err := NewWriter(&out).WriteAll(h, jobs); err != nil {
			t.Fatal(err)
		}
		back, err := NewReader(&out).ReadAll()
		if err != nil {
			t.Fatalf("re-reading written output: %v", err)
		}
		if len(back) != len(jobs) {
			t.Fatalf("wrote %d jobs, read back %d", len(jobs), len(back))
		}
		for i := range jobs {
			if back[i] != jobs[i] {
				t.Fatalf("job %d: wrote %+v, read back %+v", i, jobs[i], back[i])
			}
		}
	})
}

// firstLines returns the first n lines of the gzipped log name.
func firstLines(tb testing.TB, name string, n int) []byte {
	tb.Helper()
	fh, err := os.Open(name)
	if err != nil {
		tb.Fatal(err)
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	var buf bytes.Buffer
	sc := bufio.NewScanner(io.LimitReader(zr, 1<<20))
	for i := 0; i < n && sc.Scan(); i++ {
		buf.Write(sc.Bytes())
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}
