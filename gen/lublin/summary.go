package lublin

import (
	"math"

	"gonum.org/v1/gonum/stat"

	"github.com/hpcwl/hpcwl/stats"
	"github.com/hpcwl/hpcwl/swf"
)

// Statistics are the workload statistics by which we compare the generator
// with the reference program lublin99.c (docs/validation.md); they apply to
// any log.
type Statistics struct {
	Jobs               int     `json:"jobs"`
	FracSerial         float64 `json:"frac_serial"`
	FracPow2           float64 `json:"frac_pow2"` // of all jobs: size a power of two > 1
	MeanProcs          float64 `json:"mean_procs"`
	MedianProcs        float64 `json:"median_procs"`
	MeanRuntime        float64 `json:"mean_runtime"`
	MedianRuntime      float64 `json:"median_runtime"`
	MeanLogRuntime     float64 `json:"mean_log_runtime"` // over runtimes > 0
	MeanInterarrival   float64 `json:"mean_interarrival"`
	MedianInterarrival float64 `json:"median_interarrival"`
	SpanDays           float64 `json:"span_days"`
	FracBatch          float64 `json:"frac_batch"` // queue == QueueBatch
	Corr               float64 `json:"corr_procs_runtime"`
	Load               float64 `json:"load"`
	// Hourly is the fraction of arrivals in each hour of the day, hour 0
	// starting at time-of-day startHour·3600 of submit time 0.
	Hourly [24]float64 `json:"hourly"`
}

// Summarize computes [Statistics] of jobs (sorted by submit time) on a machine
// of procs processors; the load is Σ r·n / (P · last submit time). startHour
// is the local time of day of submit time 0. Jobs with unknown (negative)
// runtime or size are skipped.
func Summarize(jobs []swf.Job, procs int, startHour float64) Statistics {
	var s Statistics
	var nodes, rt, lrt, ia []float64
	var work float64
	prev, first, last := int64(-1), int64(math.MaxInt64), int64(0)
	var pow2, par, batch int
	for _, j := range jobs {
		if j.Runtime < 0 || j.Procs < 1 {
			continue
		}
		s.Jobs++
		nodes = append(nodes, float64(j.Procs))
		rt = append(rt, float64(j.Runtime))
		if j.Runtime > 0 {
			lrt = append(lrt, math.Log(float64(j.Runtime)))
		}
		work += float64(j.Runtime) * float64(j.Procs)
		if j.Procs > 1 {
			par++
			if j.Procs&(j.Procs-1) == 0 {
				pow2++
			}
		}
		if j.Queue == QueueBatch {
			batch++
		}
		if prev >= 0 {
			ia = append(ia, float64(j.Submit-prev))
		}
		prev = j.Submit
		first, last = min(first, j.Submit), max(last, j.Submit)
		h := int(math.Floor(math.Mod(float64(j.Submit)/3600+startHour, 24)))
		s.Hourly[(h+24)%24]++
	}
	if s.Jobs == 0 {
		return s
	}
	n := float64(s.Jobs)
	for h := range s.Hourly {
		s.Hourly[h] /= n
	}
	s.FracSerial = 1 - float64(par)/n
	s.FracPow2 = float64(pow2) / n
	s.FracBatch = float64(batch) / n
	s.MeanProcs = stat.Mean(nodes, nil)
	s.MedianProcs = stats.Median(nodes)
	s.MeanRuntime = stat.Mean(rt, nil)
	s.MedianRuntime = stats.Median(rt)
	s.MeanLogRuntime = stat.Mean(lrt, nil)
	if len(ia) > 0 {
		s.MeanInterarrival = stat.Mean(ia, nil)
		s.MedianInterarrival = stats.Median(ia)
	}
	s.SpanDays = float64(last-first) / 86400
	s.Corr = stat.Correlation(nodes, rt, nil)
	if last > 0 && procs > 0 {
		s.Load = work / (float64(procs) * float64(last))
	}
	return s
}
