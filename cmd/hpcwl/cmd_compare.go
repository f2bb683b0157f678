package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/locality"
	"github.com/hpcwl/hpcwl/report"
	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/scorecard"
	"github.com/hpcwl/hpcwl/stats"
	"github.com/hpcwl/hpcwl/trace"
)

func init() { register(newCompareCommand) }

// compareOptions are the options of `hpcwl compare`.
type compareOptions struct {
	depth   string
	unit    string
	blocks  string
	segment string
	users   string
	pox     bool
	json    bool
	card    bool
	seed    uint64
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
    1 at the top (--depth thesis: 0 at the top, an entry keeping its value,
    which reproduces the thesis's Table VI);
  - locality by daily concentration: the median over days of the largest
    fraction of a day's jobs in one of 16 equal-weight bins (1/16 = no
    locality);
  - the Hurst parameter of the arrivals by rescaled range (pox plot: block
    sizes growing by 1.2, 10 evenly spaced blocks of each size, a line fitted
    through every block; --hurst-blocks all uses every non-overlapping
    block instead, which weighs the small sizes more); --json with --pox
    adds the plot's points.

A generated log (hpcwl resample) numbers its user copies. By default
(--users copy, as in Zakay's PhD thesis, chapter 3, section 5) the per-user distributions count every
copy as a user, so a long-term user cut by a regeneration counts twice.
A long-term user's copies follow one another in one slot, one user present
all the time (the long-term population is constant and each user is
regenerated in its slot, thesis chapter 3); --users slot counts each slot as one user (and
each temporary copy as one).

--segment LEN also cuts RESAMPLED into consecutive segments of LEN from
time 0 (a workload extended to several times the log's length, thesis
chapter 3, section 6)
and analyses each complete segment as a log of its own, its times counted
from the segment's start: users are the copies with jobs in the segment, so
a copy that spans two segments counts in both.

--scorecard prints instead the realism scorecard of RESAMPLED (or any
candidate workload, such as a generated one) against ORIGINAL: for each
feature (runtime, size, inter-arrival and requested time distributions; jobs
and sessions per user and session length; daily and weekly cycles; offered
load; Hurst parameter) a distance and a verdict, close, differs or far.
Close: within sampling error at the workloads' sizes (5% tests: two-sample
Kolmogorov-Smirnov, chi-square of homogeneity of the cycles, Welch's t on
weekly loads, the Hurst estimator's spread over --seed shuffles of the
hourly arrivals). Far: a 5% test on 500 jobs would see it (Lublin and
Feitelson's sub-samples), the load lies outside 95% of the reference's
weeks, or the Hurst parameter is further off than independent arrivals'.
The columns "close if <=" and "far if >" give both bounds of each row.` + exitStatusHelp,
		Example: `  hpcwl resample builtin:KTH-SP2 --seed 3 -o kth-r.swf
  hpcwl compare builtin:KTH-SP2 kth-r.swf
  hpcwl compare builtin:KTH-SP2 kth-r.swf --json --pox > pox.json
  hpcwl resample builtin:KTH-SP2 --duration 245w -o kth5.swf
  hpcwl compare builtin:KTH-SP2 kth5.swf --segment 49w
  hpcwl compare builtin:KTH-SP2 kth-r.swf --scorecard
  hpcwl generate lublin --procs 100 --count 20000 --seed 1 -o lublin.swf
  hpcwl compare builtin:KTH-SP2 lublin.swf --scorecard --json > card.json`,
		Args: exactArgs(2, "ORIGINAL and RESAMPLED"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runCompare(cmd.Context(), opts, args[0], args[1], stdout)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&opts.unit, "unit", "1h", "base time unit of the Hurst series")
	f.StringVar(&opts.blocks, "hurst-blocks", "even", "Hurst pox plot: even (10 blocks of every size, so every size weighs the same; matches Table VII) or all (every non-overlapping block)")
	f.StringVar(&opts.depth, "depth", "top1", "stack-depth convention: top1 (1 at the top, a found entry takes the new value) or thesis (0 at the top, the entry keeps its value; matches Table VI)")
	f.StringVar(&opts.users, "users", "copy", "users of a generated log: copy (every copy is one) or slot (a long-term slot is one)")
	f.StringVar(&opts.segment, "segment", "", "also compare each complete segment of this length of RESAMPLED (e.g. 52w)")
	f.BoolVar(&opts.pox, "pox", false, "with --json, include the pox plot points")
	f.BoolVar(&opts.json, "json", false, "print the comparison as JSON")
	f.BoolVar(&opts.card, "scorecard", false, "print the realism scorecard: per-feature distance and verdict (close, differs, far)")
	f.Uint64Var(&opts.seed, "seed", 1, "--scorecard: seed of the shuffles that give the Hurst parameter's spread")
	return cmd
}

// workloadAnalysis holds the analyses of one workload.
type workloadAnalysis struct {
	Name  string `json:"name"`
	Jobs  int    `json:"jobs"`
	Users int    `json:"users"`
	// Unrunnable counts the jobs without runtime or processors: kept in
	// the arrivals and per-user counts, left out of work and of the stack
	// depth and daily bins of the missing attribute.
	Unrunnable int                       `json:"unrunnable"`
	PerUser    map[string][]float64      `json:"per_user,omitempty"`
	Quartiles  map[string][3]float64     `json:"per_user_quartiles"`
	Stack      map[string]locality.Depth `json:"stack_depth"`
	Bins       map[string]locality.Bins  `json:"daily_bins"`
	Hurst      locality.HurstResult      `json:"hurst"`
	HurstRS    stats.HurstEstimate       `json:"hurst_stats_rs"`
}

// compareReport is the JSON form of `hpcwl compare`.
type compareReport struct {
	Version   string             `json:"hpcwl_version"`
	Original  *workloadAnalysis  `json:"original"`
	Resampled *workloadAnalysis  `json:"resampled"`
	KS        map[string]float64 `json:"per_user_ks_distance"`
	// Segments are RESAMPLED's segments with --segment, and SegmentKS
	// their per-user KS distances to the original.
	SegmentLength int64                `json:"segment_length,omitempty"`
	Segments      []*workloadAnalysis  `json:"segments,omitempty"`
	SegmentKS     []map[string]float64 `json:"segment_ks_distance,omitempty"`
}

// analysisOptions are the choices of the analyses.
type analysisOptions struct {
	unit   int64 // Hurst base unit, s
	all    bool  // Hurst: every non-overlapping block
	bySlot bool  // a long-term slot is one user
	depth  locality.StackOptions
}

func analyse(name string, ao analysisOptions) (*workloadAnalysis, *trace.Trace, error) {
	t, err := loadAnyTrace(name)
	if err != nil {
		return nil, nil, err
	}
	if ao.bySlot {
		if err := usersBySlot(t); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	t.SortBySubmit()
	a, err := analyseTrace(name, t, ao)
	return a, t, err
}

// analyseTrace analyses t, sorted by submit time.
func analyseTrace(name string, t *trace.Trace, ao analysisOptions) (*workloadAnalysis, error) {
	var err error
	a := &workloadAnalysis{Name: name, Jobs: t.Len(), Unrunnable: t.Unrunnable(), Quartiles: map[string][3]float64{},
		Stack: map[string]locality.Depth{}, Bins: map[string]locality.Bins{}}
	if a.PerUser, err = locality.Users(t); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	a.Users = len(a.PerUser["jobs"])
	for k, v := range a.PerUser {
		if len(v) > 0 {
			a.Quartiles[k] = [3]float64{stats.EmpiricalQuantileSorted(v, 0.25), stats.EmpiricalQuantileSorted(v, 0.5), stats.EmpiricalQuantileSorted(v, 0.75)}
		}
	}
	for _, at := range locality.Attrs {
		a.Stack[at.Name] = locality.StackDepthWith(t, at, ao.depth)
		b := locality.DailyBins(t, at, locality.DailyBinsOptions{})
		b.MaxFraction = nil
		a.Bins[at.Name] = b
	}
	a.Hurst = locality.Hurst(t, locality.HurstOptions{Unit: ao.unit, AllBlocks: ao.all})
	a.HurstRS, _ = stats.RescaledRange(locality.Arrivals(t, ao.unit))
	a.HurstRS.LogX, a.HurstRS.LogY = nil, nil
	return a, nil
}

func runCompare(ctx context.Context, opts compareOptions, orig, res string, stdout io.Writer) error {
	unit, err := parseSpan(opts.unit)
	if err != nil || unit <= 0 {
		return usagef("--unit: %v", orPositive(err, opts.unit))
	}
	var seg int64
	if opts.segment != "" {
		if seg, err = parseSpan(opts.segment); err != nil || seg <= 0 {
			return usagef("--segment: %v", orPositive(err, opts.segment))
		}
	}
	if opts.card {
		if seg > 0 || opts.pox {
			return usagef("--scorecard does not take --segment or --pox")
		}
		return runScorecard(ctx, opts, unit, orig, res, stdout)
	}
	ao := analysisOptions{unit: unit}
	switch opts.blocks {
	case "all":
		ao.all = true
	case "even":
	default:
		return usagef("unknown --hurst-blocks %q; valid: even, all", opts.blocks)
	}
	switch opts.users {
	case "slot":
		ao.bySlot = true
	case "copy":
	default:
		return usagef("unknown --users %q; valid: copy, slot", opts.users)
	}
	switch opts.depth {
	case "top1":
	case "thesis":
		ao.depth = locality.ThesisDepth
	default:
		return usagef("unknown --depth %q; valid: top1, thesis", opts.depth)
	}
	rep := compareReport{Version: version.String(), SegmentLength: seg}
	if rep.Original, _, err = analyse(orig, ao); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var rt *trace.Trace
	if rep.Resampled, rt, err = analyse(res, ao); err != nil {
		return err
	}
	rep.KS = locality.UserKSDistances(rep.Original.PerUser, rep.Resampled.PerUser)
	if seg > 0 {
		parts := rt.Segments(seg)
		if len(parts) == 0 {
			return fmt.Errorf("%s: shorter than one --segment of %s; nothing to cut", res, opts.segment)
		}
		for k, p := range parts {
			if err := ctx.Err(); err != nil {
				return err
			}
			a, err := analyseTrace(fmt.Sprintf("%s segment %d", res, k+1), p, ao)
			if err != nil {
				return err
			}
			rep.Segments = append(rep.Segments, a)
			rep.SegmentKS = append(rep.SegmentKS, locality.UserKSDistances(rep.Original.PerUser, a.PerUser))
		}
	}
	if opts.json {
		for _, a := range append([]*workloadAnalysis{rep.Original, rep.Resampled}, rep.Segments...) {
			a.PerUser = nil
			if !opts.pox {
				a.Hurst.Points = nil
			}
		}
		return writeJSON(stdout, rep)
	}
	return printCompare(stdout, &rep)
}

// usersBySlot gives the jobs of every long-term copy of a generated log
// the user ID of its slot (one more than the largest copy ID plus the
// slot), using the header's UserCopy lines; other logs are left alone.
func usersBySlot(t *trace.Trace) error {
	cs, err := resample.Copies(&t.Header)
	if err != nil || len(cs) == 0 {
		return err
	}
	var top int32
	for id := range cs {
		top = max(top, id)
	}
	for i := range t.Jobs {
		j := &t.Jobs[i]
		if c, ok := cs[j.User]; ok && c.Class == resample.LongTerm && c.Slot >= 0 {
			j.User = top + 1 + c.Slot
		}
	}
	return nil
}

func printCompare(w io.Writer, r *compareReport) error {
	if len(r.Segments) > 0 {
		return printSegments(w, r)
	}
	o, s := r.Original, r.Resampled
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\toriginal\tresampled\t\n")
	fmt.Fprintf(tw, "workload\t%s\t%s\t\n", o.Name, s.Name)
	fmt.Fprintf(tw, "jobs\t%d\t%d\t\n", o.Jobs, s.Jobs)
	fmt.Fprintf(tw, "users\t%d\t%d\t\n", o.Users, s.Users)
	if o.Unrunnable+s.Unrunnable > 0 {
		fmt.Fprintf(tw, "without runtime or processors\t%d\t%d\t\n", o.Unrunnable, s.Unrunnable)
	}
	fmt.Fprintf(tw, "\t\t\t\n")
	fmt.Fprintf(tw, "per user (quartiles)\toriginal\tresampled\tKS distance\t\n")
	for _, k := range locality.UserMetrics {
		q1, q2 := o.Quartiles[k], s.Quartiles[k]
		f := userValue(k)
		fmt.Fprintf(tw, "%s\t%s / %s / %s\t%s / %s / %s\t%.3f\t\n", userMetricLabel(k), f(q1[0]), f(q1[1]), f(q1[2]), f(q2[0]), f(q2[1]), f(q2[2]), r.KS[k])
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
	fmt.Fprintf(tw, "Hurst (R/S pox)\t%.3f\t%.3f\t\t\n", o.Hurst.H, s.Hurst.H)
	fmt.Fprintf(tw, "Hurst (R/S, mean per size)\t%.3f\t%.3f\t\t\n", o.HurstRS.H, s.HurstRS.H)
	return tw.Flush()
}

// printSegments prints the original next to each segment of the resampled
// workload (--segment).
func printSegments(w io.Writer, r *compareReport) error {
	all := append([]*workloadAnalysis{r.Original}, r.Segments...)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	row := func(name string, f func(a *workloadAnalysis) string) {
		fmt.Fprintf(tw, "%s\t", name)
		for _, a := range all {
			fmt.Fprintf(tw, "%s\t", f(a))
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprintf(w, "original: %s\nsegments of %s: %.4g weeks each\n\n", r.Original.Name, r.Resampled.Name, float64(r.SegmentLength)/(7*86400))
	fmt.Fprintf(tw, "\toriginal\t")
	for k := range r.Segments {
		fmt.Fprintf(tw, "segment %d\t", k+1)
	}
	fmt.Fprintln(tw)
	row("jobs", func(a *workloadAnalysis) string { return strconv.Itoa(a.Jobs) })
	row("users", func(a *workloadAnalysis) string { return strconv.Itoa(a.Users) })
	row("without runtime or processors", func(a *workloadAnalysis) string { return strconv.Itoa(a.Unrunnable) })
	for _, k := range locality.UserMetrics {
		f := userValue(k)
		row("median "+userMetricLabel(k), func(a *workloadAnalysis) string { return f(a.Quartiles[k][1]) })
	}
	for _, k := range locality.UserMetrics {
		fmt.Fprintf(tw, "KS %s\t-\t", k)
		for _, m := range r.SegmentKS {
			fmt.Fprintf(tw, "%.3f\t", m[k])
		}
		fmt.Fprintln(tw)
	}
	for _, at := range locality.Attrs {
		row("stack depth "+at.Name, func(a *workloadAnalysis) string { return fmt.Sprintf("%.2f", a.Stack[at.Name].Mean) })
	}
	for _, at := range locality.Attrs {
		row("daily bins "+at.Name, func(a *workloadAnalysis) string { return fmt.Sprintf("%.3f", a.Bins[at.Name].Median) })
	}
	row("Hurst (R/S pox)", func(a *workloadAnalysis) string { return fmt.Sprintf("%.3f", a.Hurst.H) })
	row("Hurst (R/S mean)", func(a *workloadAnalysis) string { return fmt.Sprintf("%.3f", a.HurstRS.H) })
	return tw.Flush()
}

// userMetricLabel names a per-user metric with its unit where it has one.
func userMetricLabel(k string) string {
	switch k {
	case "work":
		return "work (processor-hours)"
	case "weeks_active":
		return "weeks active"
	}
	return strings.ReplaceAll(k, "_", " ")
}

// userValue formats a per-user metric: times as durations with their unit
// ("14.3m", "2.50d"), work in processor-hours, counts as numbers, never in
// scientific notation.
func userValue(k string) func(float64) string {
	switch k {
	case "session_length", "first_arrival", "last_departure", "activity":
		return durationText
	case "work":
		return func(x float64) string { return strconv.FormatFloat(x/3600, 'f', 1, 64) }
	}
	return func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
}

// scorecardReport is the JSON form of `hpcwl compare --scorecard`.
type scorecardReport struct {
	Version string          `json:"hpcwl_version"`
	Inputs  []inputRecord   `json:"inputs"`
	Card    *scorecard.Card `json:"scorecard"`
}

func runScorecard(ctx context.Context, opts compareOptions, unit int64, ref, cand string, stdout io.Writer) error {
	a, err := loadAnyTrace(ref)
	if err != nil {
		return err
	}
	b, err := loadAnyTrace(cand)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	card, err := scorecard.Compare(a, b, scorecard.Options{HurstUnit: unit, Seed: opts.seed})
	if err != nil {
		return err
	}
	if opts.json {
		return writeJSON(stdout, scorecardReport{Version: version.String(), Inputs: runInputs, Card: card})
	}
	return printScorecard(stdout, card)
}

// scorecardTable lays the scorecard out as a table, one row per feature.
func scorecardTable(c *scorecard.Card) report.Table {
	t := report.Table{Header: []string{"feature", "reference", "candidate", "n", "distance", "statistic", "close if <=", "far if >", "verdict", "note"}}
	num := func(x float64) string {
		if math.IsNaN(x) {
			return "-"
		}
		return strconv.FormatFloat(x, 'f', 4, 64)
	}
	for _, r := range c.Rows {
		dist := "-"
		if !math.IsNaN(r.Distance) {
			switch r.Kind {
			case scorecard.Distribution:
				dist = "D " + num(r.Distance)
			case scorecard.Cycle:
				dist = "TV " + num(r.Distance)
			default:
				dist = fmt.Sprintf("%+.1f%%", 100*r.Distance)
			}
		}
		stat := "-"
		if !math.IsNaN(r.Statistic) {
			stat = r.Test + " " + num(r.Statistic)
		}
		t.Rows = append(t.Rows, []string{r.Feature, orDash(r.Reference), orDash(r.Candidate), fmt.Sprintf("%d / %d", r.N[0], r.N[1]),
			dist, stat, num(r.CloseBound), num(r.FarBound), string(r.Verdict), r.Note})
	}
	return t
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// scorecardSummary is one sentence: the workloads and the verdict counts.
func scorecardSummary(c *scorecard.Card) string {
	return fmt.Sprintf("%s against the reference %s: %d close, %d differ, %d far, %d not measured. Close: within sampling error at the workloads' sizes (tests at %g%%); far: a difference a %g%% test on %d jobs would see, a load outside 95%% of the reference's weeks, or a Hurst parameter further off than independent arrivals'.",
		c.Candidate, c.Reference, c.Count(scorecard.Close), c.Count(scorecard.Differs), c.Count(scorecard.Far), c.Count(scorecard.NA),
		100*c.Alpha, 100*c.Alpha, c.Subsample)
}

func printScorecard(w io.Writer, c *scorecard.Card) error {
	t := scorecardTable(c)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(t.Header, "\t"))
	for _, r := range t.Rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%s\n", scorecardSummary(c))
	return err
}
