package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hpcwl/hpcwl/gen/lublin"
	"github.com/hpcwl/hpcwl/swf"
)

// lublinFile writes n Lublin-Feitelson jobs (published "whole" parameters,
// 128 processors, seed 1) at the offered load to an SWF file in dir, as
// `hpcwl generate lublin --count n --offered-load load --seed 1` does.
func lublinFile(b *testing.B, dir string, n int, load float64) string {
	h, js, err := lublin.Generate(lublin.Config{Params: lublin.DefaultParams(lublin.Whole), Jobs: n, Load: load, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	name := filepath.Join(dir, fmt.Sprintf("lublin-%d-%v.swf", n, load))
	f, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	w := swf.NewWriter(f)
	if err := w.WriteHeader(&h); err != nil {
		b.Fatal(err)
	}
	for i := range js {
		if err := w.Write(&js[i]); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return name
}

// peakRSS resets the process's peak resident set (Linux: clear_refs 5)
// after returning the free heap to the system,
// and returns a function that reads it back in bytes, or -1 where the
// system cannot.
func peakRSS() func() int64 {
	debug.FreeOSMemory() // what earlier work left to the heap counts as resident until returned
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return func() int64 { return -1 }
	}
	return func() int64 {
		f, err := os.Open("/proc/self/status")
		if err != nil {
			return -1
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
				kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				if err != nil {
					return -1
				}
				return kb << 10
			}
		}
		return -1
	}
}

// BenchmarkSimulateLublin runs `hpcwl simulate FILE --scheduler easy
// --json` end to end (the log read as the simulation goes, the metrics,
// the steady-state check) on 1,000,000 generated Lublin-Feitelson jobs at
// offered load 0.8 and at 1.05 (a queue that never empties), the two
// alternated in one process. It reports the time per job at each load,
// their ratio (goal: at most 3), and the peak resident memory of a run per
// job at each load (goal: at most 150 bytes). The 10,000,000-job runs are
// commands in docs/performance.md ("Simulation memory").
// Run: go test -run - -bench SimulateLublin -benchtime 1x ./cmd/hpcwl/
func BenchmarkSimulateLublin(b *testing.B) {
	const n = 1_000_000
	dir := b.TempDir()
	loads := []float64{0.8, 1.05}
	files := make([]string, len(loads))
	for i, l := range loads {
		files[i] = lublinFile(b, dir, n, l)
	}
	var el [2]time.Duration
	var peak [2]int64
	for b.Loop() {
		for i, f := range files {
			cmd := newSimulateCommand(io.Discard, io.Discard)
			cmd.SetArgs([]string{f, "--scheduler", "easy", "--json"})
			cmd.SetContext(context.Background())
			cmd.SilenceUsage = true
			rss := peakRSS()
			t0 := time.Now()
			if err := cmd.Execute(); err != nil {
				b.Fatal(err)
			}
			el[i] += time.Since(t0)
			peak[i] = max(peak[i], rss())
		}
	}
	b.ReportMetric(float64(el[0].Nanoseconds())/float64(b.N*n), "ns/job@0.8")
	b.ReportMetric(float64(el[1].Nanoseconds())/float64(b.N*n), "ns/job@1.05")
	b.ReportMetric(el[1].Seconds()/el[0].Seconds(), "sat/unsat")
	if peak[0] > 0 {
		b.ReportMetric(float64(peak[0])/n, "peakRSS-B/job@0.8")
		b.ReportMetric(float64(peak[1])/n, "peakRSS-B/job@1.05")
	}
}
