package replicate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"

	"github.com/hpcwl/hpcwl/feedback"
	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// Mode is how each variant is simulated.
type Mode uint8

// The simulation modes: the resampled log as a fixed job stream, or TBUOS (N.
// Zakay, Improved Realism and Representativeness of Workloads to Improve
// Reliability of Performance Evaluations, PhD thesis, Hebrew University,
// chapters 3 and 5).
const (
	// Conventional replays the resampled jobs at their fixed times.
	Conventional Mode = iota
	// TBUOS drives the resampled users by feedback (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 5).
	TBUOS
)

// String returns "conventional" or "tbuos".
func (m Mode) String() string {
	if m == TBUOS {
		return "tbuos"
	}
	return "conventional"
}

// Progress is told when a variant is done; it must be safe for
// concurrent use.
type Progress interface {
	Done()
}

// Config sets up [Run]. Zero values mean the documented defaults.
type Config struct {
	// Pools are the classified log (required).
	Pools *resample.Pools
	// Generate holds the generator's options; Stream is replaced by the
	// variant number.
	Generate resample.Options
	// Scheduler builds a fresh scheduler for each run (required).
	Scheduler func() sim.Scheduler
	// Mode is the simulation mode; default Conventional.
	Mode Mode
	// Feedback configures TBUOS; nil means Fluid V2.
	Feedback *feedback.Options
	// Regen is the TBUOS regeneration rule for long-term users; the zero
	// value waits out each user's original off-activity gap, as the thesis
	// does (see [resample.Regeneration]).
	Regen resample.Regeneration
	// Variants is the number of variants, > 0.
	Variants int
	// Workers is the number of variants simulated at once; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// Procs is the machine size; 0 means the log's.
	Procs int
	// Tau is the bounded-slowdown threshold; 0 means 10 s.
	Tau sim.Time
	// SkipOriginal leaves out the replay of the original log.
	SkipOriginal bool
	// Progress is told of each finished variant; nil means none.
	Progress Progress
	// Record, when set, receives each TBUOS variant's simulated schedule
	// as a log ([resample.TBUOSRun.Trace] with RecordNote), so that the
	// analyses of logs (weekly cycle, sessions, compare) can run on it. It
	// is called from the workers, concurrently; an error stops the run.
	Record func(variant int, t *trace.Trace) error
	// RecordNote is the header note of the recorded logs (the scheduler
	// and feedback options).
	RecordNote string
}

// Result holds every variant's metrics and their summary.
type Result struct {
	// Mode is the simulation mode.
	Mode string `json:"mode"`
	// Regeneration is the TBUOS regeneration rule, "gap" or "immediate";
	// empty in conventional mode.
	Regeneration string `json:"regeneration,omitempty"`
	// Original is the replay of the original log measured over its
	// period, nil with SkipOriginal. In Conventional mode the log is
	// replayed at its recorded times; in TBUOS mode with the variants'
	// feedback model, so that the original and the variants are simulated
	// alike. OriginalReplay says which: "rigid" or "feedback (MODEL users)".
	Original       *Metrics `json:"original,omitempty"`
	OriginalReplay string   `json:"original_replay,omitempty"`
	// Variants holds each variant's metrics; Variants[i] used stream i.
	Variants []Metrics `json:"variants"`
	// Saturated counts the variants the detector flagged; they are left
	// out of Summary.
	Saturated int `json:"saturated"`
	// Summary is each metric's distribution, in MetricNames order.
	Summary []Dist `json:"summary"`
	// LeftOut counts the log's jobs left out of every variant (the pools'
	// Filtered: without user, runtime, processors or submit time, or
	// partial-execution records); OriginalDropped the jobs the original's
	// replay left out (without runtime, processors or submit time, or
	// wider than the machine).
	LeftOut         int `json:"jobs_left_out"`
	OriginalDropped int `json:"original_dropped"`
	// Params are the generator's parameters of variant 0.
	Params resample.Params `json:"parameters"`
	// Warnings say where the summary needs care: a saturated original,
	// an original outside the variants' range, too few variants for a
	// confidence interval.
	Warnings []string `json:"warnings,omitempty"`
}

// Run simulates cfg.Variants variants in parallel and summarizes them.
func Run(parent context.Context, cfg Config) (*Result, error) {
	if cfg.Pools == nil || cfg.Scheduler == nil {
		panic("replicate: nil pools or scheduler")
	}
	if cfg.Variants <= 0 {
		return nil, fmt.Errorf("replicate: %d variants: must be at least 1", cfg.Variants)
	}
	if cfg.Tau == 0 {
		cfg.Tau = 10
	}
	procs := cfg.Procs
	if procs <= 0 {
		var err error
		if procs, err = cfg.Pools.Trace.MachineSize(); err != nil {
			return nil, err
		}
	}
	cfg.Procs = procs
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	res := &Result{Mode: cfg.Mode.String(), Variants: make([]Metrics, cfg.Variants)}
	if cfg.Mode == TBUOS {
		res.Regeneration = cfg.Regen.String()
	}
	errs := make([]error, cfg.Variants)
	params := make([]resample.Params, cfg.Variants)
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, cfg.Variants) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				res.Variants[i], params[i], errs[i] = variant(ctx, cfg, i)
				if errs[i] != nil {
					cancel()
				}
				if cfg.Progress != nil {
					cfg.Progress.Done()
				}
			}
		}()
	}
	var orig Metrics
	var origErr error
	if !cfg.SkipOriginal {
		wg.Add(1)
		go func() {
			defer wg.Done()
			orig, res.OriginalDropped, origErr = original(ctx, cfg)
		}()
	}
	res.LeftOut = cfg.Pools.Filtered
feed:
	for i := range cfg.Variants {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	for _, err := range append(errs, origErr) {
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, err
		}
	}
	if err := parent.Err(); err != nil {
		return nil, err
	}
	if !cfg.SkipOriginal {
		res.Original = &orig
		res.OriginalReplay = "rigid"
		if cfg.Mode == TBUOS {
			res.OriginalReplay = "feedback (" + feedbackOptions(cfg).Model.String() + " users)"
		}
	}
	res.Params = params[0]
	res.summarize(cfg.SkipOriginal)
	return res, nil
}

// variant generates and simulates variant i.
func variant(ctx context.Context, cfg Config, i int) (Metrics, resample.Params, error) {
	if err := ctx.Err(); err != nil {
		return Metrics{}, resample.Params{}, err
	}
	o := cfg.Generate
	o.Stream = uint64(i)
	p := cfg.Pools
	var res *sim.Result
	var pr resample.Params
	var rare func(int) bool
	var weekStarts []int64
	switch cfg.Mode {
	case TBUOS:
		run, err := p.TBUOS(ctx, cfg.Scheduler(), resample.TBUOSOptions{Options: o, Feedback: cfg.Feedback, Procs: cfg.Procs, Regen: cfg.Regen})
		if err != nil {
			return Metrics{}, pr, fmt.Errorf("variant %d: %w", i, err)
		}
		res, pr = run.Result, run.Params
		if cfg.Record != nil {
			if err := cfg.Record(i, run.Trace(p, cfg.RecordNote)); err != nil {
				return Metrics{}, pr, fmt.Errorf("variant %d: recording: %w", i, err)
			}
		}
		rare = func(k int) bool { return run.Copy(k).Class == resample.Rare }
		weekStarts = p.WeekStarts(pr.Weeks)
	default:
		w, err := p.Generate(o)
		if err != nil {
			return Metrics{}, pr, fmt.Errorf("variant %d: %w", i, err)
		}
		pr = w.Params
		t := w.Trace("")
		r, _, err := sim.Simulate(ctx, t, cfg.Scheduler(), sim.Options{PrepareOptions: sim.PrepareOptions{
			Machine: sim.Machine{Procs: cfg.Procs}, Oversize: sim.OversizeDrop}})
		if err != nil {
			return Metrics{}, pr, fmt.Errorf("variant %d: %w", i, err)
		}
		res = r
		rare = func(k int) bool { return w.Copies[res.Jobs[k].User-1].Class == resample.Rare }
		weekStarts = w.WeekStarts()
	}
	m := measure(res, 0, sim.Time(pr.Duration), cfg.Tau, rare)
	m.Saturated, m.Slope = resample.SaturatedRun(res, weekStarts)
	return m, pr, nil
}

// feedbackOptions returns the feedback options of TBUOS: cfg.Feedback,
// else Fluid V2 (as resample.TBUOS).
func feedbackOptions(cfg Config) feedback.Options {
	if cfg.Feedback != nil {
		return *cfg.Feedback
	}
	return feedback.Options{Model: feedback.Fluid, Fluid: feedback.FluidV2}
}

// original replays the original log over its period: at its recorded
// times in Conventional mode, with the variants' feedback model in TBUOS
// mode.
func original(ctx context.Context, cfg Config) (Metrics, int, error) {
	p := cfg.Pools
	so := sim.Options{PrepareOptions: sim.PrepareOptions{Machine: sim.Machine{Procs: cfg.Procs}, Oversize: sim.OversizeDrop}}
	var res *sim.Result
	var w *sim.Workload
	var err error
	if cfg.Mode == TBUOS {
		var run *feedback.Run
		if run, err = feedback.Simulate(ctx, p.Trace, cfg.Scheduler(), so, feedbackOptions(cfg)); err == nil {
			res, w = run.Result, run.Workload
		}
	} else {
		res, w, err = sim.Simulate(ctx, p.Trace, cfg.Scheduler(), so)
	}
	if err != nil {
		return Metrics{}, 0, fmt.Errorf("original log: %w", err)
	}
	dropped := w.Dropped + w.DroppedOversize
	m := measure(res, sim.Time(p.Start), sim.Time(p.End)+1, cfg.Tau, nil)
	weeks := p.WeekStarts(p.Weeks() + 1)
	m.Saturated, m.Slope = resample.SaturatedRun(res, weeks)
	return m, dropped, nil
}

func (r *Result) summarize(noOrig bool) {
	var ok []Metrics
	for _, m := range r.Variants {
		if m.Saturated {
			r.Saturated++
			continue
		}
		ok = append(ok, m)
	}
	for _, name := range MetricNames {
		x := make([]float64, len(ok))
		for i := range ok {
			x[i] = ok[i].Value(name)
		}
		orig := math.NaN()
		if !noOrig {
			orig = r.Original.Value(name)
		}
		r.Summary = append(r.Summary, summarize(name, x, orig))
	}
	r.Warnings = r.warnings(noOrig, len(ok))
}

// warnings lists what the summary's reader must know.
func (r *Result) warnings(noOrig bool, n int) []string {
	var w []string
	if n < 2 {
		w = append(w, fmt.Sprintf("%d unsaturated variant(s): no confidence interval of the mean (it needs at least 2)", n))
	}
	if noOrig {
		return w
	}
	if r.Original.Saturated {
		w = append(w, fmt.Sprintf("the original log saturates the machine under this scheduler (outstanding jobs grow by %.3g a week): its waits and slowdowns measure the backlog, not the scheduler", r.Original.Slope))
	}
	var out []string
	for _, d := range r.Summary {
		if d.OutsideRange {
			out = append(out, d.Name)
		}
	}
	if len(out) > 0 {
		w = append(w, fmt.Sprintf("the original lies outside the range of the %d variants for %s: resampling recombines whole users over another period, so the variants never reproduced the original's exact mix of users and bursts; read the original as one more sample, not as the variants' centre",
			n, strings.Join(out, ", ")))
	}
	return w
}
