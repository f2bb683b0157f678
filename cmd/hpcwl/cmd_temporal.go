package main

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/temporal"
	"github.com/spf13/cobra"
)

func init() { register(newTemporalCommand) }

// temporalOptions are the options of `hpcwl temporal`.
type temporalOptions struct {
	trace traceFlags
	json  bool
}

func newTemporalCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts temporalOptions
	cmd := &cobra.Command{
		Use:   "temporal TRACE...",
		Short: "Locality of sampling, daily and weekly cycles of logs (Talby's tables)",
		Long: `Temporal measures the temporal structure of each log as Talby (User Modeling
of Parallel Workloads, PhD thesis, 2006, chapter 5 and Appendix C, Tables 37-39)
does to compare production logs with synthetic models. Time is cut into bins
aligned to local midnight (the log's time zone); each bin gives the number of
arrivals and the mean runtime, processors, total CPU work (runtime x
processors) and inter-arrival time of the jobs arriving in it (empty bins:
missing values, skipped pairwise). The autocorrelations printed are:

  locality of sampling  15- and 150-minute bins, lag 1 (Table 37)
  daily cycle           6-hour bins, lags 2 (12 h) and 4 (24 h) (Table 38)
  weekly cycle          1-day bins, lag 7 (Table 39)

Talby generates more than 100,000 jobs from each synthetic model.` + exitStatusHelp,
		Example: `  hpcwl temporal builtin:KTH-SP2
  hpcwl generate lublin --count 100000 --seed 1 -o lublin.swf
  hpcwl temporal --json lublin.swf builtin:KTH-SP2`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("temporal needs at least one TRACE")
			}
			return nil
		},
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runTemporal(opts, args, stdout)
		}),
	}
	opts.trace.add(cmd)
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the rows as JSON")
	return cmd
}

// temporalRow is one log's row of `hpcwl temporal --json`.
type temporalRow struct {
	Trace  string `json:"trace"`
	SHA256 string `json:"sha256,omitempty"`
	Jobs   int    `json:"jobs"`
	temporal.Row
}

// temporalReport is the JSON form of `hpcwl temporal`.
type temporalReport struct {
	Version string        `json:"hpcwl_version"`
	Series  []string      `json:"series"`
	Logs    []temporalRow `json:"logs"`
}

func runTemporal(opts temporalOptions, names []string, stdout io.Writer) error {
	rep := temporalReport{Version: version.String()}
	for _, s := range temporal.AllSeries {
		rep.Series = append(rep.Series, s.String())
	}
	for _, name := range names {
		t, err := opts.trace.load(name)
		if err != nil {
			return err
		}
		if t.Len() == 0 {
			return fmt.Errorf("%s: the log holds no jobs", name)
		}
		rep.Logs = append(rep.Logs, temporalRow{Trace: name, SHA256: t.SHA256, Jobs: t.Len(), Row: temporal.Analyze(t)})
	}
	if opts.json {
		return writeJSON(stdout, rep)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	f := func(x float64) string {
		if math.IsNaN(x) {
			return "n/a"
		}
		return fmt.Sprintf("%.2f", x)
	}
	for _, tbl := range []struct {
		title string
		cols  []string
		get   func(r temporal.Row) [][5]float64
	}{
		{"locality of sampling (lag 1)", []string{"15m", "150m"}, func(r temporal.Row) [][5]float64 { return [][5]float64{r.Locality15, r.Locality150} }},
		{"daily cycle (6-h bins)", []string{"12h", "24h"}, func(r temporal.Row) [][5]float64 { return [][5]float64{r.Daily12, r.Daily24} }},
		{"weekly cycle (1-day bins, lag 7)", []string{""}, func(r temporal.Row) [][5]float64 { return [][5]float64{r.Weekly} }},
	} {
		fmt.Fprintf(tw, "%s\t", tbl.title)
		for _, s := range rep.Series {
			for _, c := range tbl.cols {
				fmt.Fprintf(tw, "%s %s\t", s, c)
			}
		}
		fmt.Fprintln(tw)
		for _, l := range rep.Logs {
			fmt.Fprintf(tw, "%s\t", l.Trace)
			v := tbl.get(l.Row)
			for i := range rep.Series {
				for k := range tbl.cols {
					fmt.Fprintf(tw, "%s\t", f(v[k][i]))
				}
			}
			fmt.Fprintln(tw)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
