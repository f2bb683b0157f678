package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hpcwl/hpcwl/bursty"
	"github.com/hpcwl/hpcwl/figure"
	"github.com/hpcwl/hpcwl/report"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/summary"
	"github.com/hpcwl/hpcwl/trace"
)

func init() { register(newReportCommand) }

// reportOptions are the options of `hpcwl report`.
type reportOptions struct {
	trace     traceFlags
	out       string
	scheduler string
	oversize  string
}

func newReportCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts reportOptions
	cmd := &cobra.Command{
		Use:   "report TRACE -o FILE",
		Short: "Write a report on a log: its characterization and figures, as HTML or Markdown",
		Long: `Report writes one page on a log: what hpcwl info prints, as tables; the
CDFs of runtime, size, inter-arrival time and wait; the daily and weekly cycles
of arrivals; and the utilization and queue length over time of the log replayed
under --scheduler (default easy; "none" leaves the simulation out).

The format comes from the extension of -o: .html (or .htm) gives one
self-contained HTML page, the figures inline as SVG, nothing fetched from the
network; .md gives the same content as Markdown, each figure an image whose
source is an SVG data URI. The page ends with its provenance (version,
command line, input SHA-256), which each figure's <desc> repeats.` + exitStatusHelp,
		Example: `  hpcwl report builtin:KTH-SP2 -o kth-report.html
  hpcwl report builtin:KTH-SP2 -o kth-report.md
  hpcwl report builtin:KTH-SP2 --scheduler none -o kth-log-only.html`,
		Args: exactArgs(1, "one TRACE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runReport(cmd.Context(), opts, args[0], stdout, stderr)
		}),
	}
	opts.trace.add(cmd)
	f := cmd.Flags()
	f.StringVarP(&opts.out, "output", "o", "", "write the report to `FILE` (.html, .htm or .md; required)")
	f.StringVar(&opts.scheduler, "scheduler", "easy", "scheduler of the simulated section, or none: "+strings.Join(sched.Names(), ", "))
	f.StringVar(&opts.oversize, "oversize", "drop", "jobs wider than the machine: drop, error, clamp")
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

func runReport(ctx context.Context, opts reportOptions, name string, stdout, stderr io.Writer) error {
	if opts.out == "" {
		return usagef("report needs -o FILE (.html or .md)")
	}
	format, err := reportFormat(opts.out)
	if err != nil {
		return err
	}
	if err := checkOutputs([]string{name}, output{"-o", opts.out}); err != nil {
		return err
	}
	t, err := opts.trace.load(name)
	if err != nil {
		return err
	}
	if t.Len() == 0 {
		return fmt.Errorf("%s: the log holds no jobs", name)
	}
	s := summary.Of(t)
	if s.HeaderGaps.Any() {
		fmt.Fprintf(stderr, "warning: %s: %s; loads use the %s\n", name, s.HeaderGaps.String(), s.LoadPeriod)
	}
	r, err := logReport(ctx, t, s, opts)
	if err != nil {
		return err
	}
	return writeOutput(opts.out, stdout, func(w io.Writer) error {
		if format == "md" {
			return r.WriteMarkdown(w)
		}
		return r.WriteHTML(w)
	})
}

// logReport gathers the sections of the report on t.
func logReport(ctx context.Context, t *trace.Trace, s *summary.Summary, opts reportOptions) (*report.Report, error) {
	r := &report.Report{Title: "Workload log " + t.Name, Provenance: figureProvenance()}
	r.Sections = append(r.Sections, report.Section{Heading: "Characterization",
		Text: "What hpcwl info prints; times in seconds.", Tables: infoTables(infoLines(s, bursty.Summarize(t)))})
	dists := report.Section{Heading: "Distributions"}
	for _, v := range figure.Variables {
		f, err := figure.CDF(v, t)
		if err != nil {
			return nil, err
		}
		dists.Figures = append(dists.Figures, report.Figure{ID: v.String(), Caption: "CDF of " + v.String() + " (log scale)", Figure: f})
	}
	cycles := report.Section{Heading: "Arrival cycles"}
	for _, c := range []figure.Cycle{figure.Daily, figure.Weekly} {
		f, err := figure.Arrivals(c, t)
		if err != nil {
			return nil, err
		}
		cycles.Figures = append(cycles.Figures, report.Figure{ID: c.String(), Caption: "Fraction of jobs submitted per hour, " + c.String() + " cycle, local time", Figure: f})
	}
	r.Sections = append(r.Sections, dists, cycles)
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
