package swf

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// dataDir returns the directory holding the archive's logs, or skips the test.
func dataDir(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv("HPCWL_DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "data", "swf")
	}
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("real logs not found in %s (set HPCWL_DATA): not run", dir)
	}
	return dir
}

func BenchmarkReadSDSCBlue(b *testing.B) {
	name := filepath.Join(dataDir(b), "SDSC-BLUE-2000-4.2-cln.swf.gz")
	b.ReportAllocs()
	jobs := 0
	for b.Loop() {
		f, err := Open(name)
		if err != nil {
			b.Fatal(err)
		}
		jobs = 0
		for {
			_, err := f.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			jobs++
		}
		f.Close()
	}
	b.ReportMetric(float64(jobs)*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

func BenchmarkGunzipSDSCBlue(b *testing.B) {
	name := filepath.Join(dataDir(b), "SDSC-BLUE-2000-4.2-cln.swf.gz")
	for b.Loop() {
		f, err := Open(name)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, f.Reader.br)
		f.Close()
	}
}
