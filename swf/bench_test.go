package swf_test

import (
	"io"
	"os"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/swf"
)

const blue = "SDSC-BLUE-2000-4.2-cln.swf.gz"

// BenchmarkReadSDSCBlue parses the gzipped SDSC-BLUE log (243,306 jobs).
func BenchmarkReadSDSCBlue(b *testing.B) {
	name := testdata.Path(b, blue)
	fi, _ := os.Stat(name)
	b.ReportAllocs()
	jobs := 0
	for b.Loop() {
		f, err := swf.Open(name)
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
	b.SetBytes(fi.Size())
	b.ReportMetric(float64(jobs)*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkGunzipSDSCBlue only decompresses the same file, the baseline the
// parse time is compared with.
func BenchmarkGunzipSDSCBlue(b *testing.B) {
	name := testdata.Path(b, blue)
	for b.Loop() {
		fh, err := os.Open(name)
		if err != nil {
			b.Fatal(err)
		}
		zr, err := gzipReader(fh)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, zr)
		fh.Close()
	}
}
