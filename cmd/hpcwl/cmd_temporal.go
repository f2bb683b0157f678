package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/summary"
	"github.com/hpcwl/hpcwl/temporal"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/spf13/cobra"
)

func init() { register(newTemporalCommand) }

// temporalOptions are the options of `hpcwl temporal`.
type temporalOptions struct {
	trace     traceFlags
	statistic string
	hurstBin  string
	missing   string
	json      bool
	series    string
	seriesBin string
	acf       string
	acfBin    string
	maxLag    int
}

func newTemporalCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts temporalOptions
	cmd := &cobra.Command{
		Use:   "temporal TRACE",
		Short: "Locality of sampling, daily and weekly cycles and self-similarity of a log",
		Long: `Temporal measures how a log moves in time as Talby does (User Modeling of
Parallel Workloads, 2006, chapter 5 and appendix C).

The log is cut into bins aligned to local midnight (the header's time zone).
Five series are made from the jobs arriving in each bin: their number (jobs),
and the --statistic (mean by default; median or sum) of their runtime, number
of processors, total CPU work (processors times field 6, else times the
runtime) and inter-arrival time (to the previous arrival in the log). A bin
without jobs has 0 jobs and missing attributes, which the autocorrelation
skips.

Autocorrelation (ACF) tests, Talby's Tables 37-39:
  locality of sampling   15-minute and 150-minute bins, lag 1
  daily cycle            6-hour bins, lags 2 (12 h) and 4 (24 h)
  weekly cycle           1-day bins, lag 7

Self-similarity, Table 40: the Hurst parameter H of each series by rescaled
range (R/S), the variance-time plot and the periodogram, and their mean, on
bins of --hurst-bin (10 minutes by default); bins without jobs are left out of
the attribute series (--hurst-missing drop) or count as 0 (zero).

--series FILE writes the five series at --series-bin as CSV; --acf FILE the
ACF of every series at --acf-bin for lags 0 to --max-lag (Talby's Fig. 5: jobs
per day of SDSC-BLUE, 60 lags). Each CSV file gets a provenance sidecar
FILE.json.

Durations take a unit: 90s, 15m, 6h, 1d.` + exitStatusHelp,
		Example: `  hpcwl temporal builtin:KTH-SP2
  hpcwl temporal --json --statistic median builtin:KTH-SP2
  hpcwl temporal --series kth-15m.csv --acf kth-acf.csv builtin:KTH-SP2`,
		Args: exactArgs(1, "one TRACE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runTemporal(cmd.Context(), opts, args[0], stdout, stderr)
		}),
	}
	opts.trace.add(cmd)
	f := cmd.Flags()
	f.StringVar(&opts.statistic, "statistic", "mean", "per-bin statistic of the attribute series: mean, median or sum")
	f.StringVar(&opts.hurstBin, "hurst-bin", "10m", "bin width of the Hurst series")
	f.StringVar(&opts.missing, "hurst-missing", "drop", "bins without jobs in the Hurst attribute series: drop or zero")
	f.BoolVar(&opts.json, "json", false, "print the report as JSON")
	f.StringVar(&opts.series, "series", "", "write the per-bin series as CSV to this file ('-' for standard output)")
	f.StringVar(&opts.seriesBin, "series-bin", "15m", "bin width of --series")
	f.StringVar(&opts.acf, "acf", "", "write the ACF of every series as CSV to this file ('-' for standard output)")
	f.StringVar(&opts.acfBin, "acf-bin", "1d", "bin width of --acf")
	f.IntVar(&opts.maxLag, "max-lag", 60, "largest lag of --acf, in bins")
	return cmd
}

// temporalReport is the JSON form of `hpcwl temporal`.
type temporalReport struct {
	Version string `json:"hpcwl_version"`
	Log     string `json:"log"`
	SHA256  string `json:"sha256,omitempty"`
	*temporal.Report
}

func parseWidth(flag, s string) (int64, error) {
	w, err := session.ParseDuration(s)
	if err != nil {
		return 0, usagef("%s: %v", flag, err)
	}
	if w <= 0 {
		return 0, usagef("%s must be a positive duration, got %q", flag, s)
	}
	return w, nil
}

func runTemporal(_ context.Context, opts temporalOptions, name string, stdout, stderr io.Writer) error {
	stat, err := temporal.ParseStatistic(opts.statistic)
	if err != nil {
		return usagef("--statistic: %v", err)
	}
	o := temporal.Options{Statistic: stat}
	switch opts.missing {
	case "drop":
		o.HurstMissing = temporal.Drop
	case "zero":
		o.HurstMissing = temporal.Zero
	default:
		return usagef("--hurst-missing must be drop or zero, got %q", opts.missing)
	}
	if o.HurstBin, err = parseWidth("--hurst-bin", opts.hurstBin); err != nil {
		return err
	}
	seriesBin, err := parseWidth("--series-bin", opts.seriesBin)
	if err != nil {
		return err
	}
	acfBin, err := parseWidth("--acf-bin", opts.acfBin)
	if err != nil {
		return err
	}
	if opts.maxLag < 1 {
		return usagef("--max-lag must be at least 1, got %d", opts.maxLag)
	}
	outs := []output{{flag: "--series", name: opts.series}, {flag: "--acf", name: opts.acf}}
	if err := checkOutputs([]string{name}, outs...); err != nil {
		return err
	}
	t, err := opts.trace.load(name)
	if err != nil {
		return err
	}
	r, err := temporal.Analyze(t, o)
	if errors.Is(err, temporal.ErrNoJobs) {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err != nil {
		return usageError{fmt.Errorf("%s: %w", name, err)}
	}
	if opts.series != "" {
		b, err := temporal.Bin(t, seriesBin, stat)
		if err != nil {
			return usageError{fmt.Errorf("%s: %w", name, err)}
		}
		if err := writeTableOutput(opts.series, "hpcwl temporal series", stdout, func(w io.Writer) error {
			return writeTemporalSeries(w, t, b)
		}); err != nil {
			return err
		}
	}
	if opts.acf != "" {
		b, err := temporal.Bin(t, acfBin, stat)
		if err != nil {
			return usageError{fmt.Errorf("%s: %w", name, err)}
		}
		if err := writeTableOutput(opts.acf, "hpcwl temporal acf", stdout, func(w io.Writer) error {
			return writeTemporalACF(w, temporal.ACF(b, opts.maxLag), acfBin)
		}); err != nil {
			return err
		}
	}
	out := summaryWriter(stdout, stderr, outs...)
	if opts.json {
		return writeJSON(out, temporalReport{Version: version.String(), Log: t.Name, SHA256: t.SHA256, Report: r})
	}
	return printTemporal(out, t.Name, r)
}

func csvFloat(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// writeTemporalSeries writes one row per bin: its index, start (relative
// seconds and local time) and the five series; missing values are empty.
func writeTemporalSeries(w io.Writer, t *trace.Trace, b *temporal.Binned) error {
	cw := csv.NewWriter(w)
	head := []string{"bin", "start_s", "start_local"}
	for _, s := range temporal.AllSeries {
		head = append(head, s.String())
	}
	_ = cw.Write(head)
	clock := t.Clock()
	for i := range b.Len() {
		start := b.Origin + int64(i)*b.Width
		row := []string{strconv.Itoa(i), strconv.FormatInt(start, 10), clock.Time(start).Format(time.RFC3339)}
		for _, s := range temporal.AllSeries {
			row = append(row, csvFloat(b.Values[s][i]))
		}
		_ = cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// writeTemporalACF writes one row per lag with the ACF of the five series.
func writeTemporalACF(w io.Writer, acf [][]float64, bin int64) error {
	cw := csv.NewWriter(w)
	head := []string{"lag", "lag_s"}
	for _, s := range temporal.AllSeries {
		head = append(head, s.String())
	}
	_ = cw.Write(head)
	for k := range acf[temporal.Jobs] {
		row := []string{strconv.Itoa(k), strconv.FormatInt(int64(k)*bin, 10)}
		for _, s := range temporal.AllSeries {
			row = append(row, csvFloat(acf[s][k]))
		}
		_ = cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

func printTemporal(w io.Writer, name string, r *temporal.Report) error {
	cell := func(v summary.Float) string { return fmt.Sprintf("%6s", fmtF(v, 2)) }
	head := func(tw io.Writer, first string) {
		fmt.Fprint(tw, first)
		for _, s := range temporal.AllSeries {
			fmt.Fprintf(tw, "\t%12s", s)
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprintf(w, "%s: per-bin %s\n\nautocorrelation (Talby, Tables 37-39)\n", name, r.Statistic)
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	head(tw, "test\tbin\tlag")
	for _, ts := range r.Tests {
		fmt.Fprintf(tw, "%s\t%s\t%s", ts.Name, scaleName(float64(ts.Bin)), scaleName(float64(ts.Span())))
		for _, s := range temporal.AllSeries {
			fmt.Fprintf(tw, "\t%12s", cell(summary.Float(ts.ACF.Get(s))))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nHurst parameter (Table 40; %s bins, bins without jobs: %s)\n", scaleName(float64(r.HurstBin)), r.HurstMissing)
	tw = tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	head(tw, "estimator")
	rows := []struct {
		name string
		get  func(h temporal.HurstResult) summary.Float
	}{
		{"R/S", func(h temporal.HurstResult) summary.Float { return h.RS }},
		{"variance-time", func(h temporal.HurstResult) summary.Float { return h.VarianceTime }},
		{"periodogram", func(h temporal.HurstResult) summary.Float { return h.Periodogram }},
		{"mean", func(h temporal.HurstResult) summary.Float { return h.Mean }},
	}
	for _, row := range rows {
		fmt.Fprint(tw, row.name)
		for _, h := range r.Hurst {
			fmt.Fprintf(tw, "\t%12s", cell(row.get(h)))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
