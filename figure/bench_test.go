package figure_test

import (
	"context"
	"testing"

	"github.com/hpcwl/hpcwl/figure"
	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

func loadBlue(b *testing.B) *trace.Trace {
	t, err := trace.Load(testdata.Path(b, "SDSC-BLUE-2000-4.2-cln.swf.gz"), trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return t
}

// countWriter counts the bytes written to it.
type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// benchFigure draws and writes a figure as SVG b.N times, reporting the
// file's size.
func benchFigure(b *testing.B, draw func() (*figure.Figure, error)) {
	b.ReportAllocs()
	var size int64
	for b.Loop() {
		f, err := draw()
		if err != nil {
			b.Fatal(err)
		}
		var w countWriter
		if err := f.Write(&w, figure.SVG, figure.Provenance{}); err != nil {
			b.Fatal(err)
		}
		size = w.n
	}
	b.ReportMetric(float64(size), "svg-bytes")
}

// BenchmarkCDFSDSCBlue draws the runtime CDF of SDSC-BLUE (243,306 jobs).
func BenchmarkCDFSDSCBlue(b *testing.B) {
	t := loadBlue(b)
	benchFigure(b, func() (*figure.Figure, error) { return figure.CDF(figure.Runtime, t) })
}

// BenchmarkWeeklySDSCBlue draws the weekly cycle of SDSC-BLUE.
func BenchmarkWeeklySDSCBlue(b *testing.B) {
	t := loadBlue(b)
	benchFigure(b, func() (*figure.Figure, error) { return figure.Arrivals(figure.Weekly, t) })
}

// BenchmarkUtilizationSDSCBlue draws the utilization over time of an EASY
// schedule of SDSC-BLUE (the simulation itself is not timed).
func BenchmarkUtilizationSDSCBlue(b *testing.B) {
	t := loadBlue(b)
	r, _, err := sim.Simulate(context.Background(), t, sched.NewEASY(0), sim.Options{})
	if err != nil {
		b.Fatal(err)
	}
	s := figure.Schedule{Name: "easy", Result: r}
	benchFigure(b, func() (*figure.Figure, error) { return figure.Over(figure.Utilization, 0, s) })
}
