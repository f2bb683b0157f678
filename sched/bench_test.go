package sched_test

import (
	"context"
	"fmt"
	"strings"
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

// BenchmarkLongQueues simulates logs on machines at half speed (Madon's
// perf/2, the default change of hpcwl evaluate), where rigid replay builds
// queues of thousands of jobs and each backfilling pass scans them: the
// case EASY's skip bounds are for. SDSC-SP2 and HPC2N need the real logs.
// Run: go test -run - -bench LongQueues -benchtime 3x ./sched/
func BenchmarkLongQueues(b *testing.B) {
	for _, log := range []string{"builtin:KTH-SP2", "SDSC-SP2-1998-4.2-cln.swf.gz", "HPC2N-2002-2.2-cln.swf.gz"} {
		name := strings.TrimSuffix(strings.TrimPrefix(log, "builtin:"), "-cln.swf.gz")
		for _, sc := range []string{"easy", "sjbf"} {
			b.Run(name+"/"+sc, func(b *testing.B) {
				path := log
				if !strings.HasPrefix(log, "builtin:") {
					path = testdata.Path(b, log)
				}
				t, err := trace.Load(path, trace.Options{})
				if err != nil {
					b.Fatal(err)
				}
				w, err := sim.Prepare(t, sim.PrepareOptions{Machine: sim.Machine{Speed: 0.5}, Oversize: sim.OversizeDrop})
				if err != nil {
					b.Fatal(err)
				}
				jobs := make([]sim.Job, len(w.Jobs))
				for b.Loop() {
					copy(jobs, w.Jobs)
					s, _ := sched.New(sc)
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

// BenchmarkConservativeVsEASY simulates every shared log (rigid replay,
// requested-time predictions, jobs wider than the machine dropped) at full
// and half node speed under EASY and conservative backfilling; the ratio
// of their times is the cost of a reservation for every waiting job.
// Half-speed runs of conservative on the large logs take minutes.
// Run: go test -run - -bench ConservativeVsEASY -benchtime 1x -timeout 2h ./sched/
func BenchmarkConservativeVsEASY(b *testing.B) {
	for _, l := range testdata.Logs {
		name := strings.TrimSuffix(l.File, "-cln.swf.gz")
		for _, speed := range []float64{1, 0.5} {
			var w *sim.Workload
			for _, sc := range []string{"easy", "conservative"} {
				b.Run(fmt.Sprintf("%s/speed=%v/%s", name, speed, sc), func(b *testing.B) {
					if w == nil {
						t, err := trace.Load(testdata.Path(b, l.File), trace.Options{})
						if err != nil {
							b.Fatal(err)
						}
						w, err = sim.Prepare(t, sim.PrepareOptions{Machine: sim.Machine{Speed: speed}, Oversize: sim.OversizeDrop})
						if err != nil {
							b.Fatal(err)
						}
					}
					jobs := make([]sim.Job, len(w.Jobs))
					for b.Loop() {
						copy(jobs, w.Jobs)
						s, _ := sched.New(sc)
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
}
