package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/locality"
	"github.com/hpcwl/hpcwl/stats"
)

func init() { register(newCompareCommand) }

// compareOptions are the options of `hpcwl compare`.
type compareOptions struct {
	unit string
	pox  bool
	json bool
}

func newCompareCommand(stdout, _ io.Writer) *cobra.Command {
	var opts compareOptions
	cmd := &cobra.Command{
		Use:   "compare ORIGINAL RESAMPLED",
		Short: "Compare the structure of two workloads side by side",
		Long: `Compare prints, for two workloads (typically a log and a workload resampled
from it), the analyses Zakay and Feitelson use to show that resampling keeps a
log's structure:

  - per-user marginal distributions: jobs, sessions (Arrival, 60 min), average
    session length, total work, first arrival, final departure, activity
    period and weeks active, by quartile, with the two-sample Kolmogorov-Smirnov
    distance between them;
  - locality by the stack-depth algorithm for runtime and requested time
    (5% tolerance) and processors (exact): the mean depth of repeated values,
    1 at the top;
  - locality by daily concentration: the median over days of the largest
    fraction of a day's jobs in one of 16 equal-weight bins (1/16 = no
    locality);
  - the Hurst parameter of the arrivals by rescaled range (pox plot: block
    sizes growing by 1.2, a line fitted through every block); --json with
    --pox adds the plot's points.` + exitStatusHelp,
		Example: `  hpcwl resample builtin:KTH-SP2 --seed 3 -o kth-r.swf
  hpcwl compare builtin:KTH-SP2 kth-r.swf
  hpcwl compare builtin:KTH-SP2 kth-r.swf --json --pox > pox.json`,
		Args: exactArgs(2, "ORIGINAL and RESAMPLED"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runCompare(cmd.Context(), opts, args[0], args[1], stdout)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&opts.unit, "unit", "1h", "base time unit of the Hurst series")
	f.BoolVar(&opts.pox, "pox", false, "with --json, include the pox plot points")
	f.BoolVar(&opts.json, "json", false, "print the comparison as JSON")
	return cmd
}

// workloadAnalysis holds the analyses of one workload.
type workloadAnalysis struct {
	Name      string                    `json:"name"`
	Jobs      int                       `json:"jobs"`
	Users     int                       `json:"users"`
	PerUser   map[string][]float64      `json:"per_user,omitempty"`
	Quartiles map[string][3]float64     `json:"per_user_quartiles"`
	Stack     map[string]locality.Depth `json:"stack_depth"`
	Bins      map[string]locality.Bins  `json:"daily_bins"`
	Hurst     locality.HurstResult      `json:"hurst"`
	HurstRS   stats.HurstEstimate       `json:"hurst_stats_rs"`
}

// compareReport is the JSON form of `hpcwl compare`.
type compareReport struct {
	Version   string             `json:"hpcwl_version"`
	Original  *workloadAnalysis  `json:"original"`
	Resampled *workloadAnalysis  `json:"resampled"`
	KS        map[string]float64 `json:"per_user_ks_distance"`
}

func analyse(name string, unit int64) (*workloadAnalysis, error) {
	t, err := loadAnyTrace(name)
	if err != nil {
		return nil, err
	}
	t.SortBySubmit()
	a := &workloadAnalysis{Name: name, Jobs: t.Len(), Quartiles: map[string][3]float64{},
		Stack: map[string]locality.Depth{}, Bins: map[string]locality.Bins{}}
	if a.PerUser, err = locality.Users(t); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	a.Users = len(a.PerUser["jobs"])
	for k, v := range a.PerUser {
		if len(v) > 0 {
			a.Quartiles[k] = [3]float64{stats.QuantileSorted(v, 0.25), stats.QuantileSorted(v, 0.5), stats.QuantileSorted(v, 0.75)}
		}
	}
	for _, at := range locality.Attrs {
		a.Stack[at.Name] = locality.StackDepth(t, at)
		b := locality.DailyBins(t, at, locality.DailyBinsOptions{})
		b.MaxFraction = nil
		a.Bins[at.Name] = b
	}
	a.Hurst = locality.Hurst(t, locality.HurstOptions{Unit: unit})
	a.HurstRS, _ = stats.RescaledRange(locality.Arrivals(t, unit))
	a.HurstRS.LogX, a.HurstRS.LogY = nil, nil
	return a, nil
}

func runCompare(ctx context.Context, opts compareOptions, orig, res string, stdout io.Writer) error {
	unit, err := parseSpan(opts.unit)
	if err != nil || unit <= 0 {
		return usagef("--unit: %v", orPositive(err, opts.unit))
	}
	rep := compareReport{Version: version.String(), KS: map[string]float64{}}
	if rep.Original, err = analyse(orig, unit); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if rep.Resampled, err = analyse(res, unit); err != nil {
		return err
	}
	for _, k := range locality.UserMetrics {
		if len(rep.Original.PerUser[k]) > 0 && len(rep.Resampled.PerUser[k]) > 0 {
			rep.KS[k] = stats.KSTwoSample(rep.Original.PerUser[k], rep.Resampled.PerUser[k]).D
		}
	}
	if opts.json {
		for _, a := range []*workloadAnalysis{rep.Original, rep.Resampled} {
			a.PerUser = nil
			if !opts.pox {
				a.Hurst.Points = nil
			}
		}
		return writeJSON(stdout, rep)
	}
	return printCompare(stdout, &rep)
}

func printCompare(w io.Writer, r *compareReport) error {
	o, s := r.Original, r.Resampled
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }
	fmt.Fprintf(tw, "\toriginal\tresampled\t\n")
	fmt.Fprintf(tw, "workload\t%s\t%s\t\n", o.Name, s.Name)
	fmt.Fprintf(tw, "jobs\t%d\t%d\t\n", o.Jobs, s.Jobs)
	fmt.Fprintf(tw, "users (copies)\t%d\t%d\t\n", o.Users, s.Users)
	fmt.Fprintf(tw, "\t\t\t\n")
	fmt.Fprintf(tw, "per user (quartiles)\toriginal\tresampled\tKS distance\t\n")
	for _, k := range locality.UserMetrics {
		q1, q2 := o.Quartiles[k], s.Quartiles[k]
		fmt.Fprintf(tw, "%s\t%s / %s / %s\t%s / %s / %s\t%.3f\t\n", k, g(q1[0]), g(q1[1]), g(q1[2]), g(q2[0]), g(q2[1]), g(q2[2]), r.KS[k])
	}
	fmt.Fprintf(tw, "\t\t\t\n")
	fmt.Fprintf(tw, "stack depth (mean)\toriginal\tresampled\tratio\t\n")
	for _, at := range locality.Attrs {
		a, b := o.Stack[at.Name].Mean, s.Stack[at.Name].Mean
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.3f\t\n", at.Name, a, b, b/a)
	}
	fmt.Fprintf(tw, "\t\t\t\n")
	fmt.Fprintf(tw, "daily bins (median max fraction)\toriginal\tresampled\t\t\n")
	for _, at := range locality.Attrs {
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t\t\n", at.Name, o.Bins[at.Name].Median, s.Bins[at.Name].Median)
	}
	fmt.Fprintf(tw, "\t\t\t\n")
	fmt.Fprintf(tw, "Hurst (R/S pox, all points)\t%.3f\t%.3f\t\t\n", o.Hurst.H, s.Hurst.H)
	fmt.Fprintf(tw, "Hurst (R/S, mean per size)\t%.3f\t%.3f\t\t\n", o.HurstRS.H, s.HurstRS.H)
	return tw.Flush()
}
