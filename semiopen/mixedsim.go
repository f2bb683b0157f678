package semiopen

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/hpcwl/hpcwl/feedback"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// MixedMeasure is what a simulation of the mixed model measured, in the
// model's time unit, over the window from the warm-up to the horizon, when
// every closed user is still active.
type MixedMeasure struct {
	// N is the number of closed users.
	N int `json:"n"`
	// Jobs is the number of jobs of the log.
	Jobs int `json:"jobs"`
	// Window is the measured window's length.
	Window float64 `json:"window"`
	// ClosedThroughput, OpenThroughput and Throughput are the jobs of each
	// class, and of both, that ended in the window per time unit.
	ClosedThroughput float64 `json:"closed_throughput"`
	OpenThroughput   float64 `json:"open_throughput"`
	Throughput       float64 `json:"throughput"`
	// Utilization is the busy fraction of the processor in the window.
	Utilization float64 `json:"utilization"`
	// ClosedResponse and OpenResponse are the mean response times (wait +
	// runtime) of the jobs of each class submitted in the window.
	ClosedResponse float64 `json:"closed_response"`
	OpenResponse   float64 `json:"open_response"`
	// ClosedJobs and OpenJobs count those jobs.
	ClosedJobs int `json:"closed_jobs"`
	OpenJobs   int `json:"open_jobs"`
}

// Warmup is the fraction of the horizon that [SimulateMixed] leaves out of
// its measurements, while the closed users' first jobs arrive.
const Warmup = 0.1

// SimulateMixed checks the mixed model against hpcwl's simulator: it writes
// the model with n closed users as a log ([MixedWorkload], random numbers
// from rng), replays it on its one-processor machine under FCFS with Zakay's
// Adjusted feedback ([feedback.Simulate]), and measures throughput,
// utilization and response times per class from the warm-up (a fraction
// [Warmup] of the horizon) to the horizon. It returns the log with the
// measure.
func SimulateMixed(ctx context.Context, m Mixed, n int, o WorkloadOptions, rng *rand.Rand) (*MixedMeasure, *trace.Trace, error) {
	t, err := MixedWorkload(m, n, o, rng)
	if err != nil {
		return nil, nil, err
	}
	o = o.withDefaults()
	run, err := feedback.Simulate(ctx, t, sched.NewFCFS(), sim.Options{}, feedback.Options{Model: feedback.Adjusted})
	if err != nil {
		return nil, nil, fmt.Errorf("simulating the mixed model: %w", err)
	}
	return measureMixed(run.Result, n, o), t, nil
}

// measureMixed measures a run of a [MixedWorkload] log with n closed users.
func measureMixed(res *sim.Result, n int, o WorkloadOptions) *MixedMeasure {
	unit := float64(o.Unit)
	hi := sim.Time(o.Horizon * unit)
	lo := sim.Time(Warmup * o.Horizon * unit)
	mm := &MixedMeasure{N: n, Jobs: len(res.Jobs), Window: float64(hi-lo) / unit}
	var closedEnd, openEnd int
	var busy sim.Time
	var rc, ro float64
	for i := range res.Jobs {
		j := &res.Jobs[i]
		if j.Start < 0 {
			continue
		}
		closed := int(j.User) <= n
		if j.End > lo && j.End <= hi {
			if closed {
				closedEnd++
			} else {
				openEnd++
			}
		}
		busy += max(min(j.End, hi)-max(j.Start, lo), 0)
		if j.Submit >= lo && j.Submit < hi {
			r := float64(j.End-j.Submit) / unit
			if closed {
				mm.ClosedJobs++
				rc += r
			} else {
				mm.OpenJobs++
				ro += r
			}
		}
	}
	w := mm.Window
	mm.ClosedThroughput = float64(closedEnd) / w
	mm.OpenThroughput = float64(openEnd) / w
	mm.Throughput = mm.ClosedThroughput + mm.OpenThroughput
	mm.Utilization = float64(busy) / unit / w
	if mm.ClosedJobs > 0 {
		mm.ClosedResponse = rc / float64(mm.ClosedJobs)
	}
	if mm.OpenJobs > 0 {
		mm.OpenResponse = ro / float64(mm.OpenJobs)
	}
	return mm
}
