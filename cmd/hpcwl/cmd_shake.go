package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/stat"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
)

func init() { register(newShakeCommand) }

// shakeOptions are the options of `hpcwl shake`.
type shakeOptions struct {
	trace     traceFlags
	by        string
	shift     string
	count     int
	runs      int
	seed      uint64
	scheduler string
	tau       string
	json      bool
}

func newShakeCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts shakeOptions
	cmd := &cobra.Command{
		Use:   "shake TRACE",
		Short: "Simulate a log and slightly shifted copies of it, and show how much a metric moves",
		Long: `Shake measures how sensitive a simulation result is to tiny changes of the
workload, after Zakay's proposal to shake a workload at the level of whole
sessions or whole users (thesis, chapter 3, section 6): it simulates the log,
then --runs shaken copies, each with --count units (all with 0) moved by a
random whole number of seconds drawn uniformly from [-shift, shift] without 0.

--by user shifts whole user sub-traces, --by session whole sessions (a gap
over 60 minutes between a user's submits starts a new session; --shift at
most 30m, so that no session passes its neighbour), --by runtime changes
single jobs' runtimes (the job-level change of Zakay's motivating example,
for comparison). Everything inside a unit is kept.

The table gives the original log's mean wait, slowdown and bounded slowdown
(threshold --tau), the shaken copies' median, 5th and 95th percentiles and
range, and the largest relative change from the original. Jobs wider than
the machine are left out of every run. Run i uses the random stream (--seed,
i): the same command gives the same numbers.` + exitStatusHelp,
		Example: `  hpcwl shake builtin:KTH-SP2 --by user --count 1 --shift 60s --runs 5
  hpcwl shake builtin:KTH-SP2 --by session --shift 5m --runs 3 --json
  hpcwl shake builtin:KTH-SP2 --by runtime --count 1 --shift 30s --runs 3 --scheduler fcfs`,
		Args: exactArgs(1, "one TRACE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runShake(cmd.Context(), opts, args[0], stdout, stderr)
		}),
	}
	opts.trace.add(cmd)
	f := cmd.Flags()
	f.StringVar(&opts.by, "by", "user", "unit moved: user (whole sub-traces), session (whole sessions), runtime (single jobs' runtimes)")
	f.StringVar(&opts.shift, "shift", "60s", "largest move of a unit, e.g. 30s, 5m (session: at most 30m; others: at most 30d)")
	f.IntVar(&opts.count, "count", 0, "units moved in each shaken copy (0: every unit)")
	f.IntVar(&opts.runs, "runs", 20, "number of shaken copies")
	f.Uint64Var(&opts.seed, "seed", 1, "random seed (run i uses stream i)")
	f.StringVar(&opts.scheduler, "scheduler", "easy", "scheduler: "+strings.Join(sched.Names(), ", ")+" (built-in only)")
	f.StringVar(&opts.tau, "tau", "10s", "bounded-slowdown threshold")
	positiveFlags(cmd, "tau", "runs")
	f.BoolVar(&opts.json, "json", false, "print the report, with every run's metrics, as JSON")
	return cmd
}

// shakeReport is the JSON form of `hpcwl shake`.
type shakeReport struct {
	Version   string `json:"hpcwl_version"`
	Command   string `json:"command"`
	Input     string `json:"input"`
	SHA256    string `json:"sha256"`
	Scheduler string `json:"scheduler"`
	Procs     int    `json:"procs"`
	By        string `json:"by"`
	MaxShift  int64  `json:"max_shift"`
	Seed      uint64 `json:"seed"`
	Tau       int64  `json:"tau"`
	*resample.ShakeResult
	Summary []shakeDist `json:"summary"`
}

// shakeDist summarizes one metric over the shaken copies.
type shakeDist struct {
	Metric   string  `json:"metric"`
	Original float64 `json:"original"`
	Median   float64 `json:"median"`
	P5       float64 `json:"p5"`
	P95      float64 `json:"p95"`
	Min      float64 `json:"min"`
	Max      float64 `json:"max"`
	// MaxChange is the largest |variant - original| / original, in percent.
	MaxChange float64 `json:"max_change_percent"`
}

func runShake(ctx context.Context, opts shakeOptions, name string, stdout, stderr io.Writer) error {
	unit, err := resample.ParseShakeUnit(opts.by)
	if err != nil {
		return usageError{err}
	}
	shift, err := parseSpan(opts.shift)
	if err != nil {
		return usagef("--shift: %v", err)
	}
	tau, err := parseSpan(opts.tau)
	if err != nil || tau <= 0 {
		return usagef("--tau: %v", orPositive(err, opts.tau))
	}
	if opts.count < 0 {
		return usagef("--count %d: want 0 (every unit) or more", opts.count)
	}
	schedName := strings.ToLower(opts.scheduler)
	if sched.IsExternal(schedName) {
		return usagef("shake runs built-in schedulers only")
	}
	if _, err := sched.New(schedName); err != nil {
		return usageError{err}
	}
	so := resample.ShakeOptions{Unit: unit, MaxShift: shift, Count: opts.count, Seed: opts.seed}
	cfg := resample.ShakeConfig{Shake: so, Runs: opts.runs, Procs: opts.trace.procs, Tau: sim.Time(tau),
		Scheduler: func() sim.Scheduler { s, _ := sched.New(schedName); return s }}
	if err := so.Validate(); err != nil {
		return usageError{err}
	}
	t, err := opts.trace.load(name)
	if err != nil {
		return err
	}
	procs, err := t.MachineSize()
	if err != nil {
		return usageError{err}
	}
	if n, err := resample.ShakeUnits(t, unit); err != nil {
		return err
	} else if opts.count > n {
		return usagef("--count %d: %s has %d %s units", opts.count, name, n, unit)
	}
	res, err := resample.ShakeRuns(ctx, t, cfg)
	if err != nil {
		return err
	}
	rep := shakeReport{Version: version.String(), Command: commandLine(), Input: name, SHA256: t.SHA256, Scheduler: schedName,
		Procs: procs, By: unit.String(), MaxShift: shift, Seed: opts.seed, Tau: tau, ShakeResult: res}
	for _, m := range []struct {
		name string
		get  func(resample.ShakeMetrics) float64
	}{
		{"wait", func(m resample.ShakeMetrics) float64 { return m.Wait }},
		{"slowdown", func(m resample.ShakeMetrics) float64 { return m.Slowdown }},
		{"bounded_slowdown", func(m resample.ShakeMetrics) float64 { return m.BoundedSlowdown }},
		{"utilization", func(m resample.ShakeMetrics) float64 { return m.Utilization }},
	} {
		rep.Summary = append(rep.Summary, summarizeShake(m.name, m.get(res.Original), res.Variants, m.get))
	}
	if opts.json {
		return writeJSON(stdout, rep)
	}
	return printShake(stdout, &rep)
}

// summarizeShake computes a metric's distribution; percentiles are
// gonum's empirical quantiles of the sorted values.
func summarizeShake(name string, orig float64, vs []resample.ShakeMetrics, get func(resample.ShakeMetrics) float64) shakeDist {
	x := make([]float64, len(vs))
	for i, v := range vs {
		x[i] = get(v)
	}
	slices.Sort(x)
	d := shakeDist{Metric: name, Original: orig, Min: x[0], Max: x[len(x)-1],
		Median: stat.Quantile(0.5, stat.Empirical, x, nil), P5: stat.Quantile(0.05, stat.Empirical, x, nil),
		P95: stat.Quantile(0.95, stat.Empirical, x, nil)}
	if orig != 0 {
		for _, v := range x {
			d.MaxChange = max(d.MaxChange, 100*abs(v-orig)/orig)
		}
	}
	return d
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func printShake(w io.Writer, r *shakeReport) error {
	fmt.Fprintf(w, "%s: %d %s units, %d moved by up to %d s in each of %d shaken copies; %s on %d processors, tau %d s\n",
		r.Input, r.Units, r.By, r.Moved, r.MaxShift, len(r.Variants), r.Scheduler, r.Procs, r.Tau)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "metric\toriginal\tmedian\tp5\tp95\tmin\tmax\tmax change %\t")
	for _, d := range r.Summary {
		fmt.Fprintf(tw, "%s\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t%.2f\t\n", d.Metric, d.Original, d.Median, d.P5, d.P95, d.Min, d.Max, d.MaxChange)
	}
	return tw.Flush()
}
