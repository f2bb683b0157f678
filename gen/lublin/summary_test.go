package lublin

import (
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/swf"
)

// TestSummarizeByHand checks every statistic of Summarize on a log small
// enough to work out by hand. Five jobs are kept (submit offset, runtime,
// size, queue): A (0, 10, 1, 1), B (100, 0, 4, 0), C (7300, 1000, 6, 1),
// D (90000, 2000, 8, 2), E (90050, 40, 1, 1); two more, of runtime −1 and
// of size 0, are skipped. So: sizes 1, 4, 6, 8, 1 (mean 4, lower median 4;
// three parallel, so 0.4 serial; 4 and 8 powers of two, 0.4); runtimes 10,
// 0, 1000, 2000, 40 (mean 610, median 40; the mean log over the four
// positive ones (ln 10 + ln 1000 + ln 2000 + ln 40)/4); queue 1 (batch) for
// A, C and E, 0.6; interarrivals 100, 7200, 82700, 50 (the skipped jobs not
// counted; mean 90050/4, lower median 100); span 90050 s; correlation of
// size and runtime Σdx·dy / √(Σdx²·Σdy²) = 9850 / √(38 · 3141200); load
// Σ r·n / (P · last submit) = 22050 / (8 · last). Hours of the day with
// start hour 0: A, B in hour 0, C (2.03 h) in 2, D (25 h) and E in 1; with
// start hour −1 every job one hour earlier (A, B in 23).
func TestSummarizeByHand(t *testing.T) {
	log := func(base int64) []swf.Job {
		return []swf.Job{
			{Submit: base, Runtime: 10, Procs: 1, Queue: 1},
			{Submit: base + 100, Runtime: 0, Procs: 4, Queue: 0},
			{Submit: base + 200, Runtime: -1, Procs: 2, Queue: 1},
			{Submit: base + 300, Runtime: 5, Procs: 0, Queue: 1},
			{Submit: base + 7300, Runtime: 1000, Procs: 6, Queue: 1},
			{Submit: base + 90000, Runtime: 2000, Procs: 8, Queue: 2},
			{Submit: base + 90050, Runtime: 40, Procs: 1, Queue: 1},
		}
	}
	hours := func(kv map[int]float64) (h [24]float64) {
		for k, v := range kv {
			h[k] = v
		}
		return h
	}
	five := Statistics{
		Jobs: 5, FracSerial: 0.4, FracPow2: 0.4, MeanProcs: 4, MedianProcs: 4,
		MeanRuntime: 610, MedianRuntime: 40,
		MeanLogRuntime:   (math.Log(10) + math.Log(1000) + math.Log(2000) + math.Log(40)) / 4,
		MeanInterarrival: 90050.0 / 4, MedianInterarrival: 100,
		SpanDays: 90050.0 / 86400, FracBatch: 0.6,
		Corr: 9850 / math.Sqrt(38*3141200),
	}
	with := func(s Statistics, load float64, h [24]float64) Statistics {
		s.Load, s.Hourly = load, h
		return s
	}
	for _, c := range []struct {
		name      string
		jobs      []swf.Job
		procs     int
		startHour float64
		want      Statistics
	}{
		{"from 0", log(0), 8, 0, with(five, 22050.0/(8*90050), hours(map[int]float64{0: 0.4, 1: 0.4, 2: 0.2}))},
		{"from 1000", log(1000), 8, 0, with(five, 22050.0/(8*91050), hours(map[int]float64{0: 0.4, 1: 0.4, 2: 0.2}))},
		{"start hour -1", log(0), 8, -1, with(five, 22050.0/(8*90050), hours(map[int]float64{23: 0.4, 0: 0.4, 1: 0.2}))},
		{"start hour 23", log(0), 8, 23, with(five, 22050.0/(8*90050), hours(map[int]float64{23: 0.4, 0: 0.4, 1: 0.2}))},
		{"no machine size", log(0), 0, 0, with(five, 0, hours(map[int]float64{0: 0.4, 1: 0.4, 2: 0.2}))},
		{"empty", nil, 8, 0, Statistics{}},
		{"only unknown jobs", log(0)[2:4], 8, 0, Statistics{}},
		// One job: no interarrival (mean and median 0, not NaN), span 0;
		// at submit 0 the load is not defined and stays 0.
		{"one job at 500", []swf.Job{{Submit: 500, Runtime: 10, Procs: 2, Queue: 0}}, 4, 0, Statistics{
			Jobs: 1, FracPow2: 1, MeanProcs: 2, MedianProcs: 2, MeanRuntime: 10, MedianRuntime: 10,
			MeanLogRuntime: math.Log(10), Corr: math.NaN(), Load: 20.0 / (4 * 500), Hourly: hours(map[int]float64{0: 1})}},
		{"one job at 0", []swf.Job{{Submit: 0, Runtime: 10, Procs: 1, Queue: 1}}, 4, 0, Statistics{
			Jobs: 1, FracSerial: 1, MeanProcs: 1, MedianProcs: 1, MeanRuntime: 10, MedianRuntime: 10,
			MeanLogRuntime: math.Log(10), FracBatch: 1, Corr: math.NaN(), Hourly: hours(map[int]float64{0: 1})}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Summarize(c.jobs, c.procs, c.startHour)
			if got.Jobs != c.want.Jobs {
				t.Fatalf("jobs %d, want %d", got.Jobs, c.want.Jobs)
			}
			for _, f := range []struct {
				name      string
				got, want float64
			}{
				{"frac_serial", got.FracSerial, c.want.FracSerial},
				{"frac_pow2", got.FracPow2, c.want.FracPow2},
				{"mean_procs", got.MeanProcs, c.want.MeanProcs},
				{"median_procs", got.MedianProcs, c.want.MedianProcs},
				{"mean_runtime", got.MeanRuntime, c.want.MeanRuntime},
				{"median_runtime", got.MedianRuntime, c.want.MedianRuntime},
				{"mean_log_runtime", got.MeanLogRuntime, c.want.MeanLogRuntime},
				{"mean_interarrival", got.MeanInterarrival, c.want.MeanInterarrival},
				{"median_interarrival", got.MedianInterarrival, c.want.MedianInterarrival},
				{"span_days", got.SpanDays, c.want.SpanDays},
				{"frac_batch", got.FracBatch, c.want.FracBatch},
				{"corr", got.Corr, c.want.Corr},
				{"load", got.Load, c.want.Load},
			} {
				// Rounding only: the sums have a handful of terms.
				same := math.IsNaN(f.want) && math.IsNaN(f.got) || math.Abs(f.got-f.want) <= 1e-12*math.Max(1, math.Abs(f.want))
				if !same {
					t.Errorf("%s = %v, want %v", f.name, f.got, f.want)
				}
			}
			if got.Hourly != c.want.Hourly {
				t.Errorf("hourly = %v, want %v", got.Hourly, c.want.Hourly)
			}
		})
	}
}
