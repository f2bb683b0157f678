package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hpcwl/hpcwl/bursty"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/summary"
	"github.com/spf13/cobra"
)

func init() { register(newBurstsCommand) }

// burstsOptions are the options of `hpcwl bursts`.
type burstsOptions struct {
	trace    traceFlags
	delta    int64
	perUser  bool
	allJobs  bool
	maxProcs int
	alloc    bool
	bin      float64
	seed     uint64
	json     bool
	curve    string
	figures  string
}

func newBurstsCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts burstsOptions
	cmd := &cobra.Command{
		Use:   "bursts TRACE",
		Short: "Find bags of tasks and measure temporal and spatial burstiness",
		Long: `Bursts characterises a log as Minh and Wolters do (bursty bag-of-tasks model):

Bags of tasks (BoTs): maximal runs of jobs, contiguous in arrival order, that
arrive at most --delta seconds apart and agree on user, group, queue,
executable, requested time and requested processors. By default contiguity is
global (a job of another user in between ends a bag, the paper's literal
definition); --per-user asks for it only within each user's jobs. Attributes
that no job of the log records are left out of the comparison and listed.
Reported: the fraction of jobs in bags of two or more (Table II), bag sizes
(Fig. 4), the mean standard deviation of runtimes within bags per decade of
bag runtime (Table III), submission durations (Fig. 3) and the BoT
inter-arrival times (Fig. 2).

Burstiness: the temporal normalised entropy of arrivals over time scales from
1 minute to 1 week with a Poisson process of the same mean rate as baseline
(Fig. 6), and the spatial normalised entropy of the runtime shares per
processor count (Table V, N = the machine size) with uniformly random jobs as
baseline; values near 0 mean strong burstiness, near 1 none. Also the Pearson
correlation of runtime and processors (Table VI; processors are the
requested ones, or the allocated with --allocated), and the Hurst parameter and
autocorrelation of the arrival counts per --bin seconds.

--figures DIR writes the data behind the paper's figures as CSV: bia_cdf.csv
(CDF of the BoT inter-arrival times, Fig. 2), bot_durations_cdf.csv
(submission durations, Fig. 3), bot_sizes.csv (size histogram of all bags
with the CCDF P(size >= s), Figs. 4 and 5a) and bot_runtimes_ccdf.csv (mean
runtimes of bags of two or more jobs, Fig. 5b).

Only jobs that completed successfully (status 1) are used unless --all-jobs.` + exitStatusHelp,
		Example: `  hpcwl bursts HPC2N-2002-2.2-cln.swf.gz
  hpcwl bursts --json --per-user HPC2N-2002-2.2-cln.swf.gz
  hpcwl bursts --curve entropy.csv builtin:KTH-SP2`,
		Args: exactArgs(1, "one TRACE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runBursts(cmd.Context(), opts, args[0], stdout, stderr)
		}),
	}
	opts.trace.add(cmd)
	f := cmd.Flags()
	f.Int64Var(&opts.delta, "delta", 100, "BoT time parameter Δ in seconds (>= 0)")
	f.BoolVar(&opts.perUser, "per-user", false, "require BoT contiguity only within each user's jobs")
	f.BoolVar(&opts.allJobs, "all-jobs", false, "use jobs of every status, not only the successful ones")
	f.IntVar(&opts.maxProcs, "max-procs", 0, "N of the spatial entropy (default: the largest processor count in the log)")
	f.BoolVar(&opts.alloc, "allocated", false, "measure parallelism by allocated instead of requested processors")
	f.Float64Var(&opts.bin, "bin", 300, "bin width in seconds of the arrival counts for the Hurst estimates")
	f.Uint64Var(&opts.seed, "seed", 1, "seed of the Poisson and uniform baselines")
	f.BoolVar(&opts.json, "json", false, "print the report as JSON")
	f.StringVar(&opts.curve, "curve", "", "write the temporal entropy curve as CSV to this file")
	f.StringVar(&opts.figures, "figures", "", "write the data of the paper's Figs. 2-5 as CSV files into this directory (created)")
	positiveFlags(cmd, "max-procs")
	return cmd
}

// burstsReport is the JSON form of `hpcwl bursts`.
type burstsReport struct {
	Version string `json:"hpcwl_version"`
	Log     string `json:"log"`
	SHA256  string `json:"sha256,omitempty"`
	*bursty.Report
}

func runBursts(_ context.Context, opts burstsOptions, name string, stdout, stderr io.Writer) error {
	if opts.delta < 0 {
		return usagef("--delta must be >= 0 seconds, got %d", opts.delta)
	}
	if !(opts.bin > 0) || math.IsInf(opts.bin, 0) {
		return usagef("--bin must be a positive number of seconds, got %v", opts.bin)
	}
	if opts.curve != "" {
		if err := checkOutputs([]string{name}, output{name: opts.curve, flag: "--curve"}); err != nil {
			return err
		}
	}
	t, err := opts.trace.load(name)
	if err != nil {
		return err
	}
	o := bursty.DefaultOptions()
	o.Delta, o.AllJobs, o.MaxProcs, o.HurstBin, o.Seed, o.Allocated = opts.delta, opts.allJobs, opts.maxProcs, opts.bin, opts.seed, opts.alloc
	if opts.perUser {
		o.Contiguity = bursty.PerUser
	}
	r, err := bursty.Analyze(t, o)
	if errors.Is(err, bursty.ErrOption) {
		return usageError{fmt.Errorf("%s: %w", name, err)}
	}
	if err != nil {
		return fmt.Errorf("%s: %w%s", name, err, allJobsHint(err, opts.allJobs))
	}
	if len(r.Unknown) > 0 {
		fmt.Fprintf(stderr, "warning: %s: %s unknown in every job; BoTs compare %s\n", name, attrList(r.Unknown), attrList(r.Attributes))
	}
	if opts.curve != "" {
		if err := writeOutput(opts.curve, stdout, func(w io.Writer) error { return writeEntropyCurve(w, r.Temporal) }); err != nil {
			return err
		}
	}
	if opts.figures != "" {
		if err := writeBurstFigures(opts.figures, r); err != nil {
			return err
		}
	}
	if opts.json {
		return writeJSON(stdout, burstsReport{Version: version.String(), Log: t.Name, SHA256: t.SHA256, Report: r})
	}
	return printBursts(stdout, t.Name, r)
}

func attrList(a []bursty.Attribute) string {
	s := make([]string, len(a))
	for i, v := range a {
		s[i] = v.String()
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

func writeEntropyCurve(w io.Writer, pts []bursty.ScalePoint) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"scale_s", "real", "poisson"})
	f := func(v summary.Float) string {
		if math.IsNaN(float64(v)) {
			return ""
		}
		return strconv.FormatFloat(float64(v), 'f', 6, 64)
	}
	for _, p := range pts {
		_ = cw.Write([]string{strconv.FormatFloat(p.Scale, 'f', -1, 64), f(p.Real), f(p.Poisson)})
	}
	cw.Flush()
	return cw.Error()
}

func printBursts(w io.Writer, name string, r *bursty.Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format+"\n", a...) }
	p("log\t%s", name)
	what := "successful jobs"
	if r.SkippedStatus == 0 {
		what = "jobs"
	}
	p("jobs\t%d %s (left out: %d not successful, %d without runtime or processors)", r.Jobs, what, r.SkippedStatus, r.SkippedFields)
	p("bags of tasks\tΔ = %d s, %s contiguity, compared: %s; unknown: %s", r.Delta, r.Contiguity, attrList(r.Attributes), attrList(r.Unknown))
	p("jobs in BoTs\t%s (%d jobs in %d bags of two or more; %d bags in all)", pct(r.FractionInBoTs), r.JobsInBoTs, r.MultiJobBoTs, r.BoTs)
	p("BoT size\tmean %.2f, largest %d (bags of two or more)", r.MeanBoTSize, r.MaxBoTSize)
	p("BoT durations\t%s under 1000 s, longest %d s", pct(r.DurationUnder1000), r.MaxDuration)
	p("BoT inter-arrivals\t%d, %s <= Δ, median %s s", r.BIAs, pct(r.BIAUnderDelta), num(r.BIAMedian))
	for _, v := range r.Variability {
		p("runtime variability\tbags of mean runtime %s..%s s: %d bags, mean s.d. %.1f s", num(v.Low), num(v.High), v.BoTs, v.Variability)
	}
	p("correlation\t%s (Pearson, runtime vs %s processors)", fmtF(r.Correlation, 4), r.Parallelism)
	p("spatial entropy\t%s (random: %s; N = %d, %s; %s processors)", fmtF(r.SpatialNE, 4), fmtF(r.SpatialNERandom, 4), r.SpatialN, r.SpatialNFrom, r.Parallelism)
	p("mean inter-arrival\t%.1f s (the Poisson baseline)", r.MeanInterArrival)
	for _, s := range r.Temporal {
		p("temporal entropy\tT = %s: %s (Poisson %s)", scaleName(s.Scale), fmtF(s.Real, 4), fmtF(s.Poisson, 4))
	}
	p("Hurst\tR/S %s, variance-time %s, periodogram %s (arrivals per %s s)", fmtF(r.Hurst.RescaledRange, 3),
		fmtF(r.Hurst.VarianceTime, 3), fmtF(r.Hurst.Periodogram, 3), num(r.HurstBin))
	return tw.Flush()
}

func fmtF(v summary.Float, prec int) string {
	if math.IsNaN(float64(v)) {
		return "n/a"
	}
	return strconv.FormatFloat(float64(v), 'f', prec, 64)
}

func scaleName(s float64) string {
	switch {
	case s >= 86400 && math.Mod(s, 86400) == 0:
		return fmt.Sprintf("%gd", s/86400)
	case s >= 3600 && math.Mod(s, 3600) == 0:
		return fmt.Sprintf("%gh", s/3600)
	case s >= 60 && math.Mod(s, 60) == 0:
		return fmt.Sprintf("%gmin", s/60)
	}
	return fmt.Sprintf("%gs", s)
}

// writeBurstFigures writes the CSV files of --figures into dir.
func writeBurstFigures(dir string, r *bursty.Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// Each file is written atomically: an interrupted run leaves the
	// complete files it wrote and none cut short.
	write := func(name string, header []string, rows [][]string) error {
		return writeOutput(filepath.Join(dir, name), nil, func(w io.Writer) error {
			cw := csv.NewWriter(w)
			_ = cw.Write(header)
			_ = cw.WriteAll(rows)
			cw.Flush()
			return cw.Error()
		})
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	// dist returns one row per distinct value of the sorted sample with
	// P(X <= v) (cdf) or P(X >= v) (ccdf).
	dist := func(sorted []float64, ccdf bool) [][]string {
		var rows [][]string
		n := float64(len(sorted))
		for i := 0; i < len(sorted); {
			j := i
			for j < len(sorted) && sorted[j] == sorted[i] {
				j++
			}
			p := float64(j) / n
			if ccdf {
				p = float64(len(sorted)-i) / n
			}
			rows = append(rows, []string{g(sorted[i]), g(p)})
			i = j
		}
		return rows
	}
	if err := write("bia_cdf.csv", []string{"bia_s", "cdf"}, dist(r.BIASample, false)); err != nil {
		return err
	}
	if err := write("bot_durations_cdf.csv", []string{"duration_s", "cdf"}, dist(r.DurationSample, false)); err != nil {
		return err
	}
	if err := write("bot_runtimes_ccdf.csv", []string{"mean_runtime_s", "ccdf"}, dist(r.RuntimeSample, true)); err != nil {
		return err
	}
	var rows [][]string
	left := r.BoTs
	for _, sc := range r.Sizes {
		rows = append(rows, []string{strconv.Itoa(sc.Size), strconv.Itoa(sc.Count), g(float64(left) / float64(r.BoTs))})
		left -= sc.Count
	}
	return write("bot_sizes.csv", []string{"size", "bags", "ccdf"}, rows)
}

// allJobsHint suggests --all-jobs when no successful job was left to
// analyse and the jobs of other statuses were left out (a log that records
// no status has none with status 1).
func allJobsHint(err error, allJobs bool) string {
	if !allJobs && errors.Is(err, bursty.ErrNoJobs) {
		return "; --all-jobs takes every job whatever its status"
	}
	return ""
}
