package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hpcwl/hpcwl/feedback"
	"github.com/hpcwl/hpcwl/figure"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/locality"
	"github.com/hpcwl/hpcwl/replicate"
	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

func init() { register(newPlotCommand) }

// plotKind is a figure `hpcwl plot` draws.
type plotKind struct {
	name  string
	about string
	multi bool // takes several logs, one series each
}

var plotKinds = []plotKind{
	{"runtime", "CDF of run times (log scale)", true},
	{"size", "CDF of job sizes in processors (log scale)", true},
	{"interarrival", "CDF of inter-arrival times (log scale)", true},
	{"wait", "CDF of recorded waits (log scale)", true},
	{"daily", "daily cycle: fraction of jobs submitted per hour of the day", true},
	{"weekly", "weekly cycle: fraction of jobs submitted per hour of the week", true},
	{"utilization", "utilization over time of a simulation (--scheduler, --step)", false},
	{"queue", "queue length over time of a simulation (--scheduler, --step)", false},
	{"gantt", "Gantt chart of a window of a simulated schedule (--start, --window)", false},
	{"curves", "submission and termination curves, rigid vs feedback replay (--speed, --users)", false},
	{"replications", "histogram of a metric across resampled variants, original marked (--metric, --variants)", false},
	{"pox", "pox plot: R/S of blocks of the arrivals per --unit, log-log, with the fitted slope H (--hurst-blocks)", false},
}

func plotKindNames() []string {
	names := make([]string, len(plotKinds))
	for i, k := range plotKinds {
		names[i] = k.name
	}
	return names
}

// plotOptions are the options of `hpcwl plot`.
type plotOptions struct {
	trace     traceFlags
	out       string
	scheduler string
	step      string
	start     string
	window    string
	speed     float64
	users     string
	seed      uint64
	metric    string
	variants  int
	bins      int
	oversize  string
	unit      string
	blocks    string
}

func newPlotCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts plotOptions
	var kinds strings.Builder
	for _, k := range plotKinds {
		fmt.Fprintf(&kinds, "  %-13s %s\n", k.name, k.about)
	}
	cmd := &cobra.Command{
		Use:   "plot KIND TRACE... -o FILE",
		Short: "Draw a figure of a log or of a simulated schedule",
		Long: `Plot draws one figure as SVG, PNG or PDF, by the extension of -o. KIND is one of:

` + kinds.String() + `
The CDFs and cycles take several logs and draw one line each; the other kinds
take one log and simulate it: utilization and queue under each of the
comma-separated --scheduler (default easy), gantt under the first, curves by a
rigid and a feedback replay after the change --speed (as hpcwl evaluate, whose
default is halving the node speed), replications over --variants resampled
variants (as hpcwl replicate, conventional replay); pox is the rescaled-range
analysis of the arrivals that hpcwl compare reports (Hurst parameter H).

The same inputs give a byte-identical file. An SVG records the hpcwl version,
the command line and each input's SHA-256 in its <desc> element, a PNG in a
text chunk; a PDF records none.` + exitStatusHelp,
		Example: `  hpcwl plot runtime builtin:KTH-SP2 -o kth-runtime.svg
  hpcwl plot weekly builtin:KTH-SP2 -o kth-weekly.png
  hpcwl plot utilization builtin:KTH-SP2 --scheduler fcfs,easy --step 1w -o kth-util.svg
  hpcwl plot gantt builtin:KTH-SP2 --start 30d --window 1d -o kth-gantt.pdf
  hpcwl plot curves builtin:KTH-SP2 -o kth-perf2-curves.svg
  hpcwl plot replications builtin:KTH-SP2 --metric wait --variants 8 -o kth-wait.svg
  hpcwl plot pox builtin:KTH-SP2 -o kth-pox.svg`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 2 {
				return usagef("plot expects KIND and at least one TRACE, got %d argument(s); kinds: %s",
					len(args), strings.Join(plotKindNames(), ", "))
			}
			return nil
		},
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runPlot(cmd.Context(), opts, args[0], args[1:], stdout)
		}),
	}
	opts.trace.add(cmd)
	f := cmd.Flags()
	f.StringVarP(&opts.out, "output", "o", "", "write the figure to `FILE` (.svg, .png or .pdf; required)")
	f.StringVar(&opts.scheduler, "scheduler", "easy", "scheduler(s) of the simulated kinds, comma-separated for utilization and queue: "+strings.Join(sched.Names(), ", "))
	f.StringVar(&opts.step, "step", "", "time step of utilization and queue, with a unit (1h, 1d, 1w; default: about 1/200 of the schedule)")
	f.StringVar(&opts.start, "start", "0", "start of the gantt window, from the log's start (e.g. 30d)")
	f.StringVar(&opts.window, "window", "1d", "length of the gantt window (e.g. 12h, 1d)")
	f.Float64Var(&opts.speed, "speed", 0.5, "curves: node speed of the change; runtimes are divided by it")
	f.StringVar(&opts.users, "users", "madon", "curves: user model of the feedback replay: madon, adjusted, distribution, fluid")
	f.Uint64Var(&opts.seed, "seed", 1, "random seed of the resampled variants (replications) and of the distribution and fluid user models (curves)")
	f.StringVar(&opts.metric, "metric", "wait", "replications: the metric: "+strings.Join(replicate.MetricNames, ", "))
	f.IntVar(&opts.variants, "variants", 20, "replications: number of resampled variants")
	f.IntVar(&opts.bins, "bins", 0, "replications: histogram bins (default: the square root of the variants, at least 5)")
	f.StringVar(&opts.oversize, "oversize", "drop", "jobs wider than the machine: drop, error, clamp")
	f.StringVar(&opts.unit, "unit", "1h", "pox: base time unit of the arrival series")
	f.StringVar(&opts.blocks, "hurst-blocks", "even", "pox: even (10 blocks of every size) or all (every non-overlapping block), as hpcwl compare")
	positiveFlags(cmd, "bins")
	return cmd
}

func runPlot(ctx context.Context, opts plotOptions, kind string, names []string, stdout io.Writer) error {
	k, ok := findPlotKind(kind)
	if !ok {
		return usagef("unknown figure kind %q; valid: %s", kind, strings.Join(plotKindNames(), ", "))
	}
	if !k.multi && len(names) > 1 {
		return usagef("plot %s takes one TRACE, got %d", kind, len(names))
	}
	if opts.out == "" {
		return usagef("plot needs -o FILE (.svg, .png or .pdf); \"-\" writes SVG to standard output")
	}
	format := figure.SVG
	if opts.out != "-" {
		var err error
		if format, err = figure.FormatOf(opts.out); err != nil {
			return usageError{err}
		}
	}
	if err := checkOutputs(names, output{"-o", opts.out}); err != nil {
		return err
	}
	logs := make([]*trace.Trace, len(names))
	for i, name := range names {
		t, err := opts.trace.load(name)
		if err != nil {
			return err
		}
		if t.Len() == 0 {
			return fmt.Errorf("%s: the log holds no jobs", name)
		}
		logs[i] = t
	}
	fig, err := drawPlot(ctx, k.name, opts, logs)
	if err != nil {
		return err
	}
	return writeOutput(opts.out, stdout, func(w io.Writer) error {
		return fig.Write(w, format, figureProvenance())
	})
}

func findPlotKind(name string) (plotKind, bool) {
	for _, k := range plotKinds {
		if strings.EqualFold(k.name, name) {
			return k, true
		}
	}
	return plotKind{}, false
}

// figureProvenance is the provenance of the running command for a figure.
func figureProvenance() figure.Provenance {
	p := figure.Provenance{Version: version.String(), Command: commandLine()}
	for _, in := range runInputs {
		p.Inputs = append(p.Inputs, figure.Input{Name: in.Name, SHA256: in.SHA256})
	}
	return p
}

// drawPlot draws the figure kind of the logs (one log unless the kind takes
// several).
func drawPlot(ctx context.Context, kind string, opts plotOptions, logs []*trace.Trace) (*figure.Figure, error) {
	for _, v := range figure.Variables {
		if v.String() == kind {
			return figure.CDF(v, logs...)
		}
	}
	t := logs[0]
	switch kind {
	case "daily":
		return figure.Arrivals(figure.Daily, logs...)
	case "weekly":
		return figure.Arrivals(figure.Weekly, logs...)
	case "utilization", "queue":
		var step int64
		if opts.step != "" {
			s, err := parseSpan(opts.step)
			if err != nil || s <= 0 {
				return nil, usagef("--step: %v", orPositive(err, opts.step))
			}
			step = s
		}
		var runs []figure.Schedule
		for _, name := range strings.Split(opts.scheduler, ",") {
			r, err := plotSimulate(ctx, t, strings.TrimSpace(name), opts)
			if err != nil {
				return nil, err
			}
			runs = append(runs, figure.Schedule{Name: strings.TrimSpace(name), Result: r})
		}
		m := figure.Utilization
		if kind == "queue" {
			m = figure.QueueLength
		}
		return figure.Over(m, step, runs...)
	case "gantt":
		from, err := parseSpan(opts.start)
		if err != nil || from < 0 {
			return nil, usagef("--start: %v", orPositive(err, opts.start))
		}
		window, err := parseSpan(opts.window)
		if err != nil || window <= 0 {
			return nil, usagef("--window: %v", orPositive(err, opts.window))
		}
		name := strings.TrimSpace(strings.Split(opts.scheduler, ",")[0])
		r, err := plotSimulate(ctx, t, name, opts)
		if err != nil {
			return nil, err
		}
		return figure.Gantt(figure.Schedule{Name: name, Result: r}, from, window)
	case "curves":
		return plotCurves(ctx, t, opts)
	case "replications":
		return plotReplications(ctx, t, opts)
	case "pox":
		return plotPox(t, opts)
	}
	return nil, usagef("unknown figure kind %q; valid: %s", kind, strings.Join(plotKindNames(), ", "))
}

func plotSimOptions(opts plotOptions) (sim.Options, error) {
	over, err := sim.ParseOversize(opts.oversize)
	if err != nil {
		return sim.Options{}, usageError{err}
	}
	return sim.Options{PrepareOptions: sim.PrepareOptions{Oversize: over}}, nil
}

// plotSimulate replays t under the named scheduler.
func plotSimulate(ctx context.Context, t *trace.Trace, name string, opts plotOptions) (*sim.Result, error) {
	so, err := plotSimOptions(opts)
	if err != nil {
		return nil, err
	}
	s, err := newScheduler(name, sched.Options{}, t)
	if err != nil {
		return nil, err
	}
	if c, ok := s.(io.Closer); ok {
		defer c.Close() // ends an external scheduler's process
	}
	r, _, err := sim.Simulate(ctx, t, s, so)
	return r, simError(t.Name, err)
}

// simError names the job and the remedy of an oversize error.
func simError(name string, err error) error {
	var oe *sim.OversizeError
	if errors.As(err, &oe) {
		return fmt.Errorf("%s: job %d needs %d processors but the machine has %d; pass --oversize drop or clamp",
			name, oe.JobID, oe.Procs, oe.Machine)
	}
	return err
}

// plotCurves runs t rigidly and with feedback after the change --speed.
func plotCurves(ctx context.Context, t *trace.Trace, opts plotOptions) (*figure.Figure, error) {
	if !(opts.speed > 0) {
		return nil, usagef("--speed must be a positive number, got %v", opts.speed)
	}
	fb := feedbackFlags{users: opts.users, reduction: "transitive", fluid: "v1", seed: opts.seed}
	fo, err := fb.options()
	if err != nil {
		return nil, err
	}
	so, err := plotSimOptions(opts)
	if err != nil {
		return nil, err
	}
	so.Machine.Speed = opts.speed
	var runs [2]*feedback.Run
	for k := range runs {
		s, err := newScheduler(opts.scheduler, sched.Options{}, t)
		if err != nil {
			return nil, err
		}
		if k == 0 {
			runs[k], err = feedback.Rigid(ctx, t, s, so)
		} else {
			runs[k], err = feedback.Simulate(ctx, t, s, so, fo)
		}
		if c, ok := s.(io.Closer); ok {
			c.Close()
		}
		if errors.Is(err, feedback.ErrNoUsers) {
			return nil, fmt.Errorf("%s: %w", t.Name, err)
		}
		if err != nil {
			return nil, simError(t.Name, err)
		}
	}
	return figure.Submissions(t, runs[0], runs[1])
}

// plotReplications runs --variants resampled variants of t.
func plotReplications(ctx context.Context, t *trace.Trace, opts plotOptions) (*figure.Figure, error) {
	if opts.variants < 1 {
		return nil, usagef("--variants must be at least 1, got %d", opts.variants)
	}
	found := false
	for _, m := range replicate.MetricNames {
		found = found || m == opts.metric
	}
	if !found {
		return nil, usagef("unknown --metric %q; valid: %s", opts.metric, strings.Join(replicate.MetricNames, ", "))
	}
	name := strings.ToLower(opts.scheduler)
	if sched.IsExternal(name) {
		return nil, usagef("plot replications runs built-in schedulers only")
	}
	if _, err := sched.New(name); err != nil {
		return nil, usageError{err}
	}
	pools, err := resample.Classify(t, resample.ClassifyOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	r, err := replicate.Run(ctx, replicate.Config{Pools: pools, Variants: opts.variants,
		Scheduler: func() sim.Scheduler { s, _ := sched.New(name); return s },
		Generate:  resample.Options{Seed: opts.seed}})
	if err != nil {
		return nil, generatorError(err)
	}
	return figure.Replications(r, opts.metric, opts.bins)
}

// plotPox draws the pox plot of t's arrivals per --unit.
func plotPox(t *trace.Trace, opts plotOptions) (*figure.Figure, error) {
	unit, err := parseSpan(opts.unit)
	if err != nil || unit <= 0 {
		return nil, usagef("--unit: %v", orPositive(err, opts.unit))
	}
	ho := locality.HurstOptions{Unit: unit}
	switch opts.blocks {
	case "all":
		ho.AllBlocks = true
	case "even":
	default:
		return nil, usagef("unknown --hurst-blocks %q; valid: even, all", opts.blocks)
	}
	label := "units of " + opts.unit
	if unit == 3600 {
		label = "hours"
	}
	t.SortBySubmit()
	return figure.Pox(t.Name, label, locality.Hurst(t, ho))
}
