package downey_test

import (
	"testing"

	"github.com/hpcwl/hpcwl/gen/downey"
)

// BenchmarkNext measures the cost of one generated job.
func BenchmarkNext(b *testing.B) {
	g, err := downey.New(downey.Config{Jobs: b.N, Load: 0.7, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, ok := g.Next(); !ok {
			b.Fatal("generator stopped early")
		}
	}
}

// BenchmarkFitLifetimes measures a fit of the lifetime model to 100,000
// runtimes.
func BenchmarkFitLifetimes(b *testing.B) {
	g, _ := downey.New(downey.Config{Jobs: 100000, Seed: 1})
	rt := make([]float64, 0, 100000)
	for {
		j, ok := g.Next()
		if !ok {
			break
		}
		rt = append(rt, float64(j.Runtime))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := downey.FitLifetimes(rt, 0.1); err != nil {
			b.Fatal(err)
		}
	}
}
