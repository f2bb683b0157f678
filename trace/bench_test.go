package trace_test

import (
	"io"
	"runtime"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/trace"
)

// BenchmarkLoadSDSCBlue loads the gzipped SDSC-BLUE log (243,306 jobs) into a
// trace and reports the heap the loaded trace keeps.
func BenchmarkLoadSDSCBlue(b *testing.B) {
	name := testdata.Path(b, "SDSC-BLUE-2000-4.2-cln.swf.gz")
	b.ReportAllocs()
	var tr *trace.Trace
	for b.Loop() {
		var err error
		if tr, err = trace.Load(name, trace.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(tr.Len())*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
	tr = nil
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	tr, _ = trace.Load(name, trace.Options{})
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MB-kept")
	runtime.KeepAlive(tr)
}

// BenchmarkWriteParquet writes the KTH-SP2 log (28,476 jobs) as Parquet.
func BenchmarkWriteParquet(b *testing.B) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := tr.WriteParquet(io.Discard, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(tr.Len())*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkWriteSWF writes the KTH-SP2 log as SWF, for comparison.
func BenchmarkWriteSWF(b *testing.B) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := tr.WriteSWF(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(tr.Len())*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}
