package sim

import (
	"context"
	"slices"

	"github.com/hpcwl/hpcwl/trace"
)

// Options control [Simulate].
type Options struct {
	PrepareOptions
	// Predictor gives runtime predictions; nil means [Requested].
	Predictor Predictor
	// Kill stops jobs at their requested time; default false (jobs run
	// their whole recorded runtime).
	Kill bool
	// Progress receives periodic reports; nil means none.
	Progress Progress
	// CheckEvery is the number of events between context checks; default
	// 4096.
	CheckEvery int
	// RecordPredictions keeps every prediction in Result.Predictions (see
	// [Config]).
	RecordPredictions bool
	// RecordRevisions keeps only the predictions after arrival (see
	// [Config]).
	RecordRevisions bool
	// PassEveryEvent runs a scheduling pass after every event instead of
	// once per instant (see [Config]).
	PassEveryEvent bool
}

// Simulate replays trace t rigidly (each job arrives at its recorded submit
// time) on the machine of opt under scheduler s. It also returns the
// prepared workload, with the counts of dropped, clamped and filled-in jobs.
// A trace without jobs gives an empty result.
func Simulate(ctx context.Context, t *trace.Trace, s Scheduler, opt Options) (*Result, *Workload, error) {
	w, err := Prepare(t, opt.PrepareOptions)
	if err != nil {
		return nil, nil, err
	}
	if len(w.Jobs) == 0 {
		return &Result{Procs: w.Procs, Kill: opt.Kill}, w, nil
	}
	// The replay sorts its jobs in place; w.Jobs stays in the trace's
	// order, copied only when the trace is not in submit order.
	jobs := w.Jobs
	if !slices.IsSortedFunc(jobs, cmpSubmit) {
		jobs = slices.Clone(w.Jobs)
	}
	res, err := Run(ctx, NewReplay(jobs), s, Config{
		Procs: w.Procs, Predictor: opt.Predictor, Kill: opt.Kill,
		Progress: opt.Progress, CheckEvery: opt.CheckEvery, SizeHint: len(jobs),
		RecordPredictions: opt.RecordPredictions, RecordRevisions: opt.RecordRevisions, PassEveryEvent: opt.PassEveryEvent,
	})
	if err != nil {
		return nil, w, err
	}
	return res, w, nil
}
