package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/hpcwl/hpcwl/bursty"
	"github.com/hpcwl/hpcwl/figure"
	"github.com/hpcwl/hpcwl/locality"
	"github.com/hpcwl/hpcwl/metrics"
	"github.com/hpcwl/hpcwl/report"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/scorecard"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/summary"
	"github.com/hpcwl/hpcwl/trace"
)

func init() { register(newReportCommand) }

// reportOptions are the options of `hpcwl report`.
type reportOptions struct {
	trace     traceFlags
	out       string
	scheduler string
	vs        string
	oversize  string
	seed      uint64
}

func newReportCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts reportOptions
	cmd := &cobra.Command{
		Use:   "report TRACE [OTHER] -o FILE",
		Short: "Write a report on a log: its characterization and figures, as HTML or Markdown",
		Long: `Report writes one page on a log: what hpcwl info prints, as tables; the
CDFs of runtime, size, inter-arrival time and wait; the daily and weekly cycles
of arrivals; the pox plot of the arrivals; and the utilization and queue
length over time of the log replayed under --scheduler (default easy; "none"
leaves the simulation out).

With a second workload OTHER (a resampled variant, a generated log, another
log), the page adds a comparison: the realism scorecard of OTHER against
TRACE (hpcwl compare --scorecard: per-feature distance and verdict, close,
differs or far, with the bounds of each) and the CDFs and cycles of both
drawn together.

With --vs fcfs,easy,conservative the simulated section replays the log under
each scheduler instead: a table of the mean wait, slowdown and bounded
slowdown with their batch-means 95% confidence intervals (as hpcwl simulate
prints them), each scheduler after the first paired with it job by job
(the mean difference with its interval, as hpcwl simulate --scheduler a,b,c),
the CDF of the simulated waits of every scheduler, and the utilization and
queue length of all of them together.

The format comes from the extension of -o: .html (or .htm) gives one
self-contained HTML page, the figures inline as SVG, nothing fetched from the
network; .md gives the same content as Markdown, each figure an image whose
source is an SVG data URI. The page ends with its provenance (version,
command line, input SHA-256), which each figure's <desc> repeats.` + exitStatusHelp,
		Example: `  hpcwl report builtin:KTH-SP2 -o kth-report.html
  hpcwl report builtin:KTH-SP2 -o kth-report.md
  hpcwl report builtin:KTH-SP2 --scheduler none -o kth-log-only.html
  hpcwl resample builtin:KTH-SP2 --seed 3 -o kth-r.swf
  hpcwl report builtin:KTH-SP2 kth-r.swf -o kth-vs-resampled.html
  hpcwl report builtin:KTH-SP2 --vs fcfs,easy,conservative -o kth-schedulers.md`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usagef("report expects TRACE and at most one OTHER workload, got %d argument(s)", len(args))
			}
			return nil
		},
		RunE: action(func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("scheduler") && cmd.Flags().Changed("vs") {
				return usagef("give --scheduler or --vs, not both")
			}
			return runReport(cmd.Context(), opts, args, stdout, stderr)
		}),
	}
	opts.trace.add(cmd)
	f := cmd.Flags()
	f.StringVarP(&opts.out, "output", "o", "", "write the report to `FILE` (.html, .htm or .md; required)")
	f.StringVar(&opts.scheduler, "scheduler", "easy", "scheduler of the simulated section, or none: "+strings.Join(sched.Names(), ", "))
	f.StringVar(&opts.vs, "vs", "", "replay the log under each of these comma-separated schedulers and compare them (e.g. fcfs,easy,conservative)")
	f.StringVar(&opts.oversize, "oversize", "drop", "jobs wider than the machine: drop, error, clamp")
	f.Uint64Var(&opts.seed, "seed", 1, "seed of the scorecard's shuffles (with OTHER), as hpcwl compare --scorecard --seed")
	return cmd
}

// reportFormat returns "html" or "md" from the output's extension.
func reportFormat(name string) (string, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".html", ".htm":
		return "html", nil
	case ".md":
		return "md", nil
	}
	return "", usagef("cannot tell the report format of %q from its extension; use .html or .md", name)
}

func runReport(ctx context.Context, opts reportOptions, names []string, stdout, stderr io.Writer) error {
	if opts.out == "" {
		return usagef("report needs -o FILE (.html or .md)")
	}
	format, err := reportFormat(opts.out)
	if err != nil {
		return err
	}
	if err := checkOutputs(names, output{"-o", opts.out}); err != nil {
		return err
	}
	var vs []string
	if opts.vs != "" {
		for _, n := range strings.Split(opts.vs, ",") {
			n = strings.TrimSpace(n)
			if n == "" || strings.EqualFold(n, "none") {
				return usagef("--vs %q: give scheduler names separated by commas, e.g. fcfs,easy,conservative", opts.vs)
			}
			vs = append(vs, n)
		}
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
	t := logs[0]
	s := summary.Of(t)
	if s.HeaderGaps.Any() {
		fmt.Fprintf(stderr, "warning: %s: %s; loads use the %s\n", names[0], s.HeaderGaps.String(), s.LoadPeriod)
	}
	// The comparison is made while the log's own sections are.
	var cmp report.Section
	var cmpErr error
	var wg sync.WaitGroup
	if len(logs) > 1 {
		wg.Go(func() { cmp, cmpErr = comparisonSection(t, logs[1], opts.seed) })
	}
	r, err := logReport(ctx, t, s, opts, vs)
	wg.Wait()
	if err != nil {
		return err
	}
	if len(logs) > 1 {
		sec, err := cmp, cmpErr
		if err != nil {
			return err
		}
		// The comparison follows the log's own figures, before the
		// simulated schedules.
		at := min(len(r.Sections), 4)
		r.Sections = append(r.Sections[:at], append([]report.Section{sec}, r.Sections[at:]...)...)
	}
	return writeOutput(opts.out, stdout, func(w io.Writer) error {
		if format == "md" {
			return r.WriteMarkdown(w)
		}
		return r.WriteHTML(w)
	})
}

// logReport gathers the sections of the report on t: characterization,
// distributions, cycles, self-similarity, then the simulated schedule
// (under opts.scheduler) or the schedulers compared (vs).
func logReport(ctx context.Context, t *trace.Trace, s *summary.Summary, opts reportOptions, vs []string) (*report.Report, error) {
	r := &report.Report{Title: "Workload log " + t.Name, Provenance: figureProvenance()}
	r.Sections = append(r.Sections, report.Section{Heading: "Characterization",
		Text: "What hpcwl info prints; times in seconds.", Tables: infoTables(infoLines(s, bursty.Summarize(t)))})
	dists := report.Section{Heading: "Distributions"}
	var unknown []string
	for _, v := range figure.Variables {
		f, err := figure.CDF(v, t)
		if nv := (*figure.NoValuesError)(nil); errors.As(err, &nv) {
			unknown = append(unknown, v.String())
			continue
		}
		if err != nil {
			return nil, err
		}
		dists.Figures = append(dists.Figures, report.Figure{ID: v.String(), Caption: "CDF of " + v.String() + " (log scale)", Figure: f})
	}
	if len(unknown) > 0 {
		dists.Text = "Not drawn, unknown for every job of the log: " + strings.Join(unknown, ", ") + "."
	}
	cycles := report.Section{Heading: "Arrival cycles"}
	for _, c := range []figure.Cycle{figure.Daily, figure.Weekly} {
		f, err := figure.Arrivals(c, t)
		if err != nil {
			return nil, err
		}
		cycles.Figures = append(cycles.Figures, report.Figure{ID: c.String(), Caption: "Fraction of jobs submitted per hour, " + c.String() + " cycle, local time", Figure: f})
	}
	self := report.Section{Heading: "Self-similarity"}
	if h := locality.Hurst(t, locality.HurstOptions{}); !math.IsNaN(h.H) {
		f, err := figure.Pox(t.Name, "hours", h)
		if err != nil {
			return nil, err
		}
		self.Text = fmt.Sprintf("Rescaled range of the jobs submitted per hour (hpcwl compare's Hurst parameter): H = %.3f; 0.5 for independent arrivals, above it for bursts that persist over many scales.", h.H)
		self.Figures = append(self.Figures, report.Figure{ID: "pox", Caption: "Pox plot of the arrivals per hour: R/S of every block against its size, with the least-squares line of slope H", Figure: f})
	} else {
		self.Text = "The log is too short for a rescaled-range analysis of its hourly arrivals."
	}
	r.Sections = append(r.Sections, dists, cycles, self)
	if len(vs) > 0 {
		sec, err := schedulersSection(ctx, t, vs, opts)
		if err != nil {
			return nil, err
		}
		r.Sections = append(r.Sections, sec)
		return r, nil
	}
	if strings.EqualFold(opts.scheduler, "none") {
		return r, nil
	}
	res, err := plotSimulate(ctx, t, opts.scheduler, plotOptions{oversize: opts.oversize})
	if err != nil {
		return nil, err
	}
	simSec := report.Section{Heading: "Simulated schedule",
		Text: fmt.Sprintf("The log replayed under %s on %d processors (hpcwl simulate %s --scheduler %s).", opts.scheduler, res.Procs, t.Name, opts.scheduler)}
	for _, m := range []figure.Measure{figure.Utilization, figure.QueueLength} {
		f, err := figure.Over(m, 0, figure.Schedule{Name: opts.scheduler, Result: res})
		if err != nil {
			return nil, err
		}
		simSec.Figures = append(simSec.Figures, report.Figure{ID: m.String(), Caption: m.String() + " over time under " + opts.scheduler, Figure: f})
	}
	r.Sections = append(r.Sections, simSec)
	return r, nil
}

// comparisonSection scores other against t (the realism scorecard) and
// draws the distributions and cycles of both together.
func comparisonSection(t, other *trace.Trace, seed uint64) (report.Section, error) {
	card, err := scorecard.Compare(t, other, scorecard.Options{Seed: seed})
	if err != nil {
		return report.Section{}, err
	}
	sec := report.Section{Heading: "Comparison with " + other.Name,
		Text:   "Realism scorecard (hpcwl compare --scorecard): " + scorecardSummary(card),
		Tables: []report.Table{scorecardTable(card)}}
	known := map[string]bool{}
	for _, r := range card.Rows {
		known[r.Feature] = r.N[0] > 0 && r.N[1] > 0
	}
	for _, v := range []struct {
		v       figure.Variable
		feature string
	}{{figure.Runtime, "runtime"}, {figure.Size, "size"}, {figure.InterArrival, "inter-arrival"}} {
		if !known[v.feature] {
			continue // unknown in one of the logs: the scorecard says so
		}
		f, err := figure.CDF(v.v, t, other)
		if err != nil {
			return report.Section{}, err
		}
		sec.Figures = append(sec.Figures, report.Figure{ID: "compare-" + v.v.String(),
			Caption: "CDF of " + v.v.String() + ": " + t.Name + " and " + other.Name, Figure: f})
	}
	for _, c := range []figure.Cycle{figure.Daily, figure.Weekly} {
		f, err := figure.Arrivals(c, t, other)
		if err != nil {
			return report.Section{}, err
		}
		sec.Figures = append(sec.Figures, report.Figure{ID: "compare-" + c.String(),
			Caption: c.String() + " cycle of arrivals: " + t.Name + " and " + other.Name, Figure: f})
	}
	return sec, nil
}

// reportCILevel is the level of the schedulers' confidence intervals, the
// default of hpcwl simulate --ci-level.
const reportCILevel = 0.95

// schedulersSection replays t under each scheduler (in parallel) and
// compares their metrics and waits.
func schedulersSection(ctx context.Context, t *trace.Trace, names []string, opts reportOptions) (report.Section, error) {
	results := make([]*sim.Result, len(names))
	sums := make([]*metrics.Summary, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() {
			results[i], errs[i] = plotSimulate(ctx, t, name, plotOptions{oversize: opts.oversize})
			if errs[i] == nil {
				sums[i], errs[i] = metrics.Compute(results[i], metrics.Options{CILevel: reportCILevel, Clock: t.Clock(), NoGroups: true})
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return report.Section{}, err
		}
	}
	tab := report.Table{Header: []string{"scheduler", "jobs", "mean wait", "95% CI", "median wait",
		"mean slowdown", "95% CI", "mean bounded slowdown (10 s)", "95% CI", "utilization", "backfilled"}}
	runs := make([]figure.Schedule, len(names))
	for i, name := range names {
		runs[i] = figure.Schedule{Name: name, Result: results[i]}
		m := sums[i]
		ci := func(iv *metrics.Interval, f func(float64) string) string {
			switch {
			case m.CI == nil:
				return "-"
			case iv.Note != "":
				return "n/a (run too short)"
			}
			return f(iv.Low) + " .. " + f(iv.High)
		}
		num := func(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }
		var cw, cs, cb *metrics.Interval
		if m.CI != nil {
			cw, cs, cb = &m.CI.Wait, &m.CI.Slowdown, &m.CI.BoundedSlowdown
		}
		tab.Rows = append(tab.Rows, []string{name, strconv.Itoa(m.Jobs), durationText(m.Wait.Mean), ci(cw, durationText),
			durationText(m.Wait.Median), num(m.Slowdown.Mean), ci(cs, num), num(m.BoundedSlowdown.Mean), ci(cb, num),
			fmt.Sprintf("%.1f%%", 100*m.Utilization), fmt.Sprintf("%.1f%%", 100*m.Backfilled)})
	}
	sec := report.Section{Heading: "Schedulers compared",
		Text: fmt.Sprintf("The log replayed under %s on %d processors (hpcwl simulate %s --scheduler %s); the 95%% confidence intervals of the means are by batch means over the jobs in arrival order, as hpcwl simulate prints them. The second table pairs each scheduler with %s job by job: the mean difference (this one minus %s) with its batch-means interval, and how many jobs fare better or worse.",
			strings.Join(names, ", "), results[0].Procs, t.Name, strings.Join(names, ","), names[0], names[0]),
		Tables: []report.Table{tab}}
	if len(names) > 1 {
		pt, err := pairedTable(names, results)
		if err != nil {
			return report.Section{}, err
		}
		sec.Tables = append(sec.Tables, pt)
	}
	f, err := figure.Waits(runs...)
	if err != nil {
		return report.Section{}, err
	}
	sec.Figures = append(sec.Figures, report.Figure{ID: "wait-schedulers", Caption: "CDF of the simulated waits under " + strings.Join(names, ", "), Figure: f})
	for _, m := range []figure.Measure{figure.Utilization, figure.QueueLength} {
		f, err := figure.Over(m, 0, runs...)
		if err != nil {
			return report.Section{}, err
		}
		sec.Figures = append(sec.Figures, report.Figure{ID: m.String(), Caption: m.String() + " over time under " + strings.Join(names, ", "), Figure: f})
	}
	return sec, nil
}

// infoTables turns the lines of hpcwl info into tables: one per block of
// lines; a block whose first line starts with a tab (the quantiles) has
// that line as its header.
func infoTables(lines []string) []report.Table {
	var tables []report.Table
	var cur *report.Table
	for _, l := range lines {
		if l == "" {
			cur = nil
			continue
		}
		cells := strings.Split(l, "\t")
		if cur == nil {
			tables = append(tables, report.Table{})
			cur = &tables[len(tables)-1]
			if cells[0] == "" {
				cur.Header = cells
				continue
			}
		}
		cur.Rows = append(cur.Rows, cells)
	}
	return tables
}

// pairedTable compares every run after the first with the first, job by
// job (metrics.PairedDiffs, as hpcwl simulate with several schedulers).
func pairedTable(names []string, results []*sim.Result) (report.Table, error) {
	tab := report.Table{Header: []string{"scheduler", "metric", "paired jobs", "mean under " + names[0], "mean", "difference", "95% CI", "lower", "higher"}}
	for i := 1; i < len(names); i++ {
		ds, err := metrics.PairedDiffs(results[0], results[i], metrics.Options{CILevel: reportCILevel})
		if err != nil {
			return report.Table{}, fmt.Errorf("comparing %s with %s: %w", names[i], names[0], err)
		}
		for _, d := range ds {
			f := func(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }
			if d.Metric == "wait" || d.Metric == "response" {
				f = func(x float64) string {
					if x < 0 {
						return "-" + durationText(-x) // a difference may be negative
					}
					return durationText(x)
				}
			}
			ci := "n/a (run too short)"
			if d.Diff.Note == "" {
				ci = f(d.Diff.Low) + " .. " + f(d.Diff.High)
			}
			tab.Rows = append(tab.Rows, []string{names[i], strings.ReplaceAll(d.Metric, "_", " "), strconv.Itoa(d.Jobs),
				f(d.A), f(d.B), f(d.Diff.Mean), ci, strconv.Itoa(d.Lower), strconv.Itoa(d.Higher)})
		}
	}
	return tab, nil
}
