package main

import (
	"context"
	"fmt"
	"io"
	"math"
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
  hpcwl info --procs 430 CTC-SP2-1996-3.1-cln.swf.gz`,
		Args: exactArgs(1, "one TRACE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
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
	// Bursts is the bag-of-tasks and burstiness summary (hpcwl bursts).
	Bursts *bursty.Brief `json:"bursts,omitempty"`
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
	p := func(format string, a ...any) { fmt.Fprintf(tw, format+"\n", a...) }
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
		p("unrunnable\t%d jobs without runtime or processors: kept in counts and inter-arrivals, left out of runtime, size and load figures", s.Unrunnable)
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
	}
	return tw.Flush()
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
