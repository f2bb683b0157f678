package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hpcwl/hpcwl/feedback"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/metrics"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/steady"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/spf13/cobra"
)

func init() { register(newEvaluateCommand) }

// feedbackFlags choose between rigid and feedback replay and configure the
// users; `hpcwl simulate` and `hpcwl evaluate` share them.
type feedbackFlags struct {
	replay    string
	users     string
	sessions  string
	reduction string
	fluid     string
	startRule string
	seed      uint64
}

func (f *feedbackFlags) add(cmd *cobra.Command, replay string) {
	fl := cmd.Flags()
	if replay != "" {
		fl.StringVar(&f.replay, "replay", replay, "rigid (recorded arrivals) or feedback (users react to the schedule)")
	}
	fl.StringVar(&f.users, "users", "madon", "user model of feedback replay: madon, adjusted, distribution, fluid")
	fl.StringVar(&f.sessions, "sessions", "", "session partitioning: a0, a60, arrival:60m, interarrival:30m, ... (default a60 for madon, arrival:60m otherwise)")
	fl.StringVar(&f.reduction, "reduction", "transitive", "dependency edges kept: transitive, full, recent")
	fl.StringVar(&f.fluid, "fluid", "v1", "Fluid model variant: v1 (recycle windows; Zakay's model for replay with feedback, thesis ch. 4, the default here) or v2 (reinsert skipped windows; ch. 5, the default of replicate's TBUOS)")
	fl.StringVar(&f.startRule, "start-rule", "max", "madon: when a session with several predecessors starts: max (the latest predecessor end plus that edge's think time) or last (the predecessor that finished last, plus its think time)")
	fl.Uint64Var(&f.seed, "seed", 1, "seed of the distribution and fluid user models")
}

// options parses the flags into feedback options.
func (f *feedbackFlags) options() (feedback.Options, error) {
	var o feedback.Options
	var err error
	if o.Model, err = feedback.ParseModel(f.users); err != nil {
		return o, usagef("--users: %v", err)
	}
	if f.sessions != "" {
		if o.Sessions, err = session.ParseSpec(f.sessions); err != nil {
			return o, usagef("--sessions: %v", err)
		}
		o.SessionsSet = true
	}
	if o.Reduction, err = session.ParseReduction(f.reduction); err != nil {
		return o, usagef("--reduction: %v", err)
	}
	if o.StartRule, err = feedback.ParseStartRule(f.startRule); err != nil {
		return o, usagef("--start-rule: %v", err)
	}
	switch strings.ToLower(f.fluid) {
	case "v1", "1", "":
	case "v2", "2":
		o.Fluid = feedback.FluidV2
	default:
		return o, usagef("unknown --fluid %q; valid: v1, v2", f.fluid)
	}
	o.Seed = f.seed
	return o, nil
}

// isFeedback reports whether --replay asks for feedback.
func (f *feedbackFlags) isFeedback() (bool, error) {
	switch strings.ToLower(f.replay) {
	case "rigid", "":
		return false, nil
	case "feedback", "fb":
		return true, nil
	}
	return false, usagef("unknown --replay %q; valid: rigid, feedback", f.replay)
}

// replayRun runs t rigidly or with feedback per f.
func (f *feedbackFlags) run(ctx context.Context, t *trace.Trace, s sim.Scheduler, so sim.Options, fb bool) (*feedback.Run, error) {
	if !fb {
		return feedback.Rigid(ctx, t, s, so)
	}
	fo, err := f.options()
	if err != nil {
		return nil, err
	}
	return feedback.Simulate(ctx, t, s, so, fo)
}

// newScheduler builds a scheduler by name; "replay" (the test oracle that
// starts every job its recorded wait after arrival) needs the trace.
func newScheduler(name string, o sched.Options, t *trace.Trace) (sim.Scheduler, error) {
	if strings.EqualFold(name, "replay") {
		return sched.NewReplay(sched.RecordedWaits(t)), nil
	}
	o.ExternalStderr = warnOut
	s, err := sched.NewWithOptions(name, o)
	if err != nil && (sched.IsExternal(name) || sched.Describe(name) != "") {
		return nil, usageError{err} // a bad command or parameter
	}
	if err != nil {
		return nil, usageError{fmt.Errorf("%w, replay", err)}
	}
	return s, nil
}

// printFeedbackLines prints the feedback figures as table lines.
func printFeedbackLines(p func(string, ...any), f *feedback.Figures) {
	p("feedback\t%s users, sessions %s, %s reduction%s; %d jobs rejected", f.Users, f.Sessions, f.Reduction, startRuleText(f), f.Rejected)
	l := &f.Lateness
	p("lateness\tmean %.2f days, relative %.3f, additional %.2f s", l.Mean/86400, l.Relative, l.Additional)
	a := &f.Activity
	p("user activity\tmedian %.2f days (recorded %.2f); median throughput %.1f jobs/week (recorded %.1f)",
		a.Length.P50/86400, a.RecordedLength.P50/86400, a.Throughput, a.RecordedThroughput)
	p("weekly cycle\t%.1f%% of submissions on weekdays 8-18h (recorded %.1f%%); distance %.3f",
		100*f.DayShare, 100*f.RecordedDayShare, f.CycleDistance)
}

// evaluateVersus compares the feedback replay with a second one under
// another session partitioning: the distribution of each job's submit
// time in the first minus in the second, in seconds.
type evaluateVersus struct {
	Sessions    string       `json:"sessions"`
	Differences session.Dist `json:"submit_differences_s"`
}

// startRuleText names a non-default start rule of Madon's replay.
func startRuleText(f *feedback.Figures) string {
	if f.StartRule == "" || f.StartRule == feedback.MaxOverEdges.String() {
		return ""
	}
	return ", start rule " + f.StartRule
}

// evaluateOptions are the options of `hpcwl evaluate`.
type evaluateOptions struct {
	trace          traceFlags
	fb             feedbackFlags
	scheduler      string
	procsFactor    float64
	speed          float64
	estimateFactor float64
	oversize       string
	kill           bool
	jobsOut        string
	json           bool
	prefix         string
	by             string
	perUserOut     string
	versus         string
	diffOut        string
	curveOut       string
	curveStep      string
	params         []string
}

func newEvaluateCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts evaluateOptions
	cmd := &cobra.Command{
		Use:   "evaluate TRACE",
		Short: "Compare rigid and feedback replay of a log under a change",
		Long: `Evaluate answers a scheduler researcher's first question - what happens to
this workload if the machine or the scheduler changes? - twice: once by rigid
replay (every job arrives at its recorded time, the usual method) and once by
replay with feedback (users submit their next work a recorded think time after
the work it depends on finishes in the simulation; Madon et al. 2024, Zakay &
Feitelson). It prints one table: the recorded log, the rigid replay and the
feedback replay side by side, with makespan, waits, slowdowns, utilization,
throughput and the lateness of submissions (Madon's mean, relative and
additional lateness).

A change is any of --scheduler, --procs-factor and --speed. Without one, the
change is halving the node speed (--speed 0.5, Madon's perf/2): a rigid replay
then piles up weeks of waits because users keep submitting at the recorded
pace, while with feedback they slow down.

Jobs wider than the changed machine are rejected (--oversize drop; a rejected
job counts as finished on arrival for the work that depends on it). A log
without user IDs cannot do feedback; use hpcwl simulate for rigid replay.

--jobs writes one line per job: recorded, rigid and feedback submit, start and
end times. --curve writes the submission and termination curves (Madon's
Figs. 2 and 3): per --curve-step of simulated time (default a day), the
submissions and terminations of the recorded log and of both runs and their
running totals.

--by user lists each user's lateness in the feedback replay (jobs, mean,
relative and additional lateness: Madon's Figs. 4 and 5) and --per-user FILE
writes it as a table. --versus SPEC replays with feedback a second time under
another session partitioning (e.g. a0 against the default a60) and reports the
distribution of the differences of each job's submit times, this replay minus
that one (Madon's Fig. 7); --diff FILE writes them per job. --start-rule
chooses when a session with several predecessors starts; --kill kills jobs
at their requested time in both replays.

--prefix replays only the start of the log: a bare number is the first N jobs
by submission time (Madon's Fig. 11 reruns each experiment on growing
prefixes to see whether the additional lateness settles), a duration with a
unit (90d, 26w) the jobs submitted that long after the first one.` + exitStatusHelp,
		Example: `  hpcwl evaluate builtin:KTH-SP2
  hpcwl evaluate builtin:KTH-SP2 --scheduler fcfs
  hpcwl evaluate builtin:KTH-SP2 --procs-factor 0.5 --sessions a0
  hpcwl evaluate SDSC-SP2-1998-4.2-cln.swf.gz --speed 2 --users fluid --json
  hpcwl evaluate builtin:KTH-SP2 --jobs kth-perf2.csv
  hpcwl evaluate builtin:KTH-SP2 --curve kth-perf2-curve.csv
  hpcwl evaluate builtin:KTH-SP2 --prefix 10000 --json
  hpcwl evaluate builtin:KTH-SP2 --sessions a60 --versus a0 --by user`,
		Args: exactArgs(1, "one TRACE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runEvaluate(cmd.Context(), opts, args[0], stdout, stderr)
		}),
	}
	opts.trace.add(cmd)
	opts.fb.add(cmd, "")
	f := cmd.Flags()
	f.StringVar(&opts.scheduler, "scheduler", "easy", "scheduler: "+strings.Join(sched.Names(), ", ")+", replay")
	f.Float64Var(&opts.procsFactor, "procs-factor", 0, "multiply the machine size by this factor (infra*2: 2, infra/2: 0.5)")
	f.Float64Var(&opts.speed, "speed", 0, "node speed; runtimes are divided by it (perf*2: 2, perf/2: 0.5)")
	f.StringArrayVar(&opts.params, "param", nil, "set a parameter of the scheduler, `NAME=VALUE` (repeatable; e.g. ups alpha_user=0.8, ups scan=full, easy priority=wfp3)")
	f.Float64Var(&opts.estimateFactor, "estimate-factor", 0, "multiply predictions for planning (EASY with doubled estimates: 2)")
	positiveFlags(cmd, "procs-factor", "speed", "estimate-factor")
	f.StringVar(&opts.oversize, "oversize", "drop", "jobs wider than the machine: drop (counted and reported), error, clamp")
	f.BoolVar(&opts.kill, "kill", false, "kill jobs at their requested time, in both replays (default: let them finish)")
	f.StringVar(&opts.jobsOut, "jobs", "", "write per-job results (CSV, or Parquet for a .parquet name) to `FILE`")
	f.BoolVar(&opts.json, "json", false, "print the comparison as JSON")
	f.StringVar(&opts.prefix, "prefix", "", "replay only the first `N|DURATION` of the log: N jobs by submission time, or a duration such as 90d")
	f.StringVar(&opts.by, "by", "", "also list the feedback replay's lateness per user (Madon's Figs. 4-5): user")
	f.StringVar(&opts.perUserOut, "per-user", "", "write each user's mean, relative and additional lateness (CSV, or Parquet for a .parquet name) to `FILE`")
	f.StringVar(&opts.versus, "versus", "", "also replay with feedback under this session partitioning (e.g. a0) and report the distribution of submit-time differences, feedback minus this one (Madon's Fig. 7)")
	f.StringVar(&opts.diffOut, "diff", "", "with --versus: write each job's two submit times and their difference (CSV) to `FILE`")
	f.StringVar(&opts.curveOut, "curve", "", "write the submission and termination curves (CSV, or Parquet for a .parquet name) to `FILE`")
	f.StringVar(&opts.curveStep, "curve-step", "1d", "time step of the --curve lines, with a unit (1h, 1d, 1w)")
	return cmd
}

// evaluateReport is the JSON form of `hpcwl evaluate`.
type evaluateReport struct {
	Version   string `json:"hpcwl_version"`
	Trace     string `json:"trace"`
	SHA256    string `json:"sha256,omitempty"`
	Jobs      int    `json:"jobs"`
	Change    string `json:"change"`
	Scheduler string `json:"scheduler"`
	// SchedulerParams are the policy's parameters, given or default.
	SchedulerParams map[string]string `json:"scheduler_params,omitempty"`
	Procs           int               `json:"procs"`
	TraceProcs      int               `json:"trace_procs"`
	ProcsFactor     float64           `json:"procs_factor"`
	Speed           float64           `json:"speed"`
	Kill            bool              `json:"kill_at_requested_time"`
	// Prefix is set when only the start of the log was replayed.
	Prefix   *evaluatePrefix `json:"prefix,omitempty"`
	Recorded feedback.Column `json:"recorded"`
	Rigid    feedback.Column `json:"rigid"`
	Feedback feedback.Column `json:"feedback"`
	// PerUser lists the feedback replay's lateness per user (with --by
	// user).
	PerUser []feedback.UserLateness `json:"per_user_lateness,omitempty"`
	// Versus is the comparison with a second feedback replay (--versus).
	Versus *evaluateVersus `json:"versus,omitempty"`
	// Steady holds the steady-state checks of the rigid and the feedback
	// run.
	Steady struct {
		Rigid    *steady.Report `json:"rigid"`
		Feedback *steady.Report `json:"feedback"`
	} `json:"steady_state"`
}

func runEvaluate(ctx context.Context, opts evaluateOptions, name string, stdout, stderr io.Writer) error {
	if opts.procsFactor < 0 || opts.speed < 0 || math.IsInf(opts.procsFactor, 0) || math.IsInf(opts.speed, 0) ||
		math.IsNaN(opts.procsFactor) || math.IsNaN(opts.speed) {
		return usagef("--procs-factor and --speed must be positive numbers")
	}
	params, err := parseParams(opts.params)
	if err != nil {
		return usageError{err}
	}
	fo, err := opts.fb.options()
	if err != nil {
		return err
	}
	over, err := sim.ParseOversize(opts.oversize)
	if err != nil {
		return usageError{err}
	}
	prefix, err := parsePrefix(opts.prefix)
	if err != nil {
		return err
	}
	step, err := session.ParseDuration(opts.curveStep)
	if err != nil || step <= 0 {
		return usagef("--curve-step %q: use a duration with a unit such as 1h, 1d or 1w", opts.curveStep)
	}
	if opts.by != "" && opts.by != "user" {
		return usagef("unknown --by %q; valid: user", opts.by)
	}
	var vo feedback.Options
	if opts.versus != "" {
		vo = fo
		if vo.Sessions, err = session.ParseSpec(opts.versus); err != nil {
			return usagef("--versus: %v", err)
		}
		vo.SessionsSet = true
	} else if opts.diffOut != "" {
		return usagef("--diff needs --versus SPEC")
	}
	outs := []output{{"--curve", opts.curveOut}, {"--jobs", opts.jobsOut}, {"--per-user", opts.perUserOut}, {"--diff", opts.diffOut}}
	if err := checkOutputs([]string{name}, outs...); err != nil {
		return err
	}
	change := describeChange(&opts)
	t, err := opts.trace.load(name)
	if err != nil {
		return err
	}
	if prefix != nil {
		t = prefix.apply(t)
	}
	if t.Len() == 0 {
		return fmt.Errorf("%s: the log holds no jobs", name)
	}
	so := sim.Options{PrepareOptions: sim.PrepareOptions{
		Machine:  sim.Machine{ProcsFactor: opts.procsFactor, Speed: opts.speed},
		Oversize: over,
	}, Kill: opts.kill}
	var runs [2]*feedback.Run
	for k := range runs {
		s, err := newScheduler(opts.scheduler, sched.Options{EstimateFactor: opts.estimateFactor, Params: params}, t)
		if err != nil {
			return err
		}
		if !opts.json {
			so.Progress = newJobBar(warnOut, t.Len(), [2]string{"rigid replay", "feedback replay"}[k])
		}
		if k == 0 {
			runs[k], err = feedback.Rigid(ctx, t, s, so)
		} else {
			runs[k], err = feedback.Simulate(ctx, t, s, so, fo)
		}
		if c, ok := s.(io.Closer); ok {
			c.Close() // ends an external scheduler's process
		}
		var oe *sim.OversizeError
		if errors.As(err, &oe) {
			return fmt.Errorf("%s: job %d needs %d processors but the machine has %d; pass --oversize drop or clamp",
				name, oe.JobID, oe.Procs, oe.Machine)
		}
		if errors.Is(err, feedback.ErrNoUsers) {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err != nil {
			return err
		}
	}
	if w := runs[0].Workload; len(runs[0].Result.Jobs) == 0 {
		return fmt.Errorf("%s: no job to simulate: of %d jobs, %d lack a runtime, processor count or submit time and %d are wider than the machine (%d processors)",
			name, t.Len(), w.Dropped, w.DroppedOversize, w.Procs)
	}
	rep, err := evaluateReportOf(t, runs, &opts, change)
	if err != nil {
		return err
	}
	rep.Prefix = prefix
	lateness := feedback.PerUserLateness(t, runs[1].Source.Submitted())
	if opts.by == "user" {
		rep.PerUser = lateness
	}
	var versus *feedback.Run
	if opts.versus != "" {
		s, err := newScheduler(opts.scheduler, sched.Options{EstimateFactor: opts.estimateFactor, Params: params}, t)
		if err != nil {
			return err
		}
		versus, err = feedback.Simulate(ctx, t, s, so, vo)
		if c, ok := s.(io.Closer); ok {
			c.Close() // ends an external scheduler's process
		}
		if err != nil {
			return fmt.Errorf("--versus %s: %w", opts.versus, err)
		}
		var d session.Dist
		_, d = feedback.SubmitDifferences(runs[1].Source.Submitted(), versus.Source.Submitted())
		rep.Versus = &evaluateVersus{Sessions: vo.Sessions.String(), Differences: d}
	}
	if opts.perUserOut != "" {
		if err := writeTableOutput(opts.perUserOut, "evaluate per-user lateness csv", stdout, func(w io.Writer) error {
			if isParquetName(opts.perUserOut) {
				return writeParquetTable(w, lateness, rep.provenance())
			}
			return writePerUserCSV(w, lateness)
		}); err != nil {
			return err
		}
	}
	if opts.diffOut != "" {
		if err := writeTableOutput(opts.diffOut, "evaluate submit differences csv", stdout, func(w io.Writer) error {
			return writeDiffCSV(w, t, runs[1].Source.Submitted(), versus.Source.Submitted())
		}); err != nil {
			return err
		}
	}
	rep.Steady.Rigid, rep.Steady.Feedback = steady.Analyze(runs[0].Result), steady.Analyze(runs[1].Result)
	for _, st := range []struct {
		name string
		r    *steady.Report
	}{{"rigid replay", rep.Steady.Rigid}, {"feedback replay", rep.Steady.Feedback}} {
		for _, w := range st.r.Warnings {
			fmt.Fprintf(stderr, "warning: %s: %s\n", st.name, w)
		}
	}
	if opts.curveOut != "" {
		if err := writeTableOutput(opts.curveOut, "evaluate curve csv", stdout, func(w io.Writer) error {
			if isParquetName(opts.curveOut) {
				return writeParquetTable(w, evaluateCurve(t, runs, step), rep.provenance())
			}
			return writeEvaluateCurve(w, t, runs, step)
		}); err != nil {
			return err
		}
	}
	if opts.jobsOut != "" {
		if err := writeTableOutput(opts.jobsOut, "evaluate jobs csv", stdout, func(w io.Writer) error {
			if isParquetName(opts.jobsOut) {
				return writeParquetTable(w, evaluateJobs(t, runs), rep.provenance())
			}
			return writeEvaluateJobs(w, t, runs)
		}); err != nil {
			return err
		}
	}
	sw := summaryWriter(stdout, stderr, outs...)
	if opts.json {
		return writeJSON(sw, rep)
	}
	return printEvaluate(sw, rep)
}

// describeChange fills in the default change and names it.
func describeChange(o *evaluateOptions) string {
	if o.procsFactor == 0 && o.speed == 0 && strings.EqualFold(o.scheduler, "easy") && o.estimateFactor == 0 {
		o.speed = 0.5
	}
	var parts []string
	if !strings.EqualFold(o.scheduler, "easy") {
		parts = append(parts, "scheduler "+schedulerLabel(o.scheduler))
	}
	if o.speed != 0 && o.speed != 1 {
		parts = append(parts, "node speed x"+strconv.FormatFloat(o.speed, 'g', 4, 64))
	}
	if o.procsFactor != 0 && o.procsFactor != 1 {
		parts = append(parts, "machine size x"+strconv.FormatFloat(o.procsFactor, 'g', 4, 64))
	}
	if o.estimateFactor != 0 {
		parts = append(parts, "estimates x"+strconv.FormatFloat(o.estimateFactor, 'g', 4, 64))
	}
	if len(parts) == 0 {
		return "none (EASY on the recorded machine)"
	}
	return strings.Join(parts, ", ")
}

func evaluateReportOf(t *trace.Trace, runs [2]*feedback.Run, o *evaluateOptions, change string) (*evaluateReport, error) {
	cmp, err := feedback.Compare(t, runs[0], runs[1])
	if err != nil {
		return nil, err
	}
	given, _ := parseParams(o.params) // checked by runEvaluate
	return &evaluateReport{Version: version.String(), Trace: t.Name, SHA256: t.SHA256, Jobs: t.Len(), Change: change,
		Scheduler: schedulerLabel(o.scheduler), Procs: runs[0].Workload.Procs, TraceProcs: t.Procs,
		SchedulerParams: schedulerParams(o.scheduler, given),
		ProcsFactor:     o.procsFactor, Speed: runs[0].Workload.Speed, Kill: o.kill,
		Recorded: cmp.Recorded, Rigid: cmp.Rigid, Feedback: cmp.Feedback}, nil
}

func printEvaluate(w io.Writer, r *evaluateReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fb := r.Feedback.Feedback
	fmt.Fprintf(w, "%s: %d jobs; change: %s\n", r.Trace, r.Jobs, r.Change)
	if p := r.Prefix; p != nil {
		fmt.Fprintf(w, "prefix %s: the first %d of %d jobs, submitted over %.2f days\n", p.Spec, r.Jobs, p.LogJobs, p.SpanDays)
	}
	fmt.Fprintf(w, "machine %d processors (recorded %d), node speed %v, scheduler %s\n", r.Procs, r.TraceProcs, r.Speed, r.Scheduler)
	fmt.Fprintf(w, "feedback: %s users, sessions %s, %s reduction%s\n", fb.Users, fb.Sessions, fb.Reduction, startRuleText(fb))
	if r.Kill {
		fmt.Fprintf(w, "jobs killed at their requested time\n")
	}
	switch {
	case r.Recorded.Metrics == nil:
		fmt.Fprintf(w, "recorded: the log records no schedule (no job has a known wait, runtime and processor count): n/a\n")
	case r.Recorded.LeftOut > r.Recorded.Incomplete:
		fmt.Fprintf(w, "recorded: %d jobs without a recorded wait left out of its metrics\n", r.Recorded.LeftOut-r.Recorded.Incomplete)
	}
	fmt.Fprintln(w)
	cols := []*feedback.Column{&r.Recorded, &r.Rigid, &r.Feedback}
	// metric rows print n/a where the column's metrics are unknown.
	metric := func(f func(c *feedback.Column) string) func(c *feedback.Column) string {
		return func(c *feedback.Column) string {
			if c.Metrics == nil {
				return "n/a"
			}
			return f(c)
		}
	}
	row := func(name string, f func(c *feedback.Column) string) {
		fmt.Fprintf(tw, "%-34s", name)
		for _, c := range cols {
			fmt.Fprintf(tw, "\t%s", f(c))
		}
		fmt.Fprintf(tw, "\t\n")
	}
	days := func(s float64) string { return strconv.FormatFloat(s/86400, 'f', 2, 64) }
	num := func(x float64, prec int) string { return strconv.FormatFloat(x, 'f', prec, 64) }
	fmt.Fprintf(tw, "%-34s\trecorded\trigid\tfeedback\t\n", "")
	row("jobs run", metric(func(c *feedback.Column) string { return strconv.Itoa(c.Metrics.Jobs) }))
	row("jobs rejected: no runtime or size", func(c *feedback.Column) string { return strconv.Itoa(c.Incomplete) })
	row("jobs rejected: wider than machine", func(c *feedback.Column) string { return strconv.Itoa(c.TooWide) })
	row("makespan (days)", metric(func(c *feedback.Column) string { return days(float64(c.Metrics.Makespan)) }))
	row("wait mean (days)", metric(func(c *feedback.Column) string { return days(c.Metrics.Wait.Mean) }))
	row("wait mean", metric(func(c *feedback.Column) string { return durationText(c.Metrics.Wait.Mean) }))
	row("wait median", metric(func(c *feedback.Column) string { return durationText(c.Metrics.Wait.Median) }))
	row("wait max (days)", metric(func(c *feedback.Column) string { return days(c.Metrics.Wait.Max) }))
	row("slowdown mean", metric(func(c *feedback.Column) string { return num(c.Metrics.Slowdown.Mean, 1) }))
	row("bounded slowdown mean", metric(func(c *feedback.Column) string { return num(c.Metrics.BoundedSlowdown.Mean, 2) }))
	row("utilization", metric(func(c *feedback.Column) string { return num(100*c.Metrics.Utilization, 1) + "%" }))
	row("throughput (jobs/week)", metric(func(c *feedback.Column) string { return num(c.Metrics.Throughput, 1) }))
	row("queue length mean", metric(func(c *feedback.Column) string { return num(c.Metrics.QueueMean, 1) }))
	lat := func(f func(l *feedback.Lateness) string, rigid string) func(c *feedback.Column) string {
		return func(c *feedback.Column) string {
			switch {
			case c.Feedback != nil:
				return f(&c.Feedback.Lateness)
			case c == &r.Rigid:
				return rigid
			}
			return "-"
		}
	}
	row("mean lateness (days)", lat(func(l *feedback.Lateness) string { return days(l.Mean) }, "0.00"))
	row("relative lateness", lat(func(l *feedback.Lateness) string { return num(l.Relative, 3) }, "1.000"))
	row("additional lateness (s)", lat(func(l *feedback.Lateness) string { return num(l.Additional, 2) }, "0.00"))
	row("user activity median (days)", func(c *feedback.Column) string { return days(c.Activity.Length.P50) })
	row("user throughput median (jobs/week)", func(c *feedback.Column) string { return num(c.Activity.Throughput, 1) })
	row("submissions weekdays 8-18h", func(c *feedback.Column) string {
		if c.Feedback != nil {
			return num(100*fb.DayShare, 1) + "%"
		}
		return num(100*fb.RecordedDayShare, 1) + "%"
	})
	row("weekly cycle distance to recorded", lat(func(*feedback.Lateness) string { return num(fb.CycleDistance, 3) }, "0.000"))
	if err := tw.Flush(); err != nil {
		return err
	}
	printEvaluateCI(w, cols)
	if v := r.Versus; v != nil {
		d := v.Differences
		fmt.Fprintf(w, "\nsubmit time, feedback %s minus feedback %s, over %d jobs: mean %s, p10 %s, median %s, p90 %s, max %s; min %s\n",
			fb.Sessions, v.Sessions, d.N, signedDuration(d.Mean), signedDuration(d.P10), signedDuration(d.P50), signedDuration(d.P90),
			signedDuration(d.Max), signedDuration(d.Min))
	}
	if len(r.PerUser) == 0 {
		return nil
	}
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\nuser\tjobs\tmean lateness (days)\trelative lateness\tadditional lateness (s)\t\n")
	nan := func(x float64, prec int) string {
		if math.IsNaN(x) {
			return "-"
		}
		return num(x, prec)
	}
	for _, u := range r.PerUser {
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t\n", u.User, u.Jobs, days(u.Mean), nan(u.Relative, 3), nan(u.Additional, 2))
	}
	return tw.Flush()
}

// printEvaluateCI prints the 95% confidence intervals of each column's
// mean wait and bounded slowdown (batch means), below the table so that
// its columns keep their widths.
func printEvaluateCI(w io.Writer, cols []*feedback.Column) {
	names := []string{"recorded", "rigid", "feedback"}
	for _, m := range []struct {
		name string
		pick func(*metrics.Intervals) *metrics.Interval
		f    func(float64) string
	}{
		{"wait mean", func(i *metrics.Intervals) *metrics.Interval { return &i.Wait }, durationText},
		{"bounded slowdown mean", func(i *metrics.Intervals) *metrics.Interval { return &i.BoundedSlowdown },
			func(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }},
	} {
		var parts []string
		for k, c := range cols {
			v := "n/a"
			if c.Metrics != nil && c.Metrics.CI != nil {
				if iv := m.pick(c.Metrics.CI); iv.Note == "" {
					v = m.f(iv.Low) + " .. " + m.f(iv.High)
				} else {
					v = "n/a (run too short for its autocorrelation)"
				}
			}
			parts = append(parts, names[k]+" "+v)
		}
		fmt.Fprintf(w, "%s, 95%% CI (batch means): %s\n", m.name, strings.Join(parts, "; "))
	}
}

// signedDuration is durationText with a sign for negative values.
func signedDuration(s float64) string {
	if s < 0 {
		return "-" + durationText(-s)
	}
	return durationText(s)
}

// writePerUserCSV writes one line per user (see feedback.UserLateness);
// undefined figures are empty.
func writePerUserCSV(w io.Writer, ls []feedback.UserLateness) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("user,jobs,mean_lateness_s,relative_lateness,additional_lateness_s\n")
	f := func(x float64) string {
		if math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', 10, 64)
	}
	for _, l := range ls {
		fmt.Fprintf(bw, "%d,%d,%s,%s,%s\n", l.User, l.Jobs, f(l.Mean), f(l.Relative), f(l.Additional))
	}
	return bw.Flush()
}

// writeDiffCSV writes each job's submit time in two feedback replays and
// their difference (empty when either did not submit it).
func writeDiffCSV(w io.Writer, t *trace.Trace, a, b []sim.Time) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("job_id,user,recorded_submit,submit,versus_submit,difference\n")
	for i := range t.Jobs {
		j := &t.Jobs[i]
		d := ""
		if a[i] >= 0 && b[i] >= 0 {
			d = strconv.FormatInt(int64(a[i]-b[i]), 10)
		}
		fmt.Fprintf(bw, "%d,%d,%d,%d,%d,%s\n", j.ID, j.User, j.Submit, a[i], b[i], d)
	}
	return bw.Flush()
}

// evaluateJob is one row of `evaluate --jobs`: a job's recorded, rigid and
// feedback submit, start and end (-1 when a job was rejected or unknown),
// and its lateness (feedback submit minus recorded submit; null, empty in
// the CSV, for a job the feedback run never submitted).
type evaluateJob struct {
	JobID          int64  `parquet:"job_id"`
	User           int64  `parquet:"user"`
	Procs          int64  `parquet:"procs"`
	RecordedSubmit int64  `parquet:"recorded_submit"`
	RecordedStart  int64  `parquet:"recorded_start"`
	RecordedEnd    int64  `parquet:"recorded_end"`
	RigidSubmit    int64  `parquet:"rigid_submit"`
	RigidStart     int64  `parquet:"rigid_start"`
	RigidEnd       int64  `parquet:"rigid_end"`
	FeedbackSubmit int64  `parquet:"feedback_submit"`
	FeedbackStart  int64  `parquet:"feedback_start"`
	FeedbackEnd    int64  `parquet:"feedback_end"`
	Lateness       *int64 `parquet:"lateness,optional"`
}

// evaluateJobs returns one row per job of t.
func evaluateJobs(t *trace.Trace, runs [2]*feedback.Run) []evaluateJob {
	n := len(t.Jobs)
	var cols [2][3][]int64
	for k, run := range runs {
		for c := range cols[k] {
			cols[k][c] = make([]int64, n)
			for i := range cols[k][c] {
				cols[k][c][i] = -1
			}
		}
		for _, o := range run.Result.Jobs {
			cols[k][0][o.Index], cols[k][1][o.Index], cols[k][2][o.Index] = int64(o.Submit), int64(o.Start), int64(o.End)
		}
	}
	sub := runs[1].Source.Submitted()
	lateness := make([]int64, n)
	rows := make([]evaluateJob, n)
	for i := range t.Jobs {
		j := &t.Jobs[i]
		r := &rows[i]
		if sub[i] >= 0 {
			cols[1][0][i] = int64(sub[i])
			lateness[i] = int64(sub[i]) - j.Submit
			r.Lateness = &lateness[i]
		}
		r.JobID, r.User, r.Procs = j.ID, int64(j.User), int64(j.Processors())
		r.RecordedSubmit, r.RecordedStart, r.RecordedEnd = j.Submit, j.Start(), j.End()
		r.RigidSubmit, r.RigidStart, r.RigidEnd = cols[0][0][i], cols[0][1][i], cols[0][2][i]
		r.FeedbackSubmit, r.FeedbackStart, r.FeedbackEnd = cols[1][0][i], cols[1][1][i], cols[1][2][i]
	}
	return rows
}

// writeEvaluateJobs writes one CSV line per job of t (see evaluateJob).
func writeEvaluateJobs(w io.Writer, t *trace.Trace, runs [2]*feedback.Run) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("job_id,user,procs,recorded_submit,recorded_start,recorded_end,rigid_submit,rigid_start,rigid_end,feedback_submit,feedback_start,feedback_end,lateness\n")
	var b []byte
	for _, r := range evaluateJobs(t, runs) {
		b = b[:0]
		vals := []int64{r.JobID, r.User, r.Procs, r.RecordedSubmit, r.RecordedStart, r.RecordedEnd,
			r.RigidSubmit, r.RigidStart, r.RigidEnd, r.FeedbackSubmit, r.FeedbackStart, r.FeedbackEnd}
		for _, v := range vals {
			b = strconv.AppendInt(b, v, 10)
			b = append(b, ',')
		}
		if r.Lateness != nil {
			b = strconv.AppendInt(b, *r.Lateness, 10)
		}
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}
