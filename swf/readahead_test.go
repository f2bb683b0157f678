package swf

import (
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenLargeGzip reads a gzipped log of about 1.5 MB unpacked, several
// times the read-ahead's 256 KiB buffers, and checks that every job arrives
// in order, as from the plain text.
func TestOpenLargeGzip(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	const n = 30000
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d %d 10 100 4 -1 -1 4 3600 -1 1 %d 2 -1 1 1 -1 -1\n", i, i*7, i%50)
	}
	name := filepath.Join(t.TempDir(), "big.swf.gz")
	fh, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(fh)
	if _, err := zw.Write([]byte(b.String())); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := Open(name)
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := f.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	want, err := NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != n || len(want) != n {
		t.Fatalf("read %d jobs from gzip, %d from text, want %d", len(jobs), len(want), n)
	}
	for i := range jobs {
		if jobs[i] != want[i] {
			t.Fatalf("job %d: %+v, want %+v", i+1, jobs[i], want[i])
		}
	}
}
