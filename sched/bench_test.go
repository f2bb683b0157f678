package sched_test

import (
	"context"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

var benchLogs = map[string]string{
	"KTH-SP2":   "KTH-SP2-1996-2.1-cln.swf.gz",
	"SDSC-BLUE": "SDSC-BLUE-2000-4.2-cln.swf.gz",
}

var prepared = map[string]*sim.Workload{}

func workload(b *testing.B, log string) *sim.Workload {
	if w, ok := prepared[log]; ok {
		return w
	}
	t, err := trace.Load(testdata.Path(b, benchLogs[log]), trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	w, err := sim.Prepare(t, sim.PrepareOptions{})
	if err != nil {
		b.Fatal(err)
	}
	prepared[log] = w
	return w
}

// BenchmarkSchedulers simulates whole logs (rigid replay, requested-time
// predictions) under every scheduler and reports simulated jobs per second.
// Run: go test -run - -bench Schedulers -benchmem ./sched/
func BenchmarkSchedulers(b *testing.B) {
	for _, log := range []string{"KTH-SP2", "SDSC-BLUE"} {
		for _, name := range sched.Names() {
			b.Run(log+"/"+name, func(b *testing.B) {
				w := workload(b, log)
				jobs := make([]sim.Job, len(w.Jobs))
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					copy(jobs, w.Jobs)
					s, _ := sched.New(name)
					if _, err := sim.Run(context.Background(), sim.NewReplay(jobs), s,
						sim.Config{Procs: w.Procs, SizeHint: len(jobs)}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(jobs))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
			})
		}
	}
}
