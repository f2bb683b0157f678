package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hpcwl/hpcwl/bursty"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/summary"
	"github.com/spf13/cobra"
)

func init() { register(newInfoCommand) }

// infoOptions are the options of `hpcwl info`.
type infoOptions struct {
	trace traceFlags
	json  bool
}

func newInfoCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts infoOptions
	cmd := &cobra.Command{
		Use:   "info TRACE",
		Short: "Summarize a workload log",
		Long: `Info prints what a researcher wants to know first about a log: jobs, users,
period, machine size, offered load and utilization, quantiles of runtime,
processors, inter-arrival time and requested time, estimate accuracy, the
fractions of serial and power-of-two jobs, and the workload variables of
Talby's thesis (Tables 2 and 3: JD, RL, CL, UJ, EJ, medians and 90% intervals).

Offered load is the sum of runtime x processors over machine size x period,
the period running from the log's start (its UnixStartTime, relative time 0) to
the last submit. When the header's start comes more than 28 days before the
first job (or its EndTime more than 28 days after the last), the gap is
reported and the loads use the submit span (first to last submit) instead;
"load period" says which period they use. Utilization counts only
the processor time that the log's own schedule (submit + wait .. + runtime)
places inside that period; it is n/a when every wait is unknown.` + exitStatusHelp,
		Example: `  hpcwl info builtin:KTH-SP2
  hpcwl info --json CTC-SP2-1996-3.1-cln.swf.gz
  hpcwl info --procs 430 CTC-SP2-1996-3.1-cln.swf.gz
  hpcwl info builtin:KTH-SP2 SDSC-SP2-1998-4.2-cln.swf.gz CTC-SP2-1996-3.1-cln.swf.gz`,
		Args: minArgs(1, "one TRACE or more"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return runInfoSideBySide(cmd.Context(), opts, args, stdout, stderr)
			}
			return runInfo(cmd.Context(), opts, args[0], stdout, stderr)
		}),
	}
	opts.trace.add(cmd)
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the summary as JSON")
	return cmd
}

// infoReport is the JSON form of `hpcwl info`.
type infoReport struct {
	Version string `json:"hpcwl_version"`
	*summary.Summary
	// Bursts is the bag-of-tasks and burstiness summary (hpcwl bursts);
	// null when no job is recorded as successful.
	Bursts *bursty.Brief `json:"bursts"`
}

func runInfo(_ context.Context, opts infoOptions, name string, stdout, stderr io.Writer) error {
	t, err := opts.trace.load(name)
	if err != nil {
		return err
	}
	if t.Len() == 0 {
		return fmt.Errorf("%s: the log holds no jobs", name)
	}
	s := summary.Of(t)
	b := bursty.Summarize(t)
	if s.HeaderGaps.Any() {
		fmt.Fprintf(stderr, "warning: %s: %s; loads use the %s\n", name, s.HeaderGaps.String(), s.LoadPeriod)
	}
	if opts.json {
		return writeJSON(stdout, infoReport{Version: version.String(), Summary: s, Bursts: b})
	}
	return printInfo(stdout, s, b)
}

func printInfo(w io.Writer, s *summary.Summary, b *bursty.Brief) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, l := range infoLines(s, b) {
		fmt.Fprintln(tw, l)
	}
	return tw.Flush()
}

// infoLines returns the lines `hpcwl info` prints, cells separated by tabs,
// blocks (facts, quantiles, Talby variables, bursts) by empty lines; the
// report command lays out the same lines as tables.
func infoLines(s *summary.Summary, b *bursty.Brief) []string {
	var lines []string
	p := func(format string, a ...any) { lines = append(lines, fmt.Sprintf(format, a...)) }
	p("log\t%s", s.Name)
	p("jobs\t%d", s.Jobs)
	p("users\t%d", s.Users)
	p("period\t%s .. %s (%.1f days)", s.StartTime, s.EndTime, s.Days)
	if s.Procs > 0 {
		p("machine\t%d processors", s.Procs)
	} else {
		p("machine\tunknown (pass --procs N)")
	}
	if s.HeaderGaps.Any() {
		p("header gaps\t%s", s.HeaderGaps.String())
	}
	p("load period\t%s (%.1f days)", s.LoadPeriod, s.LoadDays)
	p("offered load\t%s", pct(float64(s.OfferedLoad)))
	util := pct(float64(s.Utilization))
	if math.IsNaN(float64(s.Utilization)) && s.Procs > 0 {
		util += " (no recorded schedule: every wait unknown)"
	}
	p("utilization\t%s", util)
	p("serial jobs\t%s", pct(s.Serial))
	p("power-of-two\t%s of parallel jobs", pct(s.PowerOfTwo))
	var st, other []string
	for _, c := range s.StatusCounts() {
		if code, ok := strings.CutPrefix(c.Name, "code_"); ok {
			other = append(other, fmt.Sprintf("%s: %d", code, c.Count))
		} else {
			st = append(st, fmt.Sprintf("%s %d", c.Name, c.Count))
		}
	}
	if len(other) > 0 {
		st[len(st)-1] += "; other codes " + strings.Join(other, ", ")
	}
	p("status\t%s", strings.Join(st, ", "))
	if s.Unrunnable > 0 {
		p("unrunnable\t%s without runtime or processors: kept in counts and inter-arrivals, in the runtime or size rows when that value is known, left out of the load", plural(s.Unrunnable, "job", "jobs"))
	}
	if s.ReadAsUnknown.Any() {
		p("read as unknown\t%s", s.ReadAsUnknown.String())
	}
	if s.Estimates.Jobs > 0 {
		p("estimates\t%d jobs: %s failed early, %s reached the estimate, %s normal",
			s.Estimates.Jobs, pct(s.Estimates.Failed), pct(s.Estimates.Killed), pct(s.Estimates.Normal))
	} else {
		p("estimates\tnone (requested time unknown for every job)")
	}
	p("")
	p("\tn\tmean\tp5\tp25\tmedian\tp75\tp95\tmax")
	for _, r := range []struct {
		name string
		d    summary.Dist
	}{{"runtime (s)", s.Runtime}, {"processors", s.Processors}, {"inter-arrival (s)", s.InterArrival},
		{"requested time (s)", s.RequestedTime}, {"runtime/requested", s.Accuracy}} {
		if r.d.N == 0 {
			p("%s\t0", r.name)
			continue
		}
		p("%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s", r.name, r.d.N, num(r.d.Mean), num(r.d.P5), num(r.d.P25),
			num(r.d.Median), num(r.d.P75), num(r.d.P95), num(r.d.Max))
	}
	v := s.Talby
	p("")
	p("Talby variables\tTN %d  JD %s  RL %s  CL %s  UJ %s  EJ %s", v.TN, num(v.JD), num(float64(v.RL)),
		num(float64(v.CL)), num(v.UJ), num(float64(v.EJ)))
	p("\tRm %s  Ri %s  Pm %s  Pi %s  Nm %s  Ni %s", num(v.Rm), num(v.Ri), num(v.Pm), num(v.Pi),
		num(float64(v.Nm)), num(float64(v.Ni)))
	p("\tCm %s  Ci %s  Am %s  Ai %s", num(v.Cm), num(v.Ci), num(v.Am), num(v.Ai))
	if b != nil {
		p("")
		unknown := ""
		if len(b.Unknown) > 0 {
			unknown = "; not recorded: " + attrList(b.Unknown)
		}
		p("bags of tasks\t%s of %d successful jobs (Δ = 100 s%s; hpcwl bursts)", pct(b.FractionInBoTs), b.Jobs, unknown)
		p("correlation\t%s (runtime vs requested processors)", fmtF(b.Correlation, 4))
		p("spatial entropy\t%s (N = %d)", fmtF(b.SpatialNE, 4), b.SpatialN)
	} else {
		p("")
		p("bags of tasks\tn/a: no job recorded as successful (status 1) with a runtime and processors; hpcwl bursts --all-jobs takes every job")
	}
	return lines
}

// pct formats a fraction as a percentage, "n/a" when it is NaN.
func pct(f float64) string {
	if math.IsNaN(f) {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*f)
}

// num formats a number compactly: integers without decimals, others with
// three significant digits after the point where that matters.
func num(f float64) string {
	switch {
	case math.IsNaN(f):
		return "n/a"
	case f == math.Trunc(f) && math.Abs(f) < 1e15:
		return fmt.Sprintf("%.0f", f)
	case math.Abs(f) >= 100:
		return fmt.Sprintf("%.1f", f)
	default:
		return fmt.Sprintf("%.3g", f)
	}
}

// runInfoSideBySide prints the main figures of several logs in columns
// (or, with --json, the list of their reports).
func runInfoSideBySide(_ context.Context, opts infoOptions, names []string, stdout, stderr io.Writer) error {
	var reps []infoReport
	for _, name := range names {
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
		reps = append(reps, infoReport{Version: version.String(), Summary: s, Bursts: bursty.Summarize(t)})
	}
	if opts.json {
		return writeJSON(stdout, reps)
	}
	f := func(x float64, prec int) string {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "n/a"
		}
		return strconv.FormatFloat(x, 'f', prec, 64)
	}
	// d formats a statistic of a distribution, n/a when no job has the value.
	d := func(dist summary.Dist, x float64, prec int) string {
		if dist.N == 0 {
			return "n/a"
		}
		return f(x, prec)
	}
	rows := []struct {
		name string
		val  func(r infoReport) string
	}{
		{"log", func(r infoReport) string { return r.Name }},
		{"jobs", func(r infoReport) string { return strconv.Itoa(r.Jobs) }},
		{"users", func(r infoReport) string { return strconv.Itoa(r.Users) }},
		{"days", func(r infoReport) string { return f(r.Days, 1) }},
		{"processors", func(r infoReport) string { return strconv.Itoa(r.Procs) }},
		{"offered load", func(r infoReport) string { return pct(float64(r.OfferedLoad)) }},
		{"utilization", func(r infoReport) string { return pct(float64(r.Utilization)) }},
		{"serial jobs", func(r infoReport) string { return pct(r.Serial) }},
		{"power-of-two (parallel)", func(r infoReport) string { return pct(r.PowerOfTwo) }},
		{"runtime median (s)", func(r infoReport) string { return d(r.Runtime, r.Runtime.Median, 0) }},
		{"runtime mean (s)", func(r infoReport) string { return d(r.Runtime, r.Runtime.Mean, 1) }},
		{"processors median", func(r infoReport) string { return d(r.Processors, r.Processors.Median, 0) }},
		{"processors mean", func(r infoReport) string { return d(r.Processors, r.Processors.Mean, 2) }},
		{"inter-arrival median (s)", func(r infoReport) string { return d(r.InterArrival, r.InterArrival.Median, 0) }},
		{"requested time median (s)", func(r infoReport) string { return d(r.RequestedTime, r.RequestedTime.Median, 0) }},
		{"runtime/requested median", func(r infoReport) string { return d(r.Accuracy, r.Accuracy.Median, 3) }},
		{"jobs per day (JD)", func(r infoReport) string { return f(r.Talby.JD, 1) }},
		{"users per 1000 jobs (UJ)", func(r infoReport) string { return f(r.Talby.UJ, 2) }},
		{"jobs in bags of tasks", func(r infoReport) string {
			if r.Bursts == nil {
				return "n/a"
			}
			return pct(r.Bursts.FractionInBoTs)
		}},
		{"runtime/processors correlation", func(r infoReport) string {
			if r.Bursts == nil {
				return "n/a"
			}
			return f(float64(r.Bursts.Correlation), 4)
		}},
		{"spatial entropy", func(r infoReport) string {
			if r.Bursts == nil {
				return "n/a"
			}
			return f(float64(r.Bursts.SpatialNE), 4)
		}},
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, row := range rows {
		fmt.Fprint(tw, row.name)
		for _, r := range reps {
			fmt.Fprint(tw, "\t"+row.val(r))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// plural returns "1 job" or "N jobs": n and the word that goes with it.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
