package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sessiondist"
	"github.com/spf13/cobra"
)

func init() { register(newThresholdsCommand) }

// thresholdsOptions are the options of `hpcwl thresholds`.
type thresholdsOptions struct {
	trace     traceFlags
	sessions  string
	threshold string
	maxIA     string
	json      bool
	figures   string
}

// defaultLengthSpecs are the session methods whose lengths Zakay compares
// (chapter 2, Figs. 6-12).
const defaultLengthSpecs = "arrival:60m,last:20m,max:20m,last+cut:20m:30m,last+cut:20m:1h,last+cut:20m:2h,max+cut:20m:1h"

func newThresholdsCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts thresholdsOptions
	cmd := &cobra.Command{
		Use:   "thresholds TRACE",
		Short: "The distributions behind the choice of session method and threshold (Zakay)",
		Long: `Thresholds computes the data with which Zakay and Feitelson choose how to
identify sessions (Zakay's thesis, chapter 2, sections 3-5):

- the times between successive jobs of each user up to --max-interarrival (one
  day), as a one-minute histogram and a CDF (Figs. 2-4: where the curve
  flattens, the Arrival threshold; the thesis chose 60 minutes);
- for each session method of --sessions, the distribution of session lengths:
  the count, zero-length sessions, the fraction longer than 1000 minutes, the
  longest, a one-minute histogram up to a day and the survival function (Figs.
  6-12: Last and Max give overly long sessions, the Cut variants a peak at the
  cut, Arrival a small step at its threshold);
- Last against Max at --threshold (20 minutes): the batches both find, the
  think times after them by each definition (common) and the others (unique),
  with the Kolmogorov-Smirnov distance of each unique sample from the common
  think times (Fig. 5: the thesis finds Last's unique think times closer).

--figures DIR writes the data of the figures as CSV files (each with a
provenance sidecar FILE.json): interarrival_hist.csv, interarrival_cdf.csv,
session_length_hist.csv, session_length_survival.csv and thinktime_cdf.csv.` + exitStatusHelp,
		Example: `  hpcwl thresholds builtin:KTH-SP2
  hpcwl thresholds --json --sessions arrival:60m,last:20m builtin:KTH-SP2
  hpcwl thresholds --figures kth-figures builtin:KTH-SP2`,
		Args: exactArgs(1, "one TRACE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runThresholds(cmd.Context(), opts, args[0], stdout, stderr)
		}),
	}
	opts.trace.add(cmd)
	f := cmd.Flags()
	f.StringVar(&opts.sessions, "sessions", defaultLengthSpecs, "comma-separated session methods whose lengths are compared")
	f.StringVar(&opts.threshold, "threshold", "20m", "threshold of the Last-Max comparison")
	f.StringVar(&opts.maxIA, "max-interarrival", "1d", "largest per-user inter-arrival time kept")
	f.BoolVar(&opts.json, "json", false, "print the report as JSON")
	f.StringVar(&opts.figures, "figures", "", "write the figures' data as CSV files into this directory (created)")
	return cmd
}

// thresholdsReport is the JSON form of `hpcwl thresholds` (without the
// histograms and distribution functions, which --figures writes).
type thresholdsReport struct {
	Version      string               `json:"hpcwl_version"`
	Log          string               `json:"log"`
	SHA256       string               `json:"sha256,omitempty"`
	InterArrival iaSummary            `json:"interarrival"`
	Lengths      []lengthSummary      `json:"session_lengths"`
	LastMax      *sessiondist.LastMax `json:"last_max"`
}

type iaSummary struct {
	Max     int64 `json:"max_s"`
	Kept    int   `json:"kept"`
	Ignored int   `json:"ignored"`
}

type lengthSummary struct {
	Sessions    string  `json:"sessions"`
	Count       int     `json:"count"`
	Zero        int     `json:"zero"`
	Over1000Min float64 `json:"over_1000_min"`
	Max         int64   `json:"max_s"`
}

func runThresholds(_ context.Context, opts thresholdsOptions, name string, stdout, stderr io.Writer) error {
	var specs []session.Options
	for _, s := range strings.Split(opts.sessions, ",") {
		o, err := session.ParseSpec(s)
		if err != nil {
			return usagef("--sessions: %v", err)
		}
		specs = append(specs, o)
	}
	th, err := session.ParseDuration(opts.threshold)
	if err != nil || th <= 0 {
		return usagef("--threshold must be a positive duration, got %q", opts.threshold)
	}
	maxIA, err := session.ParseDuration(opts.maxIA)
	if err != nil || maxIA < 60 {
		return usagef("--max-interarrival must be a duration of at least 1m, got %q", opts.maxIA)
	}
	if opts.figures != "" {
		if err := os.MkdirAll(opts.figures, 0o755); err != nil {
			return err
		}
		if err := checkOutputs([]string{name}, output{flag: "--figures", name: filepath.Join(opts.figures, "interarrival_hist.csv")}); err != nil {
			return err
		}
	}
	t, err := opts.trace.load(name)
	if err != nil {
		return err
	}
	ia, err := sessiondist.InterArrivals(t, maxIA)
	if err != nil {
		return usageError{err}
	}
	ls, err := sessiondist.Lengths(t, specs)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	lm, err := sessiondist.CompareLastMax(t, th)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if opts.figures != "" {
		if err := writeThresholdFigures(opts.figures, stdout, ia, ls, lm); err != nil {
			return err
		}
	}
	rep := thresholdsReport{Version: version.String(), Log: t.Name, SHA256: t.SHA256,
		InterArrival: iaSummary{Max: ia.Max, Kept: ia.Histogram.N, Ignored: ia.Ignored}, LastMax: lm}
	for _, l := range ls {
		rep.Lengths = append(rep.Lengths, lengthSummary{l.Sessions, l.Count, l.Zero, l.Over1000Min, l.Max})
	}
	if opts.json {
		return writeJSON(stdout, rep)
	}
	fmt.Fprintf(stdout, "%s\n\nper-user inter-arrival times (Zakay, ch. 2, Figs. 2-4): %d up to %s, %d longer ignored\n",
		t.Name, ia.Histogram.N, session.FormatDuration(ia.Max), ia.Ignored)
	fmt.Fprintf(stdout, "\nsession lengths (Figs. 6-12)\n")
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "sessions\tcount\tlength 0\t> 1000 min\tlongest (min)")
	for _, l := range ls {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.4f\t%d\n", l.Sessions, l.Count, l.Zero, l.Over1000Min, l.Max/60)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nLast against Max at %s (section 4, Fig. 5): %d and %d batches, %d common\n",
		session.FormatDuration(lm.Threshold), lm.BatchesLast, lm.BatchesMax, lm.CommonBatches)
	tw = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "think times\tcount\tKS distance from the common ones")
	fmt.Fprintf(tw, "common, Last\t%d\t%.3f (from common Max)\n", lm.N[0], lm.KSCommon)
	fmt.Fprintf(tw, "common, Max\t%d\t\n", lm.N[1])
	fmt.Fprintf(tw, "unique, Last\t%d\t%.3f\n", lm.N[2], lm.KSUniqueLast)
	fmt.Fprintf(tw, "unique, Max\t%d\t%.3f\n", lm.N[3], lm.KSUniqueMax)
	return tw.Flush()
}

func writeThresholdFigures(dir string, stdout io.Writer, ia *sessiondist.InterArrival, ls []sessiondist.Length, lm *sessiondist.LastMax) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	write := func(file string, header []string, rows func(cw *csv.Writer)) error {
		return writeTableOutput(filepath.Join(dir, file), "hpcwl thresholds "+strings.TrimSuffix(file, ".csv"), stdout, func(w io.Writer) error {
			cw := csv.NewWriter(w)
			_ = cw.Write(header)
			rows(cw)
			cw.Flush()
			return cw.Error()
		})
	}
	if err := write("interarrival_hist.csv", []string{"lo_s", "hi_s", "count"}, func(cw *csv.Writer) {
		for _, b := range ia.Histogram.Bins {
			_ = cw.Write([]string{i64(b.Lo), i64(b.Hi), strconv.Itoa(b.Count)})
		}
	}); err != nil {
		return err
	}
	if err := write("interarrival_cdf.csv", []string{"interarrival_s", "cdf"}, func(cw *csv.Writer) {
		for _, p := range ia.CDF {
			_ = cw.Write([]string{g(p.X), g(p.P)})
		}
	}); err != nil {
		return err
	}
	if err := write("session_length_hist.csv", []string{"sessions", "lo_s", "hi_s", "count"}, func(cw *csv.Writer) {
		for _, l := range ls {
			for _, b := range l.Histogram.Bins {
				_ = cw.Write([]string{l.Sessions, i64(b.Lo), i64(b.Hi), strconv.Itoa(b.Count)})
			}
		}
	}); err != nil {
		return err
	}
	if err := write("session_length_survival.csv", []string{"sessions", "length_s", "survival"}, func(cw *csv.Writer) {
		for _, l := range ls {
			for _, p := range l.Survival {
				_ = cw.Write([]string{l.Sessions, g(p.X), g(p.P)})
			}
		}
	}); err != nil {
		return err
	}
	names := []string{"common_last", "common_max", "unique_last", "unique_max"}
	return write("thinktime_cdf.csv", []string{"sample", "think_time_s", "cdf"}, func(cw *csv.Writer) {
		for k, c := range lm.CDFs() {
			for _, p := range c {
				_ = cw.Write([]string{names[k], g(p.X), g(p.P)})
			}
		}
	})
}
