package sim

import (
	"context"

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
	jobs := make([]Job, len(w.Jobs))
	copy(jobs, w.Jobs)
	res, err := Run(ctx, NewReplay(jobs), s, Config{
		Procs: w.Procs, Predictor: opt.Predictor, Kill: opt.Kill,
		Progress: opt.Progress, CheckEvery: opt.CheckEvery, SizeHint: len(jobs),
		RecordPredictions: opt.RecordPredictions, PassEveryEvent: opt.PassEveryEvent,
	})
	if err != nil {
		return nil, w, err
	}
	return res, w, nil
}
