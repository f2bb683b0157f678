package bursty

import (
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/trace"
)

func loadBench(b *testing.B, name string) *trace.Trace {
	b.Helper()
	tr, err := trace.Load(testdata.Path(b, name), trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return tr
}

// BenchmarkAnalyzeSDSCBlue times the whole analysis of SDSC-BLUE (the log
// already loaded).
func BenchmarkAnalyzeSDSCBlue(b *testing.B) {
	tr := loadBench(b, "SDSC-BLUE-2000-4.2-cln.swf.gz")
	b.ResetTimer()
	for b.Loop() {
		if _, err := Analyze(tr, DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFitHPC2N times the model fit of HPC2N (the log already loaded).
func BenchmarkFitHPC2N(b *testing.B) {
	tr := loadBench(b, "HPC2N-2002-2.2-cln.swf.gz")
	b.ResetTimer()
	for b.Loop() {
		if _, err := Fit(tr, FitOptions{Options: DefaultOptions(), GMax: 9}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerate1M times one million jobs with Poisson arrivals from a
// two-class model.
func BenchmarkGenerate1M(b *testing.B) {
	m := twoClassModel()
	m.ZipfMax = 2418
	for b.Loop() {
		if len(m.Generate(m.PoissonSchedule(1_000_000, 1), 1)) != 1_000_000 {
			b.Fatal("short")
		}
	}
}
