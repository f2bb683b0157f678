package replicate

import (
	"github.com/hpcwl/hpcwl/sim"
)

// Metrics are the figures of one run, measured over a period [From, To):
// the jobs submitted in it (rare behaviours left out).
type Metrics struct {
	// Jobs counts the jobs submitted in the period.
	Jobs int `json:"jobs"`
	// Throughput counts the jobs that completed in the period. The thesis (N.
	// Zakay, Improved Realism and Representativeness of Workloads to Improve
	// Reliability of Performance Evaluations, PhD thesis, Hebrew University,
	// chapter 3) defines it as "the total number of jobs during the simulation
	// period"; counting completed jobs is our choice where it leaves the
	// window open.
	Throughput int `json:"throughput"`
	// Utilization is the processor-time of all jobs within the period
	// over P x the period's length.
	Utilization float64 `json:"utilization"`
	// Wait, Response, Slowdown and BoundedSlowdown are means over the jobs
	// submitted in the period that started (seconds for the first two);
	// the slowdown is max(1, response / max(runtime, 1 s)), the rule of
	// metrics.Summary for zero-runtime jobs.
	Wait            float64 `json:"wait"`
	Response        float64 `json:"response"`
	Slowdown        float64 `json:"slowdown"`
	BoundedSlowdown float64 `json:"bounded_slowdown"`
	// Saturated is the verdict of the saturation detector and Slope its
	// slope, in outstanding jobs per week.
	Saturated bool    `json:"saturated"`
	Slope     float64 `json:"saturation_slope"`
}

// MetricNames lists the metrics summarized, in report order.
var MetricNames = []string{"throughput", "utilization", "wait", "response", "slowdown", "bounded_slowdown", "jobs"}

// Value returns the named metric (one of MetricNames).
func (m *Metrics) Value(name string) float64 {
	switch name {
	case "jobs":
		return float64(m.Jobs)
	case "throughput":
		return float64(m.Throughput)
	case "utilization":
		return m.Utilization
	case "wait":
		return m.Wait
	case "response":
		return m.Response
	case "slowdown":
		return m.Slowdown
	case "bounded_slowdown":
		return m.BoundedSlowdown
	}
	panic("replicate: unknown metric " + name)
}

// measure computes the metrics of res over [from, to); skip, when not nil,
// leaves jobs out (rare behaviours) of everything but utilization.
func measure(res *sim.Result, from, to sim.Time, tau sim.Time, skip func(i int) bool) Metrics {
	var m Metrics
	var busy, wait, resp, sd, bsd float64
	started := 0
	for i := range res.Jobs {
		o := &res.Jobs[i]
		if o.Start >= 0 {
			a, b := max(o.Start, from), min(o.End, to)
			if b > a {
				busy += float64(b-a) * float64(o.Procs)
			}
		}
		if o.Submit < from || o.Submit >= to || (skip != nil && skip(i)) {
			continue
		}
		m.Jobs++
		if o.Start < 0 {
			continue
		}
		if o.End <= to {
			m.Throughput++
		}
		started++
		w := float64(o.Start - o.Submit)
		run := o.End - o.Start
		r := w + float64(run)
		wait += w
		resp += r
		sd += max(1, r/float64(max(run, 1)))
		bsd += max(1, r/float64(max(run, tau)))
	}
	m.Utilization = busy / (float64(res.Procs) * float64(to-from))
	if started > 0 {
		n := float64(started)
		m.Wait, m.Response, m.Slowdown, m.BoundedSlowdown = wait/n, resp/n, sd/n, bsd/n
	}
	return m
}
