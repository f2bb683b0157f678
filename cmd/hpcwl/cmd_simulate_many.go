package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/metrics"
	"github.com/hpcwl/hpcwl/sched"
)

// schedulerNames splits --scheduler into the schedulers it names: several
// are separated by commas. An external scheduler (exec:COMMAND) is taken
// whole, since its command may hold commas, and so runs alone.
func schedulerNames(s string) []string {
	if strings.HasPrefix(strings.TrimSpace(strings.ToLower(s)), "exec:") {
		return []string{s}
	}
	var out []string
	for _, n := range strings.Split(s, ",") {
		out = append(out, strings.TrimSpace(n))
	}
	return out
}

// simulateManyReport is the JSON form of `hpcwl simulate` with several
// schedulers.
type simulateManyReport struct {
	Version string `json:"hpcwl_version"`
	// Runs holds each scheduler's report, in the order given.
	Runs []simulateReport `json:"runs"`
	// Paired compares every scheduler after the first with the first, job
	// by job.
	Paired []simulatePaired `json:"paired"`
}

// simulatePaired is one scheduler against the first, job by job.
type simulatePaired struct {
	A     string           `json:"a"`
	B     string           `json:"b"`
	Diffs []metrics.Paired `json:"differences"`
}

// runSimulateMany simulates the log under each scheduler in turn, with the
// same options, and compares each with the first, job by job.
func runSimulateMany(ctx context.Context, opts simulateOptions, names []string, name string, stdout, stderr io.Writer) error {
	for _, o := range []output{{"--jobs", opts.jobsOut}, {"--swf", opts.swfOut}, {"--cycle", opts.cycleOut}, {"--outstanding", opts.outstandingOut}} {
		if o.name != "" {
			return usagef("%s writes one run: with several schedulers, run simulate once per scheduler (or hpcwl sweep)", o.flag)
		}
	}
	switch {
	case opts.baseline != "":
		return usagef("--baseline compares one scheduler with another: with several schedulers, each is compared with the first")
	case len(opts.params) > 0:
		return usagef("--param sets one scheduler's parameters: with several schedulers, run simulate once per scheduler (or hpcwl sweep)")
	}
	seen := map[string]bool{}
	for _, n := range names {
		key := strings.ToLower(n)
		switch {
		case n == "":
			return usagef("--scheduler %q: an empty name in the list", opts.scheduler)
		case strings.HasPrefix(key, "exec:"):
			return usagef("--scheduler %q: an external scheduler runs alone", opts.scheduler)
		case seen[key]:
			return usagef("--scheduler %q: %s appears twice", opts.scheduler, n)
		}
		seen[key] = true
		if _, err := sched.NewWithOptions(n, sched.Options{}); err != nil {
			return usageError{err}
		}
	}
	rep := simulateManyReport{Version: version.String()}
	var runs []*simulateRun
	for _, n := range names {
		o := opts
		o.scheduler = n
		run, err := simulate(ctx, o, name)
		if err != nil {
			return fmt.Errorf("scheduler %s: %w", n, err)
		}
		for _, w := range run.report.Steady.Warnings {
			fmt.Fprintf(stderr, "warning: %s under %s: %s\n", name, n, w)
		}
		runs = append(runs, run)
		rep.Runs = append(rep.Runs, run.report)
	}
	for _, run := range runs[1:] {
		mo := run.metricsOptions
		if mo.CILevel == 0 {
			mo.CILevel = 0.95
		}
		d, err := metrics.PairedDiffs(runs[0].res, run.res, mo)
		if err != nil {
			return fmt.Errorf("comparing %s with %s: %w", run.report.Parameters.Scheduler, runs[0].report.Parameters.Scheduler, err)
		}
		rep.Paired = append(rep.Paired, simulatePaired{A: runs[0].report.Parameters.Scheduler, B: run.report.Parameters.Scheduler, Diffs: d})
	}
	if opts.json {
		return writeJSON(stdout, rep)
	}
	return printSimulateMany(stdout, &rep)
}

// printSimulateMany prints the schedulers' figures side by side and the
// paired differences.
func printSimulateMany(w io.Writer, r *simulateManyReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format+"\n", a...) }
	first := r.Runs[0]
	in, par := first.Input, first.Parameters
	p("trace\t%s: %d jobs, %d simulated", in.Name, in.Jobs, in.Simulated)
	p("machine\t%d processors, speed %v", par.Procs, par.Speed)
	kill := "jobs run past their requested time"
	if par.Kill {
		kill = "jobs killed at their requested time"
	}
	p("runs\tpredictor %s; %s", par.Predictor, kill)
	p("")
	head := ""
	for _, run := range r.Runs {
		head += "\t" + run.Parameters.Scheduler
	}
	p("%s", head)
	row := func(label string, f func(m *metrics.Summary) string) {
		line := label
		for i := range r.Runs {
			line += "\t" + f(r.Runs[i].Metrics)
		}
		p("%s", line)
	}
	ci := func(iv func(c *metrics.Intervals) *metrics.Interval, secs bool) func(m *metrics.Summary) string {
		return func(m *metrics.Summary) string {
			if m.CI == nil {
				return "-"
			}
			c := iv(m.CI)
			if c.Note != "" {
				return "n/a"
			}
			if secs {
				return durationText(c.Low) + " .. " + durationText(c.High)
			}
			return strconv.FormatFloat(c.Low, 'f', 2, 64) + " .. " + strconv.FormatFloat(c.High, 'f', 2, 64)
		}
	}
	num := func(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }
	row("jobs measured", func(m *metrics.Summary) string { return strconv.Itoa(m.Jobs) })
	row("mean wait", func(m *metrics.Summary) string { return durationText(m.Wait.Mean) })
	if first.Metrics.CI != nil {
		row(fmt.Sprintf("  %g%% CI", 100*par.CILevel), ci(func(c *metrics.Intervals) *metrics.Interval { return &c.Wait }, true))
	}
	row("median wait", func(m *metrics.Summary) string { return durationText(m.Wait.Median) })
	row("p95 wait", func(m *metrics.Summary) string { return durationText(m.Wait.P95) })
	row("mean response", func(m *metrics.Summary) string { return durationText(m.Response.Mean) })
	row("mean slowdown", func(m *metrics.Summary) string { return num(m.Slowdown.Mean) })
	row(fmt.Sprintf("mean bounded slowdown (%ds)", first.Metrics.Tau), func(m *metrics.Summary) string { return num(m.BoundedSlowdown.Mean) })
	if first.Metrics.CI != nil {
		row(fmt.Sprintf("  %g%% CI", 100*par.CILevel), ci(func(c *metrics.Intervals) *metrics.Interval { return &c.BoundedSlowdown }, false))
	}
	row("utilization", func(m *metrics.Summary) string { return fmt.Sprintf("%.1f%%", 100*m.Utilization) })
	row("makespan", func(m *metrics.Summary) string { return fmt.Sprintf("%.2f days", float64(m.Makespan)/86400) })
	row("throughput", func(m *metrics.Summary) string { return fmt.Sprintf("%.1f jobs/week", m.Throughput) })
	row("mean queue length", func(m *metrics.Summary) string { return fmt.Sprintf("%.1f", m.QueueMean) })
	row("backfilled", func(m *metrics.Summary) string { return fmt.Sprintf("%.1f%%", 100*m.Backfilled) })
	for _, pr := range r.Paired {
		p("")
		p("%s - %s, job by job\tmean %s\tmean %s\tdifference\t%g%% CI (batch means)\tlower\thigher", pr.B, pr.A, pr.A, pr.B, 100*levelOf(pr.Diffs))
		for _, d := range pr.Diffs {
			secs := d.Metric == "wait" || d.Metric == "response"
			f := num
			if secs {
				f = plusDuration
			}
			interval := "n/a (run too short)"
			if d.Diff.Note == "" {
				interval = f(d.Diff.Low) + " .. " + f(d.Diff.High)
			}
			a, b := num(d.A), num(d.B)
			if secs {
				a, b = durationText(d.A), durationText(d.B)
			}
			p("%s\t%s\t%s\t%s\t%s\t%d\t%d", strings.ReplaceAll(d.Metric, "_", " "), a, b, f(d.Diff.Mean), interval, d.Lower, d.Higher)
		}
	}
	if len(r.Paired) > 0 {
		p("")
		p("\t(%d jobs paired; lower and higher count the jobs whose value is lower or higher under the second scheduler)", r.Paired[0].Diffs[0].Jobs)
	}
	return tw.Flush()
}

// levelOf returns the confidence level of the differences.
func levelOf(ds []metrics.Paired) float64 {
	if len(ds) == 0 {
		return 0
	}
	return ds[0].Diff.Level
}

// plusDuration is signedDuration with a plus sign for positive values.
func plusDuration(s float64) string {
	if s > 0 {
		return "+" + durationText(s)
	}
	return signedDuration(s)
}
