package talby

import (
	"testing"

	"github.com/hpcwl/hpcwl/trace"
)

// BenchmarkGenerate10Years generates ten years of a 1024-processor site
// with the published parameters (Cm and CL from Table 28).
func BenchmarkGenerate10Years(b *testing.B) {
	p, err := DefaultParams(1024)
	if err != nil {
		b.Fatal(err)
	}
	var jobs int
	for i := 0; b.Loop(); i++ {
		w, err := Generate(p, Config{Weeks: 520, Seed: uint64(i + 1)})
		if err != nil {
			b.Fatal(err)
		}
		jobs = len(w.Jobs)
	}
	b.ReportMetric(float64(jobs), "jobs")
}

// BenchmarkFitKTH fits the model to the KTH SP2 log (28,476 jobs, 46
// weeks).
func BenchmarkFitKTH(b *testing.B) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, err := Fit(tr, FitOptions{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerate10YearsFitted generates ten years from the parameters
// fitted to KTH-SP2 (our extensions selected: fitted start-up activity,
// placement by start times, empirical runtimes), and writes them as SWF
// records (fields 17-18 included).
func BenchmarkGenerate10YearsFitted(b *testing.B) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	p, _, err := Fit(tr, FitOptions{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	var jobs int
	for i := 0; b.Loop(); i++ {
		w, err := Generate(p, Config{Weeks: 520, Seed: uint64(i + 1)})
		if err != nil {
			b.Fatal(err)
		}
		jobs = len(w.SWF())
	}
	b.ReportMetric(float64(jobs), "jobs")
}
