package main

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hpcwl/hpcwl/batsim"
	"github.com/hpcwl/hpcwl/builtin"
	"github.com/hpcwl/hpcwl/feedback"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/metrics"
	"github.com/hpcwl/hpcwl/platform"
	"github.com/hpcwl/hpcwl/predict"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/steady"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/spf13/cobra"
)

func init() { register(newSimulateCommand) }

// simulateOptions are the options of `hpcwl simulate`.
type simulateOptions struct {
	trace           traceFlags
	scheduler       string
	procsFactor     float64
	speed           float64
	predictor       string
	missPolicy      string
	estimateFactor  float64
	kill            bool
	everyEvent      bool
	missingEstimate string
	procsField      string
	semantics       string
	oversize        string
	tau             string
	warmUp          string
	coolDown        string
	warmUpJobs      int
	coolDownJobs    int
	ciLevel         float64
	outstandingOut  string
	jobsOut         string
	swfOut          string
	cycleOut        string
	by              string
	json            bool
	fb              feedbackFlags
	params          []string
	baseline        string
	partitions      string
	platform        string
}

func newSimulateCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts simulateOptions
	cmd := &cobra.Command{
		Use:   "simulate TRACE",
		Short: "Replay a log through a simulated machine and scheduler",
		Long: `Simulate replays a workload log on a machine of P identical processors under a
job scheduler and reports wait time, response time, slowdown, bounded slowdown,
utilization, makespan, throughput, queue length and the fraction of jobs
backfilled. Each job arrives at its recorded submit time (rigid replay), uses
its recorded processor count and runs its recorded runtime.

Schedulers: ` + schedulerList() + `.
A policy in any language runs as --scheduler exec:COMMAND: COMMAND (split at
white space, no shell) is started as a child process that speaks the
hpcwl-sched/1 protocol, JSON lines on its standard input and output
(docs/external-scheduler.md); --param values go to it in the handshake, except
timeout (default 30s), the longest wait for one answer.

Backfilling schedulers plan with runtime predictions: by default the users'
requested times (SWF field 9); --predictor perfect uses the actual runtimes,
--predictor constant:S a constant, and the history predictors learn from the
simulated runtimes of each user's earlier jobs. Parameters follow the name:
--predictor ruh:n=2,stat=mean or --predictor sbh:crit=E/P/X,search=bfs,depth=10
(criteria: sets of P processors, E estimate, X executable, or *, separated by
/); a bad parameter's error lists the valid ones with their ranges.
Predictors:
` + predictorList() + `
A job still running when its prediction is reached gets a new one
(--miss-policy; by default the predictor's own policy). The report judges the
predictions: mean absolute error and relative accuracy (min(P,R)/max(P,R)) of
the predictions on arrival, and of all predictions weighted by how long each
was in force from submission to termination. Jobs run their whole recorded runtime
even past their requested time unless --kill is given. Jobs without a
requested time get one from --missing-estimate.

--jobs writes one line per job with the columns of Batsim's jobs.csv, so that
evalys and other Batsim tools read it; --swf writes the log with the simulated
wait times. A FILE ending in .parquet gets the same table as Parquet (typed
columns, zstd; the input, its SHA-256 and the parameters in the file's
metadata; see docs/formats.md). Metrics are in seconds.

--replay feedback replays the log with user feedback instead: each user's jobs
are cut into sessions (--sessions) and a session (or batch) is submitted a
recorded think time after the work it depends on ends in the simulation
(--users madon: Madon's think-time replay; adjusted, distribution, fluid:
Zakay's user models). The scheduler replay starts every job its recorded wait
after arrival (a test oracle). See hpcwl evaluate for a side-by-side view.

Several schedulers (--scheduler fcfs,easy,conservative) simulate the log in
turn with the same options; their figures are printed side by side, and each
scheduler after the first is compared with the first job by job: the mean
difference of each job's wait, response, slowdown and bounded slowdown, with a
batch-means confidence interval over the differences in order of submission
(--ci-level), and how many jobs fare better or worse. The per-run outputs
(--jobs, --swf, --cycle, --outstanding), --baseline and --param take one
scheduler; hpcwl replicate compares schedulers over resampled variants and
hpcwl sweep runs grids.` + exitStatusHelp,
		Example: `  hpcwl simulate builtin:KTH-SP2 --scheduler easy
  hpcwl simulate builtin:KTH-SP2 --scheduler fcfs --jobs fcfs.csv --json
  hpcwl simulate SDSC-SP2-1998-4.2-cln.swf.gz --scheduler conservative --speed 2
  hpcwl simulate builtin:KTH-SP2 --scheduler sjbf --predictor perfect --by month
  hpcwl simulate builtin:KTH-SP2 --scheduler easy,conservative,sjbf --kill
  hpcwl simulate builtin:KTH-SP2 --scheduler exec:examples/schedulers/easy.py --kill
  hpcwl simulate KTH-SP2-1996-2.1-cln.swf.gz --scheduler pbas --param metric=resp --param switch=12h --baseline maui
  hpcwl simulate builtin:KTH-SP2 --replay feedback --users madon --sessions a60 --speed 0.5`,
		Args: exactArgs(1, "one TRACE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runSimulate(cmd.Context(), opts, args[0], stdout, stderr)
		}),
	}
	opts.trace.add(cmd)
	f := cmd.Flags()
	f.StringVar(&opts.scheduler, "scheduler", "easy", "scheduler: "+strings.Join(sched.Names(), ", ")+"; several, comma-separated, are run in turn and compared job by job with the first")
	f.Float64Var(&opts.procsFactor, "procs-factor", 1, "multiply the machine size by this factor")
	f.Float64Var(&opts.speed, "speed", 1, "node speed: runtimes and requested times are divided by it")
	f.StringVar(&opts.predictor, "predictor", "requested", "runtime predictions: NAME or NAME:KEY=VALUE,...; names: "+strings.Join(predict.Names(), ", "))
	f.StringVar(&opts.missPolicy, "miss-policy", "", "new prediction after a deadline miss: gradual, estimate-gradual, times10[:LIMIT] (default: the predictor's own)")
	f.Float64Var(&opts.estimateFactor, "estimate-factor", 0, "multiply predictions for planning (EASY with doubled estimates: 2); default 1, 2 for easy-x2")
	f.BoolVar(&opts.kill, "kill", false, "kill jobs at their requested time (default: let them finish)")
	f.BoolVar(&opts.everyEvent, "pass-every-event", false, "run the scheduler after every single event (as event-by-event simulators such as pyss do) instead of once per instant")
	f.StringVar(&opts.missingEstimate, "missing-estimate", "runtime", "requested time of jobs without one: runtime, max, or SECONDS")
	f.StringVar(&opts.oversize, "oversize", "drop", "jobs wider than the machine: drop (counted and reported), error, clamp")
	f.StringVar(&opts.procsField, "procs-field", "allocated", "processor count from SWF field 5 (allocated, else 8), 8 (requested, else 5), or the larger (max)")
	f.StringVar(&opts.semantics, "semantics", "hpcwl", "job rules: hpcwl, or pyss (pyss's conversion of records to jobs: runtime min(requested, runtime), plan max(requested, runtime), allocated processors, nothing dropped)")
	f.StringVar(&opts.tau, "tau", "10s", "bounded-slowdown threshold")
	positiveFlags(cmd, "tau", "estimate-factor", "speed", "procs-factor")
	f.StringVar(&opts.warmUp, "warmup", "0", "leave out jobs submitted this long after the first (e.g. 1w, 24h)")
	f.StringVar(&opts.coolDown, "cooldown", "0", "leave out jobs submitted this long before the last")
	f.IntVar(&opts.warmUpJobs, "warmup-jobs", 0, "leave out the first N jobs by submit time")
	f.IntVar(&opts.coolDownJobs, "cooldown-jobs", 0, "leave out the last N jobs by submit time")
	f.Float64Var(&opts.ciLevel, "ci-level", 0.95, "confidence level of the intervals of the mean wait and slowdowns (batch means); 0 for none")
	f.StringVar(&opts.outstandingOut, "outstanding", "", "write the weekly numbers of outstanding and waiting jobs, the saturation detector's input (CSV; Parquet if it ends in .parquet), to `FILE`")
	f.StringVar(&opts.jobsOut, "jobs", "", "write per-job results as Batsim jobs.csv to `FILE` (Parquet if it ends in .parquet)")
	f.StringVar(&opts.swfOut, "swf", "", "write the simulated schedule as a log to `FILE`: simulated submit (with feedback), wait and run times (Parquet if it ends in .parquet)")
	f.StringVar(&opts.cycleOut, "cycle", "", "write the weekly cycle of recorded and simulated submissions (CSV, 168 hourly rows; Parquet if it ends in .parquet) to `FILE`")
	f.StringVar(&opts.by, "by", "", "also print the figures per user or per month: user, month")
	f.BoolVar(&opts.json, "json", false, "print the summary as JSON")
	f.StringArrayVar(&opts.params, "param", nil, "set a parameter of the scheduler, `NAME=VALUE` (repeatable; e.g. flex slack=2, pbas switch=12h, pbas metric=resp)")
	f.StringVar(&opts.partitions, "partitions", "pool", "a log with several partitions (SWF field 16): pool them into one machine, or simulate each as a separate machine")
	f.StringVar(&opts.platform, "platform", "", "partition sizes and speeds: a YAML or JSON platform file, or a Slurm slurm.conf (implies --partitions separate)")
	f.StringVar(&opts.baseline, "baseline", "", "also simulate this scheduler and print the performance and stability gains over it (e.g. maui)")
	opts.fb.add(cmd, "rigid")
	return cmd
}

func predictorList() string {
	var b strings.Builder
	for _, n := range predict.Names() {
		b.WriteString("  " + n + ": " + predict.Describe(n))
		var keys []string
		for _, u := range predict.Usage(n) {
			k, _, _ := strings.Cut(u, " ")
			keys = append(keys, k)
		}
		if len(keys) > 0 {
			b.WriteString("; parameters " + strings.Join(keys, ", "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func schedulerList() string {
	var b []string
	for _, n := range sched.Names() {
		b = append(b, n+" ("+sched.Describe(n)+")")
	}
	return strings.Join(b, ", ")
}

// simulateParams records every parameter of a run.
type simulateParams struct {
	Scheduler string `json:"scheduler"`
	// SchedulerParams holds every parameter of the policy, the defaults
	// filled in for those not given with --param.
	SchedulerParams map[string]string `json:"scheduler_params,omitempty"`
	Procs           int               `json:"procs"`
	TraceProcs      int               `json:"trace_procs"`
	ProcsFactor     float64           `json:"procs_factor"`
	Speed           float64           `json:"speed"`
	Predictor       string            `json:"predictor"`
	MissPolicy      string            `json:"miss_policy"`
	EstimateFactor  float64           `json:"estimate_factor"`
	Kill            bool              `json:"kill_at_requested_time"`
	PassEveryEvent  bool              `json:"pass_every_event"`
	MissingEstimate string            `json:"missing_estimate"`
	ProcsField      string            `json:"procs_field"`
	Semantics       string            `json:"semantics"`
	Oversize        string            `json:"oversize"`
	Tau             int64             `json:"tau"`
	WarmUp          int64             `json:"warmup"`
	CoolDown        int64             `json:"cooldown"`
	WarmUpJobs      int               `json:"warmup_jobs"`
	CoolDownJobs    int               `json:"cooldown_jobs"`
	CILevel         float64           `json:"ci_level"`
}

// simulateInput describes the input log and what became of its jobs.
type simulateInput struct {
	Name            string `json:"name"`
	SHA256          string `json:"sha256"`
	Jobs            int    `json:"jobs"`
	Simulated       int    `json:"simulated"`
	Dropped         int    `json:"dropped"`
	DroppedOversize int    `json:"dropped_oversize"`
	Clamped         int    `json:"clamped"`
	EstimateFilled  int    `json:"estimate_filled"`
	Overruns        int    `json:"overruns"`
}

// simulateReport is the JSON form of `hpcwl simulate`.
type simulateReport struct {
	Version    string            `json:"hpcwl_version"`
	Input      simulateInput     `json:"input"`
	Parameters simulateParams    `json:"parameters"`
	Metrics    *metrics.Summary  `json:"metrics"`
	Events     int64             `json:"events"`
	Feedback   *feedback.Figures `json:"feedback,omitempty"`
	// Switching summarises an adaptive scheduler's decisions.
	Switching *sched.Switching `json:"switching,omitempty"`
	// Baseline and Gains compare the run with --baseline.
	Baseline string        `json:"baseline,omitempty"`
	Gains    *metrics.Gain `json:"gains,omitempty"`
	// Steady is the steady-state check of the run: offered load,
	// saturation, warm-up and drain.
	Steady *steady.Report `json:"steady_state"`
	// Platform describes the partitions simulated separately.
	Platform *platformReport `json:"platform,omitempty"`
}

// platformReport is the platform of a run with separate partitions.
type platformReport struct {
	Source string `json:"source"`
	*platform.Placement
}

// simulateRun holds everything a run produced.
type simulateRun struct {
	report simulateReport
	trace  *trace.Trace
	work   *sim.Workload
	res    *sim.Result
	fluid  string // the --fluid variant, for the output's header
	// metricsOptions made report.Metrics.
	metricsOptions metrics.Options
}

func runSimulate(ctx context.Context, opts simulateOptions, name string, stdout, stderr io.Writer) error {
	if names := schedulerNames(opts.scheduler); len(names) > 1 {
		return runSimulateMany(ctx, opts, names, name, stdout, stderr)
	}
	outs := []output{{"--jobs", opts.jobsOut}, {"--swf", opts.swfOut}, {"--cycle", opts.cycleOut}, {"--outstanding", opts.outstandingOut}}
	if err := checkOutputs([]string{name}, outs...); err != nil {
		return err
	}
	if os.Getenv("GOGC") == "" {
		// A run's large arrays (outcomes, metric vectors) hold no
		// pointers, so the collector marks them without scanning:
		// collecting at 10% heap growth instead of 100% costs little CPU
		// and keeps the peak memory near what is live (docs/performance.md,
		// "Simulation memory").
		defer debug.SetGCPercent(debug.SetGCPercent(gcPercent))
	}
	run, err := simulate(ctx, opts, name)
	if err != nil {
		return err
	}
	for _, w := range run.report.Steady.Warnings {
		fmt.Fprintf(stderr, "warning: %s: %s\n", name, w)
	}
	if opts.baseline != "" {
		bopts := opts
		bopts.scheduler, bopts.params, bopts.baseline = opts.baseline, nil, ""
		bopts.by = "month" // the gains need the monthly figures
		base, err := simulate(ctx, bopts, name)
		if err != nil {
			return fmt.Errorf("baseline %s: %w", opts.baseline, err)
		}
		g, err := metrics.Gains(run.report.Metrics, base.report.Metrics)
		if err != nil {
			return err
		}
		run.report.Baseline, run.report.Gains = strings.ToLower(opts.baseline), &g
	}
	if opts.jobsOut != "" {
		if err := writeTableOutput(opts.jobsOut, "batsim jobs.csv", stdout, func(w io.Writer) error {
			if isParquetName(opts.jobsOut) {
				return writeParquetTable(w, batsim.Rows(run.res, workloadName(name)), run.provenance())
			}
			return batsim.WriteJobs(w, run.res, workloadName(name))
		}); err != nil {
			return err
		}
	}
	if opts.swfOut != "" {
		out := simulatedTrace(run)
		write := stamped(out).WriteSWF
		if isParquetName(opts.swfOut) {
			write = func(w io.Writer) error { return stamped(out).WriteParquet(w, run.provenance()) }
		}
		if err := writeOutput(opts.swfOut, stdout, write); err != nil {
			return err
		}
	}
	if opts.cycleOut != "" {
		if err := writeTableOutput(opts.cycleOut, "weekly cycle csv", stdout, func(w io.Writer) error {
			if isParquetName(opts.cycleOut) {
				return writeParquetTable(w, weeklyCycle(run), run.provenance())
			}
			return writeCycleCSV(w, run)
		}); err != nil {
			return err
		}
	}
	if opts.outstandingOut != "" {
		if err := writeTableOutput(opts.outstandingOut, "weekly outstanding jobs csv", stdout, func(w io.Writer) error {
			if isParquetName(opts.outstandingOut) {
				return writeParquetTable(w, run.report.Steady.Weeks, run.provenance())
			}
			return writeWeeksCSV(w, run.report.Steady.Weeks)
		}); err != nil {
			return err
		}
	}
	run.res, run.trace, run.work = nil, nil, nil
	sw := summaryWriter(stdout, stderr, outs...)
	if opts.json {
		return writeJSON(sw, run.report)
	}
	return printSimulate(sw, &run.report, opts.by)
}

// simulate parses the options, loads the trace and runs the simulation.
func simulate(ctx context.Context, opts simulateOptions, name string) (*simulateRun, error) {
	params, err := parseParams(opts.params)
	if err != nil {
		return nil, usageError{err}
	}
	s, err := sched.NewWithOptions(opts.scheduler, sched.Options{EstimateFactor: opts.estimateFactor, Params: params, ExternalStderr: warnOut})
	if c, ok := s.(io.Closer); ok {
		defer c.Close() // ends an external scheduler's process
	}
	switch {
	case err != nil && sched.IsExternal(opts.scheduler):
		return nil, usageError{err}
	case err != nil && sched.Describe(opts.scheduler) != "":
		return nil, usageError{err} // a bad parameter
	case err != nil && !strings.EqualFold(opts.scheduler, "replay"):
		return nil, usageError{fmt.Errorf("%w, replay", err)}
	}
	fb, err := opts.fb.isFeedback()
	if err != nil {
		return nil, err
	}
	if _, err := opts.fb.options(); err != nil {
		return nil, err
	}
	var miss sim.MissPolicy // nil: the predictor's own
	if opts.missPolicy != "" {
		if miss, err = sim.ParseMissPolicy(opts.missPolicy); err != nil {
			return nil, usageError{err}
		}
	}
	if _, err := predict.New(opts.predictor, predict.Env{Trace: &trace.Trace{}, Miss: miss}); err != nil {
		return nil, usageError{err} // checked before the trace is read
	}
	fill, err := sim.ParseEstimateFallback(opts.missingEstimate)
	if err != nil {
		return nil, usageError{err}
	}
	over, err := sim.ParseOversize(opts.oversize)
	if err != nil {
		return nil, usageError{err}
	}
	field, err := sim.ParseProcsField(opts.procsField)
	if err != nil {
		return nil, usageError{err}
	}
	sem, err := sim.ParseSemantics(opts.semantics)
	if err != nil {
		return nil, usageError{err}
	}
	if sem == sim.SemanticsPyss && field != sim.ProcsAllocated {
		return nil, usagef("--semantics pyss takes the allocated processors (field 5); --procs-field %s does not apply", field)
	}
	if !(opts.speed > 0) || math.IsInf(opts.speed, 0) {
		return nil, usagef("--speed must be a positive number, got %v", opts.speed)
	}
	if !(opts.procsFactor > 0) || math.IsInf(opts.procsFactor, 0) {
		return nil, usagef("--procs-factor must be a positive number, got %v", opts.procsFactor)
	}
	var secs [3]sim.Time
	for i, d := range []struct{ flag, v string }{{"--tau", opts.tau}, {"--warmup", opts.warmUp}, {"--cooldown", opts.coolDown}} {
		if secs[i], err = parseSeconds(d.v); err != nil {
			return nil, usagef("%s: %v", d.flag, err)
		}
	}
	if opts.by != "" && opts.by != "user" && opts.by != "month" {
		return nil, usagef("unknown --by %q; valid: user, month", opts.by)
	}
	if opts.warmUpJobs < 0 || opts.coolDownJobs < 0 {
		return nil, usagef("--warmup-jobs and --cooldown-jobs must be 0 or more, got %d and %d", opts.warmUpJobs, opts.coolDownJobs)
	}
	if !(opts.ciLevel >= 0 && opts.ciLevel < 1) {
		return nil, usagef("--ci-level %v: give a level between 0 and 1 (e.g. 0.95), or 0 for no intervals", opts.ciLevel)
	}
	so := sim.Options{
		PrepareOptions: sim.PrepareOptions{
			Machine:         sim.Machine{ProcsFactor: opts.procsFactor, Speed: opts.speed},
			Oversize:        over,
			MissingEstimate: fill,
			ProcsField:      field,
			Semantics:       sem,
		},
		Kill:           opts.kill,
		PassEveryEvent: opts.everyEvent,
	}
	var (
		t         *trace.Trace
		total     int // jobs in the log
		pred      predict.Predictor
		plat      *platform.Platform
		placement *platform.Placement
		frun      *feedback.Run
	)
	if opts.streamable(name, fb, fill) {
		t, total, pred, frun, err = simulateStreamed(ctx, opts, name, s, miss, so)
		if errors.Is(err, errNoStream) { // load the log whole: a fresh scheduler
			if c, ok := s.(io.Closer); ok {
				c.Close()
			}
			s, err = sched.NewWithOptions(opts.scheduler, sched.Options{EstimateFactor: opts.estimateFactor, Params: params, ExternalStderr: warnOut})
			if c, ok := s.(io.Closer); ok {
				defer c.Close()
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if frun == nil {
		if t, pred, plat, placement, frun, err = simulateLoaded(ctx, opts, name, s, params, miss, field, fb, so); err != nil {
			return nil, err
		}
		total = t.Len()
	}
	res, w := frun.Result, frun.Workload
	if w.DroppedOversize > 0 && over == sim.OversizeDrop {
		fmt.Fprintf(warnOut, "warning: %s: %d jobs wider than the machine (%d processors) left out (--oversize)\n", name, w.DroppedOversize, w.Procs)
	}
	if len(res.Jobs) == 0 {
		return nil, fmt.Errorf("%s: no job to simulate: of %d jobs, %d lack a runtime, processor count or submit time and %d are wider than the machine (%d processors)",
			name, total, w.Dropped, w.DroppedOversize, w.Procs)
	}
	mopt := metrics.Options{Tau: secs[0], WarmUp: secs[1], CoolDown: secs[2], Clock: t.Clock(),
		WarmUpJobs: opts.warmUpJobs, CoolDownJobs: opts.coolDownJobs, CILevel: opts.ciLevel,
		NoGroups: !opts.json && opts.by == "" && opts.baseline == ""} // breakdowns only where shown or needed
	// The intervals are computed with the other figures: their
	// autocorrelation needs memory for its window, not for the run, so
	// deferring them (metrics.Options.DeferIntervals) would only add the
	// 16 bytes per job it keeps.
	m, err := metrics.Compute(res, mopt)
	if err != nil {
		return nil, usageError{err}
	}
	ef := opts.estimateFactor
	if ef == 0 {
		ef = 1
		if strings.EqualFold(opts.scheduler, "easy-x2") {
			ef = 2
		}
	}
	rep := simulateReport{
		Version: version.String(),
		Input: simulateInput{Name: name, SHA256: t.SHA256, Jobs: total, Simulated: len(res.Jobs),
			Dropped: w.Dropped, DroppedOversize: w.DroppedOversize, Clamped: w.Clamped,
			EstimateFilled: w.EstimateFilled, Overruns: w.Overruns},
		Parameters: simulateParams{
			Scheduler: schedulerLabel(opts.scheduler), SchedulerParams: schedulerParams(opts.scheduler, params),
			Procs: w.Procs, TraceProcs: t.Procs,
			ProcsFactor: opts.procsFactor, Speed: opts.speed, Predictor: pred.Spec(),
			MissPolicy: pred.MissPolicy().String(), EstimateFactor: ef, Kill: opts.kill, PassEveryEvent: opts.everyEvent, MissingEstimate: fill.String(),
			ProcsField: field.String(), Semantics: sem.String(),
			Oversize: over.String(), Tau: int64(m.Tau), WarmUp: int64(secs[1]), CoolDown: int64(secs[2]),
			WarmUpJobs: opts.warmUpJobs, CoolDownJobs: opts.coolDownJobs, CILevel: opts.ciLevel,
		},
		Metrics: m,
		Events:  res.Events,
		Steady:  steady.Analyze(res),
	}
	if placement != nil {
		rep.Platform = &platformReport{Source: plat.Source, Placement: placement}
	}
	if fb {
		rep.Feedback = feedback.FiguresOf(frun)
	}
	if a, ok := s.(interface {
		Switching(sim.Time) sched.Switching
	}); ok && len(res.Jobs) > 0 {
		sw := a.Switching(m.Makespan + res.Jobs[0].Submit)
		rep.Switching = &sw
	}
	return &simulateRun{report: rep, trace: t, work: w, res: res, fluid: opts.fb.fluid, metricsOptions: mopt}, nil
}

// parseSeconds reads a duration as parseSpan does ("90", "90s", "20m",
// "1.5h", "2d", "1w", "5y"), or in Go's compound form ("1h30m"), in whole
// seconds.
func parseSeconds(s string) (sim.Time, error) {
	n, err := parseSpan(s)
	if err == nil {
		return sim.Time(n), nil
	}
	if d, derr := time.ParseDuration(strings.TrimSpace(s)); derr == nil && d >= 0 {
		return sim.Time(d.Round(time.Second) / time.Second), nil
	}
	return 0, err
}

func workloadName(name string) string {
	base := strings.TrimPrefix(filepath.Base(name), "builtin:")
	for _, ext := range []string{".gz", ".swf"} {
		base = strings.TrimSuffix(base, ext)
	}
	if base == "" || base == "-" {
		return "w0"
	}
	return base
}

func printSimulate(w io.Writer, r *simulateReport, by string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format+"\n", a...) }
	in, par, m := r.Input, r.Parameters, r.Metrics
	p("trace\t%s: %d jobs, %d simulated", in.Name, in.Jobs, in.Simulated)
	if n := in.Dropped + in.DroppedOversize + in.Clamped + in.EstimateFilled; n > 0 {
		p("\tdropped %d without runtime or size, %d too wide; clamped %d; requested time filled in for %d (%s)",
			in.Dropped, in.DroppedOversize, in.Clamped, in.EstimateFilled, par.MissingEstimate)
	}
	p("machine\t%d processors, speed %v", par.Procs, par.Speed)
	if pl := r.Platform; pl != nil {
		for _, q := range pl.Runs {
			name := ""
			if q.Name != "" {
				name = " (" + q.Name + ")"
			}
			p("\tpartition %d%s: %d processors (from the %s), speed %v; %d jobs, %d simulated", q.ID, name, q.Procs, q.SizeFrom, q.Speed, q.Jobs, q.Simulated)
		}
		if pl.Unplaced > 0 {
			p("\t%d jobs of partitions %s lacks left out", pl.Unplaced, pl.Source)
		}
	}
	kill := "jobs run past their requested time"
	if par.Kill {
		kill = "jobs killed at their requested time"
	}
	sched := par.Scheduler
	if len(par.SchedulerParams) > 0 {
		var kv []string
		for _, k := range slices.Sorted(maps.Keys(par.SchedulerParams)) {
			kv = append(kv, k+"="+par.SchedulerParams[k])
		}
		sched += " (" + strings.Join(kv, ", ") + ")"
	}
	p("scheduler\t%s; predictor %s, misses %s, estimate factor %v; %s", sched, par.Predictor, par.MissPolicy, par.EstimateFactor, kill)
	if m.Excluded > 0 {
		p("measured\t%d jobs (%d left out by warm-up/cool-down)", m.Jobs, m.Excluded)
	}
	p("")
	ciHead := ""
	if m.CI != nil {
		ciHead = fmt.Sprintf("\t%g%% CI of mean", 100*par.CILevel)
	}
	p("\tmean%s\tmedian\tp95\tmax", ciHead)
	row := func(name string, s metrics.Stat, ci *metrics.Interval, secs bool) {
		f := func(x float64) string {
			if secs {
				return durationText(x)
			}
			return strconv.FormatFloat(x, 'f', 2, 64)
		}
		c := ""
		switch {
		case m.CI == nil:
		case ci == nil:
			c = "\t-"
		case ci.Note != "":
			c = "\tn/a (run too short)"
		default:
			c = "\t" + f(ci.Low) + " .. " + f(ci.High)
		}
		p("%s\t%s%s\t%s\t%s\t%s", name, f(s.Mean), c, f(s.Median), f(s.P95), f(s.Max))
	}
	var ciw, cis, cib *metrics.Interval
	if m.CI != nil {
		ciw, cis, cib = &m.CI.Wait, &m.CI.Slowdown, &m.CI.BoundedSlowdown
	}
	row("wait", m.Wait, ciw, true)
	row("response", m.Response, nil, true)
	row("slowdown", m.Slowdown, cis, false)
	row(fmt.Sprintf("bounded slowdown (%ds)", m.Tau), m.BoundedSlowdown, cib, false)
	if m.CI != nil {
		w := &m.CI.Wait
		p("\t(intervals by batch means: waits in batches of %d jobs, %d batches, autocorrelation time %.1f jobs; median: the lower median)", w.BatchSize, w.Batches, w.Tau)
		var raised []string
		for _, c := range []struct {
			name string
			ci   *metrics.Interval
		}{{"wait", ciw}, {"slowdown", cis}, {"bounded slowdown", cib}} {
			if c.ci.LowRaised {
				raised = append(raised, c.name)
			}
		}
		if len(raised) > 0 {
			p("\t(lower end raised to the least possible value, 0 s or 1, where the interval reached below it: %s)", strings.Join(raised, ", "))
		}
	}
	if m.ZeroRuntime > 0 {
		p("\t(%d jobs of zero runtime: slowdown max(1, wait/1 s))", m.ZeroRuntime)
	}
	p("")
	p("makespan\t%.2f days (%d s)", float64(m.Makespan)/86400, m.Makespan)
	p("utilization\t%.1f%%", 100*m.Utilization)
	p("throughput\t%.1f jobs/week", m.Throughput)
	p("queue length\tmean %.1f, max %d", m.QueueMean, m.QueueMax)
	p("backfilled\t%.1f%% of jobs", 100*m.Backfilled)
	p("overruns\t%d jobs past their requested time; %d killed; %d deadline misses", in.Overruns, m.Killed, m.Misses)
	if a := m.Accuracy; a.Jobs > 0 {
		p("predictions\ton arrival: mean absolute error %s, relative accuracy %.3f, %.1f%% exact", durationText(a.InitialAbsError), a.InitialRelAccuracy, 100*a.Exact)
		if a.TimeWeighted {
			p("\ttime-weighted over each job's life: mean absolute error %s, relative accuracy %.3f", durationText(a.AbsError), a.RelAccuracy)
		}
	}
	if f := r.Feedback; f != nil {
		printFeedbackLines(p, f)
	}
	if sw := r.Switching; sw != nil {
		p("switching\t%s", sw)
	}
	if g := r.Gains; g != nil {
		p("gains over %s\tperformance %+.1f%% (mean wait %s vs %s), stability %+.1f%% (SD of %d monthly mean waits %s vs %s)",
			r.Baseline, 100*g.Performance, durationText(g.MeanWait), durationText(g.BaseMeanWait),
			100*g.Stability, g.Months, durationText(g.MonthlySD), durationText(g.BaseMonthlySD))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if by == "" {
		return nil
	}
	gs, title := m.PerUser, "user"
	if by == "month" {
		gs, title = m.PerMonth, "month"
	}
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\n%s\tjobs\tmean wait\tmax wait\tmean bsld\t\n", title)
	for _, g := range gs {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%.2f\t\n", g.Key, g.Jobs, durationText(g.Wait.Mean), durationText(g.Wait.Max), g.BoundedSlowdown.Mean)
	}
	return tw.Flush()
}

// durationText formats seconds compactly: "42s", "13.5m", "2.40h", "4.07d".
func durationText(s float64) string {
	switch {
	case s < 60:
		return strconv.FormatFloat(s, 'f', 0, 64) + "s"
	case s < 3600:
		return strconv.FormatFloat(s/60, 'f', 1, 64) + "m"
	case s < 86400:
		return strconv.FormatFloat(s/3600, 'f', 2, 64) + "h"
	}
	return strconv.FormatFloat(s/86400, 'f', 2, 64) + "d"
}

// provenance returns the key-value metadata of the run's Parquet outputs:
// the input log and its SHA-256, the parameters as JSON.
func (run *simulateRun) provenance() map[string]string {
	return provenance(run.report.Input.Name, run.report.Input.SHA256,
		map[string]string{"hpcwl.parameters": jsonText(run.report.Parameters)})
}

// simulatedTrace returns the simulated jobs as a trace: the input's jobs
// with the simulated wait times (and, with a node speed or killing, the
// simulated runtimes and requested times), in submit order, with a header
// note saying how it was made.
func simulatedTrace(run *simulateRun) *trace.Trace {
	in := run.trace
	jobs := make([]trace.Job, 0, len(run.res.Jobs))
	for i := range run.res.Jobs {
		o := &run.res.Jobs[i]
		if o.Start < 0 {
			continue
		}
		j := in.Jobs[o.Index]
		// The simulated schedule: with feedback the submit time is the
		// simulated one, not the log's.
		j.Submit = int64(o.Submit)
		j.Wait = int64(o.Wait())
		j.Runtime = int64(o.Ran())
		j.ReqTime = int64(o.Estimate)
		if j.Procs > 0 {
			j.Procs = o.Procs
		}
		if j.ReqProcs > 0 {
			j.ReqProcs = o.Procs
		}
		if o.Killed {
			j.Status = 0
		}
		jobs = append(jobs, j)
	}
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].Submit < jobs[b].Submit })
	h := in.Header.Clone()
	par := run.report.Parameters
	if par.Procs != in.Procs {
		h.Set("MaxProcs", strconv.Itoa(par.Procs))
	}
	what, replay := "wait times", ""
	if f := run.report.Feedback; f != nil {
		what = "submit times (feedback), wait times and runtimes"
		replay = fmt.Sprintf(" --replay feedback --users %s --sessions %s --reduction %s --fluid %s --seed %d",
			f.Users, f.Sessions, f.Reduction, run.fluid, f.Seed)
		if f.StartRule != "" {
			replay += " --start-rule " + f.StartRule
		}
	}
	var sp strings.Builder
	for _, k := range slices.Sorted(maps.Keys(par.SchedulerParams)) {
		fmt.Fprintf(&sp, " --param %s=%s", k, par.SchedulerParams[k])
	}
	h.AddNote(fmt.Sprintf("%s simulated by hpcwl %s: hpcwl simulate %s --scheduler %s%s --procs %d --speed %v --predictor %s --miss-policy %s --estimate-factor %v --kill=%v --pass-every-event=%v --missing-estimate %s --procs-field %s --semantics %s --oversize %s%s",
		what, run.report.Version, run.report.Input.Name, par.Scheduler, sp.String(), par.Procs, par.Speed, par.Predictor, par.MissPolicy,
		par.EstimateFactor, par.Kill, par.PassEveryEvent, par.MissingEstimate, par.ProcsField, par.Semantics, par.Oversize, replay))
	return trace.New(h, jobs, trace.Options{Procs: par.Procs})
}

// cycleHour is one hour of the week in `simulate --cycle`: the mean number
// of jobs submitted in it per week, recorded and simulated; the struct tags
// give the Parquet schema.
type cycleHour struct {
	HourOfWeek int32   `parquet:"hour_of_week"`
	Day        string  `parquet:"day,dict"`
	Hour       int32   `parquet:"hour"`
	Recorded   float64 `parquet:"recorded_jobs_per_week"`
	Simulated  float64 `parquet:"simulated_jobs_per_week"`
}

// weeklyCycle returns the 168 hours of the week, Monday 0h first, in the
// log's local time.
func weeklyCycle(run *simulateRun) []cycleHour {
	rec := make([]sim.Time, 0, len(run.res.Jobs))
	simd := make([]sim.Time, 0, len(run.res.Jobs))
	for i := range run.res.Jobs {
		o := &run.res.Jobs[i]
		rec = append(rec, sim.Time(run.trace.Jobs[o.Index].Submit))
		simd = append(simd, o.Submit)
	}
	c := run.trace.Clock()
	cr, cs := feedback.WeeklyCycle(c, rec), feedback.WeeklyCycle(c, simd)
	days := []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}
	rows := make([]cycleHour, len(cr))
	for h := range cr {
		rows[h] = cycleHour{HourOfWeek: int32(h), Day: days[h/24], Hour: int32(h % 24), Recorded: cr[h], Simulated: cs[h]}
	}
	return rows
}

// writeCycleCSV writes the weekly cycles of the log's and the run's
// submissions: one row per hour of the week (0 = Monday 00:00 local time),
// in jobs per week of each one's submission period.
func writeCycleCSV(w io.Writer, run *simulateRun) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"hour_of_week", "day", "hour", "recorded_jobs_per_week", "simulated_jobs_per_week"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }
	for _, r := range weeklyCycle(run) {
		cw.Write([]string{strconv.Itoa(int(r.HourOfWeek)), r.Day, strconv.Itoa(int(r.Hour)), f(r.Recorded), f(r.Simulated)})
	}
	cw.Flush()
	return cw.Error()
}

// schedulerLabel is the scheduler's name as outputs record it: lower case,
// but an external scheduler's command as given.
func schedulerLabel(name string) string {
	if sched.IsExternal(name) {
		return name
	}
	return strings.ToLower(name)
}

// writeWeeksCSV writes the weekly numbers of outstanding and waiting jobs
// of a run (see steady.WeekCount).
func writeWeeksCSV(w io.Writer, weeks []steady.WeekCount) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"week", "start", "outstanding", "waiting"})
	for _, k := range weeks {
		cw.Write([]string{strconv.Itoa(k.Week), strconv.FormatInt(k.Start, 10), strconv.FormatInt(k.Outstanding, 10), strconv.FormatInt(k.Waiting, 10)})
	}
	cw.Flush()
	return cw.Error()
}

// schedulerParams returns every declared parameter of the named policy:
// the value given, else the default.
func schedulerParams(name string, given map[string]string) map[string]string {
	if sched.IsExternal(name) {
		return given
	}
	ps := sched.Params(name)
	if len(ps) == 0 {
		return nil
	}
	out := make(map[string]string, len(ps))
	for _, p := range ps {
		out[p.Name] = p.Default
		if v, ok := given[p.Name]; ok {
			out[p.Name] = v
		}
	}
	return out
}

// parseParams reads --param NAME=VALUE flags.
func parseParams(ps []string) (map[string]string, error) {
	if len(ps) == 0 {
		return nil, nil
	}
	m := map[string]string{}
	for _, p := range ps {
		k, v, ok := strings.Cut(p, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("--param %q: want NAME=VALUE", p)
		}
		m[strings.TrimSpace(k)] = v
	}
	return m, nil
}

// choosePlatform returns the platform to simulate partition by partition,
// or nil to pool the log into one machine. A log with several partitions is
// pooled only with a warning.
func (o *simulateOptions) choosePlatform(t *trace.Trace, field sim.ProcsField, fb bool) (*platform.Platform, error) {
	mode := strings.ToLower(o.partitions)
	if mode != "pool" && mode != "separate" {
		return nil, usagef("unknown --partitions %q; valid: pool, separate", o.partitions)
	}
	if o.platform != "" {
		mode = "separate"
	}
	if mode == "pool" {
		var ids []int
		for id := range platform.Partitions(t) {
			if id >= 0 {
				ids = append(ids, id)
			}
		}
		if len(ids) > 1 {
			fmt.Fprintf(warnOut, "warning: %s: jobs of %d partitions pooled into one machine of %d processors (--partitions separate simulates each on its own)\n",
				t.Name, len(ids), t.Procs)
		}
		return nil, nil
	}
	switch {
	case fb:
		return nil, usagef("--partitions separate simulates rigid replays only: users' sessions span partitions, and feedback across separate machines is not modelled")
	case strings.EqualFold(o.scheduler, "replay"):
		return nil, usagef("--partitions separate does not apply to the replay scheduler")
	case o.trace.procs > 0:
		return nil, usagef("--procs sizes one pooled machine; with separate partitions give the sizes in --platform")
	case o.baseline != "":
		return nil, usagef("--baseline is not available with separate partitions")
	}
	if o.platform == "" {
		p, err := platform.FromTrace(t, field.Processors)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(warnOut, "warning: %s: partition sizes are those of the largest job in each (the log gives no more); a --platform file can give them\n", t.Name)
		return p, nil
	}
	f, err := os.Open(o.platform)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := platform.Read(f, o.platform)
	if err != nil {
		return nil, err
	}
	if err := p.Renumber(platform.HeaderNames(t)); err != nil {
		return nil, fmt.Errorf("%s: %w", o.platform, err)
	}
	sum := sha256.New()
	if _, err := f.Seek(0, io.SeekStart); err == nil {
		io.Copy(sum, f)
		runInputs = append(runInputs, inputRecord{Name: o.platform, SHA256: hex.EncodeToString(sum.Sum(nil))})
	}
	return p, nil
}

// simulateLoaded loads the whole log and simulates it: rigidly, with
// feedback, or partition by partition.
func simulateLoaded(ctx context.Context, opts simulateOptions, name string, s sim.Scheduler, params map[string]string, miss sim.MissPolicy,
	field sim.ProcsField, fb bool, so sim.Options) (*trace.Trace, predict.Predictor, *platform.Platform, *platform.Placement, *feedback.Run, error) {
	t, err := opts.trace.load(name)
	if err != nil {
		return nil, nil, nil, nil, nil, err
	}
	if s == nil {
		s = sched.NewReplay(sched.RecordedWaits(t))
	}
	pred, err := predict.New(opts.predictor, predict.Env{Trace: t, Miss: miss})
	if err != nil {
		return nil, nil, nil, nil, nil, usageError{err}
	}
	plat, err := opts.choosePlatform(t, field, fb)
	if err != nil {
		return nil, nil, nil, nil, nil, err
	}
	so.Predictor = pred
	if plat != nil {
		so.RecordPredictions = true // the partitions' logs are merged whole
	} else {
		so.RecordRevisions = true // each job's arrival prediction is its Initial
	}
	if !opts.json {
		so.Progress = newJobBar(warnOut, t.Len(), "jobs")
	}
	var placement *platform.Placement
	var frun *feedback.Run
	if plat != nil {
		var res *sim.Result
		var w *sim.Workload
		res, w, placement, err = platform.Simulate(ctx, t, plat, platform.Options{Options: so,
			NewScheduler: func() (sim.Scheduler, error) {
				return sched.NewWithOptions(opts.scheduler, sched.Options{EstimateFactor: opts.estimateFactor, Params: params, ExternalStderr: warnOut})
			},
			NewPredictor: func(part *trace.Trace) (sim.Predictor, error) {
				return predict.New(opts.predictor, predict.Env{Trace: part, Miss: miss})
			},
		})
		if err == nil {
			frun = &feedback.Run{Result: res, Workload: w, Trace: t}
			if placement.Unplaced > 0 {
				fmt.Fprintf(warnOut, "warning: %s: %d jobs of partitions the platform lacks left out\n", name, placement.Unplaced)
			}
		}
	} else {
		frun, err = opts.fb.run(ctx, t, s, so, fb)
	}
	var oe *sim.OversizeError
	if errors.As(err, &oe) {
		return nil, nil, nil, nil, nil, fmt.Errorf("%s: job %d needs %d processors but the machine has %d; pass --oversize drop or --oversize clamp, or a larger --procs",
			name, oe.JobID, oe.Procs, oe.Machine)
	}
	if err != nil {
		return nil, nil, nil, nil, nil, err
	}
	return t, pred, plat, placement, frun, nil
}

// gcPercent is the garbage collector's target heap growth during a
// simulation (GOGC, when set, wins).
const gcPercent = 10

// streamLogs lets a run read its log as the simulation goes where it can
// (tests turn it off to compare with the whole log loaded).
var streamLogs = true

// errNoStream says that a log could not be simulated as it is read; the
// run loads it whole instead, which also reports its errors.
var errNoStream = errors.New("log not streamed")

// streamable reports whether the run can read its log as the simulation
// goes: a rigid replay of one SWF file (not standard input, which could
// not be read again) on one machine, with no output that needs the log's
// records, a scheduler and predictor that do not look at them, and no
// requested times filled in from the whole log.
func (o *simulateOptions) streamable(name string, fb bool, fill sim.EstimateFallback) bool {
	return streamLogs && !fb && o.swfOut == "" && o.cycleOut == "" && o.platform == "" &&
		strings.EqualFold(o.partitions, "pool") && fill.Kind != "max" && o.trace.procs >= 0 &&
		!strings.EqualFold(o.scheduler, "replay") && !sched.IsExternal(o.scheduler) &&
		!strings.HasPrefix(strings.ToLower(o.predictor), "sbh") &&
		name != "-" && !builtin.Is(name) && inputFormat(name) == formatSWF
}

// simulateStreamed runs the rigid replay of the log name read as simulated
// time reaches each job ([sim.Stream]): the run keeps no record of the
// log, only the simulated jobs. The warnings about the log come after the
// run. It returns errNoStream, having simulated nothing or in vain, when
// the log is not in submit order, cannot be read or prepared, or has no
// job to simulate: the whole-log path then does (or fails) the same. The
// trace returned holds the header, SHA-256 and size of the log, and as
// no jobs; the number of records comes second.
func simulateStreamed(ctx context.Context, opts simulateOptions, name string, s sim.Scheduler, miss sim.MissPolicy,
	so sim.Options) (*trace.Trace, int, predict.Predictor, *feedback.Run, error) {
	sc, err := trace.OpenScanner(name, trace.Options{Procs: opts.trace.procs, Lenient: reading.lenient})
	if err != nil {
		return nil, 0, nil, nil, errNoStream
	}
	defer sc.Close()
	parts := map[int32]bool{}
	sc.Seen = func(j *trace.Job) { parts[j.Partition] = true }
	st, err := sim.NewStream(sc, so.PrepareOptions)
	if err != nil {
		return nil, 0, nil, nil, errNoStream
	}
	pred, err := predict.New(opts.predictor, predict.Env{Trace: &trace.Trace{}, Miss: miss})
	if err != nil {
		return nil, 0, nil, nil, usageError{err}
	}
	hint, _ := sc.Header().MaxRecords()
	hint = min(max(hint, 0), 50_000_000)
	cfg := sim.Config{Procs: st.Workload().Procs, Predictor: pred, Kill: so.Kill, SizeHint: int(hint),
		RecordRevisions: true, PassEveryEvent: so.PassEveryEvent}
	if !opts.json {
		n := int(hint)
		if n <= 0 {
			n = -1 // unknown: a spinner
		}
		cfg.Progress = newJobBar(warnOut, n, "jobs")
	}
	res, err := sim.Run(ctx, st, s, cfg)
	if st.Err() != nil || (err == nil && len(res.Jobs) == 0) {
		return nil, 0, nil, nil, errNoStream
	}
	if err != nil {
		return nil, 0, nil, nil, err
	}
	t := &trace.Trace{Name: name, Header: *sc.Header(), Procs: sc.Procs(), SHA256: sc.SHA256(), Oddities: sc.Oddities()}
	if t.Oddities.Any() {
		t.Header.AddNote("on reading: " + t.Oddities.String())
	}
	recordInput(t)
	if t.Oddities.Any() {
		fmt.Fprintf(warnOut, "warning: %s: %s\n", name, t.Oddities.String())
	}
	for _, w := range sc.Warnings() {
		fmt.Fprintf(warnOut, "warning: %s\n", w)
	}
	var ids int
	for id := range parts {
		if id >= 0 {
			ids++
		}
	}
	if ids > 1 {
		fmt.Fprintf(warnOut, "warning: %s: jobs of %d partitions pooled into one machine of %d processors (--partitions separate simulates each on its own)\n",
			t.Name, ids, t.Procs)
	}
	return t, sc.Len(), pred, &feedback.Run{Result: res, Workload: st.Workload(), Trace: t}, nil
}
