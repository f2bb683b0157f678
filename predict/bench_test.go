package predict

import (
	"context"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// BenchmarkPredictors simulates KTH-SP2 (rigid replay) under SJBF with
// every predictor, recording the predictions as hpcwl simulate does, and
// reports simulated jobs per second.
// Run: go test -run - -bench Predictors -benchmem ./predict/
func BenchmarkPredictors(b *testing.B) {
	t, err := trace.Load(testdata.Path(b, "KTH-SP2-1996-2.1-cln.swf.gz"), trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	w, err := sim.Prepare(t, sim.PrepareOptions{})
	if err != nil {
		b.Fatal(err)
	}
	jobs := make([]sim.Job, len(w.Jobs))
	for _, spec := range []string{"requested", "perfect", "constant:1", "ruh", "ruh:prop=true", "easy++",
		"sbh", "sbh:crit=E/P/X", "sbh:search=bfs", "sbh-noest-balanced", "sbh-noest"} {
		b.Run(spec, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				copy(jobs, w.Jobs)
				p, err := New(spec, Env{Trace: t})
				if err != nil {
					b.Fatal(err)
				}
				s, _ := sched.New("sjbf")
				if _, err := sim.Run(context.Background(), sim.NewReplay(jobs), s,
					sim.Config{Procs: w.Procs, Predictor: p, SizeHint: len(jobs), RecordPredictions: true}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(jobs))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
		})
	}
}
