package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/hpcwl/hpcwl/feedback"
	"github.com/hpcwl/hpcwl/internal/atomicfile"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/replicate"
	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

func init() { register(newReplicateCommand) }

// replicateOptions are the options of `hpcwl replicate`.
type replicateOptions struct {
	poolFlags
	variants   int
	scheduler  string
	alphaUser  float64
	upsMetric  string
	feedback   bool
	offGap     bool
	regen      string
	model      string
	fluid      string
	workers    int
	tau        string
	noOriginal bool
	csvOut     string
	runsOut    string
	record     string
	json       bool
}

func newReplicateCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts replicateOptions
	cmd := &cobra.Command{
		Use:   "replicate TRACE",
		Short: "Simulate many resampled variants of a log and summarize the metrics",
		Long: `Replicate generates --variants resampled variants of a log (see hpcwl resample),
simulates each under the scheduler, and reports each metric's distribution over
the variants next to the original log's value: mean, 95% confidence interval
of the mean, percentiles (2.5, 25, 50, 75, 97.5), min, max, the max/min ratio
and the original's percentile rank among the variants.

Metrics are measured over the generated period: throughput is the number of
jobs completed in it, utilization the busy processor-time over the machine's,
wait, response and (bounded) slowdown the means over the jobs submitted in it.
Rare-behaviour jobs are left out. The original log is replayed at its recorded
times (with --feedback: through the variants' feedback model, so that both are
simulated alike) and measured over its own period; --no-original leaves it
out of the table and of --runs and --csv. Variants the saturation detector flags
(outstanding jobs growing by a job a week or more) are counted and left out of
the distributions; a saturated original is marked "(sat.)" and warned of.

The original may lie outside the variants' range ("!" in the table, and a
warning): it is one schedule of the log's actual users over the log's own
period, while every variant recombines whole users, shifted by weeks, over
the generated period. Bursts that coincided in the log rarely coincide again,
so the variants can all fall on one side of it; that is a finding about the
log, not an error. The 95% confidence interval of the mean needs at least two
unsaturated variants ("-" otherwise).

With --feedback each variant runs as TBUOS: temporary users arrive at their
weeks, long-term users stay and are regenerated when their last job ends (by
default after their original off-activity gap, the time the log's period
holds outside their activity, as in the thesis; --regen immediate brings them
back at once, which raises the load), and every user's batches are released by feedback through the Fluid user model,
so throughput becomes an outcome of the scheduler.

Variant i uses the random stream (--seed, i): the results do not depend on
the number of workers. A progress bar shows on a terminal.` + exitStatusHelp,
		Example: `  hpcwl replicate builtin:KTH-SP2 --variants 1000 --scheduler easy
  hpcwl replicate builtin:KTH-SP2 --variants 100 --scheduler fcfs --feedback --csv fcfs.csv
  hpcwl replicate SDSC-SP2-1998-4.2-cln.swf.gz --variants 20 --feedback --scheduler ups --alpha-user 1 --json
  hpcwl replicate builtin:KTH-SP2 --variants 30 --scheduler fcfs,easy,conservative`,
		Args: exactArgs(1, "one TRACE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runReplicate(cmd.Context(), opts, args[0], stdout, stderr)
		}),
	}
	opts.poolFlags.add(cmd)
	f := cmd.Flags()
	f.IntVar(&opts.variants, "variants", 100, "number of resampled variants")
	f.StringVar(&opts.scheduler, "scheduler", "easy", "scheduler: "+strings.Join(sched.Names(), ", ")+"; several, comma-separated, are compared pairwise on the same variants")
	f.Float64Var(&opts.alphaUser, "alpha-user", 0.5, "UPS: weight of the user priority, 0 to 1")
	f.StringVar(&opts.upsMetric, "ups-metric", "", "UPS: user ranking, load or recency (default: the scheduler's)")
	f.BoolVar(&opts.feedback, "feedback", false, "simulate with feedback (TBUOS) instead of fixed arrival times")
	f.StringVar(&opts.regen, "regen", "gap", "TBUOS: when a long-term user comes back after its last job ends: gap (after its original off-activity gap, the thesis's rule) or immediate")
	f.BoolVar(&opts.offGap, "off-gap", false, "TBUOS: the same as --regen gap")
	_ = f.MarkDeprecated("off-gap", "it is the default; use --regen gap or --regen immediate")
	f.StringVar(&opts.model, "model", "fluid", "TBUOS user model: fluid, adjusted, distribution")
	f.StringVar(&opts.fluid, "fluid", "v2", "Fluid variant: v2 (reinsert skipped sessions; Zakay's TBUOS model, thesis ch. 5, the default here) or v1 (recycle sessions; ch. 4, the default of simulate and evaluate)")
	f.IntVar(&opts.workers, "workers", 0, "variants simulated at once (default: all cores)")
	f.StringVar(&opts.tau, "tau", "10s", "bounded-slowdown threshold")
	positiveFlags(cmd, "tau", "workers")
	f.BoolVar(&opts.noOriginal, "no-original", false, "do not replay the original log")
	f.StringVar(&opts.csvOut, "csv", "", "write the summary table as CSV to `FILE` (Parquet if it ends in .parquet)")
	f.StringVar(&opts.runsOut, "runs", "", "write every variant's metrics as CSV to `FILE` (Parquet if it ends in .parquet)")
	f.StringVar(&opts.record, "record", "", "with --feedback: write each variant's simulated schedule as an SWF log DIR/variant-NNNN.swf (an existing `DIR`)")
	f.BoolVar(&opts.json, "json", false, "print the report as JSON")
	return cmd
}

// replicateReport is the JSON form of `hpcwl replicate`.
type replicateReport struct {
	Version   string `json:"hpcwl_version"`
	Input     string `json:"input"`
	SHA256    string `json:"sha256"`
	Scheduler string `json:"scheduler"`
	Procs     int    `json:"procs"`
	Seed      uint64 `json:"seed"`
	Workers   int    `json:"workers"`
	*replicate.Result
}

// anyOutside reports whether an original value lies outside its variants.
func anyOutside(ds []replicate.Dist) bool {
	for _, d := range ds {
		if d.OutsideRange {
			return true
		}
	}
	return false
}

// schedulerFactory returns a function building the chosen scheduler.
func (o *replicateOptions) schedulerFactory() (func() sim.Scheduler, string, error) {
	name := strings.ToLower(o.scheduler)
	if sched.IsExternal(name) {
		return nil, "", usagef("replicate runs its variants in parallel with built-in schedulers only; run an external scheduler on each variant with simulate (replicate --record writes the variants)")
	}
	if _, err := sched.New(name); err != nil {
		return nil, "", usageError{err}
	}
	if !strings.HasPrefix(name, "ups") {
		if o.upsMetric != "" {
			return nil, "", usagef("--ups-metric applies to the ups schedulers only")
		}
		return func() sim.Scheduler { s, _ := sched.New(name); return s }, name, nil
	}
	if !(o.alphaUser >= 0 && o.alphaUser <= 1) {
		return nil, "", usagef("--alpha-user %v is out of range; valid: 0 to 1", o.alphaUser)
	}
	m := sched.ByLoad
	if name == "ups-recency" {
		m = sched.ByRecency
	}
	switch o.upsMetric {
	case "":
	case "load":
		m = sched.ByLoad
	case "recency":
		m = sched.ByRecency
	default:
		return nil, "", usagef("unknown --ups-metric %q; valid: load, recency", o.upsMetric)
	}
	a := o.alphaUser
	return func() sim.Scheduler { return sched.NewUPS(a, m) }, sched.NewUPS(a, m).Name(), nil
}

func (o *replicateOptions) feedbackOptions() (*feedback.Options, error) {
	m, err := feedback.ParseModel(o.model)
	if err != nil || m == feedback.Madon {
		return nil, usagef("unknown --model %q; valid: fluid, adjusted, distribution", o.model)
	}
	fo := &feedback.Options{Model: m}
	switch strings.ToLower(o.fluid) {
	case "v1":
		fo.Fluid = feedback.FluidV1
	case "v2":
		fo.Fluid = feedback.FluidV2
	default:
		return nil, usagef("unknown --fluid %q; valid: v1, v2", o.fluid)
	}
	return fo, nil
}

// barProgress shows a progress bar; it is safe for concurrent use.
type barProgress struct{ bar *progressbar.ProgressBar }

func (b barProgress) Done() { _ = b.bar.Add(1) }

// newBar returns a progress bar on w when w is a terminal, else nil.
func newBar(w io.Writer, n int, what string) replicate.Progress {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return barProgress{progressbar.NewOptions(n, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100*time.Millisecond))}
}

// jobBar shows a simulation's progress, in jobs ended, as a bar.
type jobBar struct{ bar *progressbar.ProgressBar }

func (b jobBar) Report(_, ended int, _ sim.Time) { _ = b.bar.Set(ended) }

// newJobBar returns a progress bar of a simulation of n jobs on w when w
// is a terminal, else nil (no bar in pipes, files or JSON output).
func newJobBar(w io.Writer, n int, what string) sim.Progress {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return jobBar{progressbar.NewOptions(n, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100*time.Millisecond))}
}

func runReplicate(ctx context.Context, opts replicateOptions, name string, stdout, stderr io.Writer) error {
	if opts.variants < 1 {
		return usagef("--variants must be at least 1, got %d", opts.variants)
	}
	if opts.workers < 0 {
		return usagef("--workers must be positive, got %d", opts.workers)
	}
	outs := []output{{"--csv", opts.csvOut}, {"--runs", opts.runsOut}}
	if err := checkOutputs([]string{name}, outs...); err != nil {
		return err
	}
	if names := strings.Split(opts.scheduler, ","); len(names) > 1 {
		return runReplicatePaired(ctx, opts, names, name, stdout, stderr)
	}
	cfg, schedName, p, err := opts.config(name, stderr)
	if err != nil {
		return err
	}
	cfg.Progress = newBar(stderr, opts.variants, "variants")
	start := time.Now()
	res, err := replicate.Run(ctx, cfg)
	if err != nil {
		return generatorError(err)
	}
	// The run time goes to stderr, not into the report, so that the same
	// inputs and seed give byte-identical reports.
	fmt.Fprintf(stderr, "%d variants in %.1f s\n", opts.variants, time.Since(start).Seconds())
	rep := replicateReport{Version: version.String(), Input: name, SHA256: p.Trace.SHA256, Scheduler: schedName,
		Procs: cfg.Procs, Seed: cfg.Generate.Seed, Workers: opts.workers, Result: res}
	if opts.csvOut != "" {
		if err := writeTableOutput(opts.csvOut, "replicate summary csv", stdout, func(w io.Writer) error {
			if isParquetName(opts.csvOut) {
				return writeParquetTable(w, replicateSummaries(res), rep.provenance())
			}
			return writeSummaryCSV(w, res)
		}); err != nil {
			return err
		}
	}
	if opts.runsOut != "" {
		if err := writeTableOutput(opts.runsOut, "replicate runs csv", stdout, func(w io.Writer) error {
			if isParquetName(opts.runsOut) {
				return writeParquetTable(w, replicateRuns(res), rep.provenance())
			}
			return writeRunsCSV(w, res)
		}); err != nil {
			return err
		}
	}
	sw := summaryWriter(stdout, stderr, outs...)
	if opts.json {
		return writeJSON(sw, jsonSafe(rep))
	}
	return printReplicate(sw, &rep)
}

// provenance returns the key-value metadata of replicate's Parquet
// outputs: the input log and its SHA-256, the generator's parameters and
// the run's settings as JSON.
func (r *replicateReport) provenance() map[string]string {
	settings := map[string]any{"scheduler": r.Scheduler, "procs": r.Procs, "seed": r.Seed, "mode": r.Mode,
		"regeneration": r.Regeneration, "variants": len(r.Variants)}
	return provenance(r.Input, r.SHA256, map[string]string{
		"hpcwl.parameters": jsonText(r.Params), "hpcwl.settings": jsonText(settings)})
}

// jsonSafe replaces NaN and infinite values, which JSON cannot hold, by
// nulls.
func jsonSafe(r replicateReport) any {
	type dist struct {
		replicate.Dist
		Original     *float64 `json:"original"`
		MaxMin       *float64 `json:"max_min_ratio"`
		MedianDiff   *float64 `json:"median_vs_original"`
		OriginalRank *float64 `json:"original_rank"`
		CILow        *float64 `json:"ci_low"`
		CIHigh       *float64 `json:"ci_high"`
	}
	f := func(x float64) *float64 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return &x
	}
	ds := make([]dist, len(r.Summary))
	for i, d := range r.Summary {
		ds[i] = dist{d, f(d.Original), f(d.MaxMin), f(d.MedianDiff), f(d.OriginalRank), f(d.CILow), f(d.CIHigh)}
	}
	return struct {
		replicateReport
		Summary []dist `json:"summary"`
	}{r, ds}
}

var summaryColumns = []string{"metric", "original", "n", "mean", "ci_low", "ci_high", "sd", "min", "p2_5", "p25", "median", "p75", "p97_5", "max", "max_min_ratio", "original_rank"}

func writeSummaryCSV(w io.Writer, r *replicate.Result) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(summaryColumns)
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 8, 64) }
	for _, d := range r.Summary {
		_ = cw.Write([]string{d.Name, g(d.Original), strconv.Itoa(d.N), g(d.Mean), g(d.CILow), g(d.CIHigh), g(d.SD), g(d.Min),
			g(d.P2_5), g(d.P25), g(d.Median), g(d.P75), g(d.P97_5), g(d.Max), g(d.MaxMin), g(d.OriginalRank)})
	}
	cw.Flush()
	return cw.Error()
}

func writeRunsCSV(w io.Writer, r *replicate.Result) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(append([]string{"variant"}, append(replicate.MetricNames, "saturated", "saturation_slope")...))
	row := func(id string, m *replicate.Metrics) {
		rec := []string{id}
		for _, n := range replicate.MetricNames {
			rec = append(rec, strconv.FormatFloat(m.Value(n), 'g', 8, 64))
		}
		_ = cw.Write(append(rec, strconv.FormatBool(m.Saturated), strconv.FormatFloat(m.Slope, 'g', 6, 64)))
	}
	if r.Original != nil { // --no-original: no row
		row("original", r.Original)
	}
	for i := range r.Variants {
		row(strconv.Itoa(i), &r.Variants[i])
	}
	cw.Flush()
	return cw.Error()
}

func printReplicate(w io.Writer, r *replicateReport) error {
	mode := r.Mode
	if r.Regeneration != "" {
		mode += ", regeneration " + r.Regeneration
	}
	fmt.Fprintf(w, "%s: %d variants (%s, %s), %d processors, seed %d, %.1f weeks each, load factor %v; %d saturated\n",
		r.Input, len(r.Variants), mode, r.Scheduler, r.Procs, r.Seed, float64(r.Params.Duration)/(7*86400), r.Params.LoadFactor, r.Saturated)
	if r.LeftOut+r.OriginalDropped > 0 {
		fmt.Fprintf(w, "left out: %d jobs of the log from the variants (without user, runtime, processors or submit time, or partial), "+
			"%d from the original's replay (without runtime, processors or submit time, or too wide)\n", r.LeftOut, r.OriginalDropped)
	}
	if r.OriginalReplay != "" {
		fmt.Fprintf(w, "original: replayed %s\n", map[bool]string{true: "at its recorded times", false: "with " + r.OriginalReplay + ", as the variants"}[r.OriginalReplay == "rigid"])
	}
	for _, s := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", s)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "metric\tunit\toriginal\tmean\t95% CI of mean\tp2.5\tmedian\tp97.5\tmax/min\torig. rank\t")
	g := func(x float64) string {
		if math.IsNaN(x) {
			return "-"
		}
		return fixed5(x)
	}
	// The original's rank is a fraction of the variants, 0 to 1.
	rank := func(x float64) string {
		if math.IsNaN(x) {
			return "-"
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	saturated := ""
	if r.Original != nil && r.Original.Saturated {
		saturated = " (sat.)"
	}
	for _, d := range r.Summary {
		ci := "-"
		if !math.IsNaN(d.CILow) {
			ci = g(d.CILow) + ".." + g(d.CIHigh)
		}
		orig := g(d.Original)
		if orig != "-" {
			orig += saturated
		}
		if d.OutsideRange {
			orig += " !"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", d.Name, replicateUnits[d.Name], orig, g(d.Mean), ci,
			g(d.P2_5), g(d.Median), g(d.P97_5), g(d.MaxMin), rank(d.OriginalRank))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if anyOutside(r.Summary) {
		_, err := fmt.Fprintln(w, "! the original lies outside the variants' range (see hpcwl replicate --help)")
		return err
	}
	return nil
}

// replicateUnits gives the unit of each metric of the replicate table:
// throughput counts the jobs completed in the period, wait and response
// are means in seconds, utilization a fraction of the machine.
var replicateUnits = map[string]string{"throughput": "jobs done", "utilization": "fraction", "wait": "s",
	"response": "s", "slowdown": "ratio", "bounded_slowdown": "ratio", "jobs": "jobs"}

// fixed5 formats x with five significant digits, never in scientific
// notation: 123456.7 is 123457, 0.012345 is 0.012345.
func fixed5(x float64) string {
	ax := math.Abs(x)
	if ax >= 1e5 || ax == 0 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	digits := 5 - int(math.Floor(math.Log10(ax))) - 1
	if digits < 0 {
		digits = 0
	}
	return strconv.FormatFloat(x, 'f', digits, 64)
}

// config builds the replication of one scheduler (opts.scheduler) of the
// log name; warnings about the log go to stderr when it is not nil.
func (opts *replicateOptions) config(name string, stderr io.Writer) (replicate.Config, string, *resample.Pools, error) {
	fail := func(err error) (replicate.Config, string, *resample.Pools, error) {
		return replicate.Config{}, "", nil, err
	}
	mk, schedName, err := opts.schedulerFactory()
	if err != nil {
		return fail(err)
	}
	gen, err := opts.options()
	if err != nil {
		return fail(err)
	}
	tau, err := parseSpan(opts.tau)
	if err != nil || tau <= 0 {
		return fail(usagef("--tau: %v", orPositive(err, opts.tau)))
	}
	regen, err := resample.ParseRegeneration(strings.ToLower(opts.regen))
	if err != nil {
		return fail(usagef("unknown --regen %q; valid: gap, immediate", opts.regen))
	}
	if opts.offGap {
		if regen != resample.RegenGap {
			return fail(usagef("--off-gap contradicts --regen %s", opts.regen))
		}
	}
	if (opts.offGap || opts.regen != "gap") && !opts.feedback {
		return fail(usagef("--regen and --off-gap apply to TBUOS (--feedback) only"))
	}
	if opts.record != "" {
		if !opts.feedback {
			return fail(usagef("--record needs --feedback: a conventional variant's schedule is hpcwl resample then hpcwl simulate --swf"))
		}
		if fi, err := os.Stat(opts.record); err != nil || !fi.IsDir() {
			return fail(usagef("--record %s: not an existing directory", opts.record))
		}
		if err := checkWritable(filepath.Join(opts.record, "variant-0000.swf")); err != nil {
			return fail(fmt.Errorf("--record %s: cannot write: %w", opts.record, err))
		}
	}
	cfg := replicate.Config{Scheduler: mk, Generate: gen, Variants: opts.variants, Workers: opts.workers,
		Tau: sim.Time(tau), SkipOriginal: opts.noOriginal}
	if opts.feedback {
		cfg.Mode = replicate.TBUOS
		cfg.Regen = regen
		if cfg.Feedback, err = opts.feedbackOptions(); err != nil {
			return fail(err)
		}
		if opts.record != "" {
			cfg.RecordNote = fmt.Sprintf("simulated by hpcwl %s: replicate --feedback --scheduler %s --model %s --fluid %s --regen %s --load %v --seed %d (variant = stream)",
				version.String(), schedName, opts.model, opts.fluid, regen, opts.load, opts.seed)
			dir := opts.record
			cfg.Record = func(i int, t *trace.Trace) error {
				return atomicfile.WriteFile(filepath.Join(dir, fmt.Sprintf("variant-%04d.swf", i)), stamped(t).WriteSWF)
			}
		}
	}
	p, err := opts.pools(name)
	if err != nil {
		return fail(err)
	}
	cfg.Pools = p
	if stderr != nil {
		printWarnings(stderr, p.Warnings())
	}
	if cfg.Procs, err = p.Trace.MachineSize(); err != nil {
		return fail(err)
	}
	return cfg, schedName, p, nil
}

// pairedReport is the JSON form of replicate with several schedulers.
type pairedReport struct {
	Version    string             `json:"hpcwl_version"`
	Input      string             `json:"input"`
	SHA256     string             `json:"sha256"`
	Schedulers []*replicateReport `json:"schedulers"`
	// Paired compares each scheduler after the first with the first.
	Paired []pairedComparison `json:"paired"`
}

type pairedComparison struct {
	A       string             `json:"a"`
	B       string             `json:"b"`
	Metrics []replicate.Paired `json:"metrics"`
}

// runReplicatePaired replicates the log under each scheduler on the same
// variants and reports each metric's paired difference from the first.
func runReplicatePaired(ctx context.Context, opts replicateOptions, names []string, name string, stdout, stderr io.Writer) error {
	if opts.csvOut != "" || opts.runsOut != "" || opts.record != "" {
		return usagef("with several schedulers replicate prints its tables (or --json); --csv, --runs and --record take one scheduler")
	}
	rep := pairedReport{Version: version.String(), Input: name}
	start := time.Now()
	for i, s := range names {
		o := opts
		o.scheduler = strings.TrimSpace(s)
		var warn io.Writer
		if i == 0 {
			warn = stderr
		}
		cfg, schedName, p, err := o.config(name, warn)
		if err != nil {
			return err
		}
		cfg.Progress = newBar(stderr, opts.variants, schedName)
		res, err := replicate.Run(ctx, cfg)
		if err != nil {
			return generatorError(err)
		}
		rep.SHA256 = p.Trace.SHA256
		rep.Schedulers = append(rep.Schedulers, &replicateReport{Version: version.String(), Input: name, SHA256: p.Trace.SHA256,
			Scheduler: schedName, Procs: cfg.Procs, Seed: cfg.Generate.Seed, Workers: opts.workers, Result: res})
	}
	fmt.Fprintf(stderr, "%d variants x %d schedulers in %.1f s\n", opts.variants, len(names), time.Since(start).Seconds())
	first := rep.Schedulers[0]
	for _, r := range rep.Schedulers[1:] {
		ps, err := replicate.PairedDiffs(first.Result, r.Result)
		if err != nil {
			return err
		}
		rep.Paired = append(rep.Paired, pairedComparison{A: first.Scheduler, B: r.Scheduler, Metrics: ps})
	}
	if opts.json {
		// Each scheduler's report as replicate --json writes it alone.
		scheds := make([]any, len(rep.Schedulers))
		for i, r := range rep.Schedulers {
			scheds[i] = jsonSafe(*r)
		}
		return writeJSON(stdout, struct {
			pairedReport
			Schedulers []any `json:"schedulers"`
		}{rep, scheds}) // writeJSON writes NaN (no interval) as null
	}
	for _, r := range rep.Schedulers {
		if err := printReplicate(stdout, r); err != nil {
			return err
		}
		fmt.Fprintln(stdout)
	}
	g := func(x float64) string {
		if math.IsNaN(x) {
			return "-"
		}
		return fixed5(x)
	}
	for _, c := range rep.Paired {
		fmt.Fprintf(stdout, "paired: %s - %s over the same variants (saturated in either left out); 95%% CI by Student's t\n", c.B, c.A)
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "metric\tunit\tvariants\tmean %s\tmean %s\tdifference\t95%% CI\t%s lower\t\n", c.A, c.B, c.B)
		for _, p := range c.Metrics {
			ci := "-"
			if !math.IsNaN(p.CILow) {
				ci = g(p.CILow) + ".." + g(p.CIHigh)
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%d\t\n", p.Metric, replicateUnits[p.Metric], p.N, g(p.MeanA), g(p.MeanB), g(p.Diff), ci, p.Lower)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}
