package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hpcwl/hpcwl/clean"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/spf13/cobra"
)

func init() { register(newCleanCommand) }

type cleanOptions struct {
	traceFlags
	out        string
	to         string
	asJSON     bool
	detectOnly bool

	keepPartial, keepInvalid, dropUnknownUser, dropCancelledZero bool
	statuses, keepUsers, dropUsers                               []int
	start, end                                                   string
	filters                                                      []string
	oversize                                                     string

	flurries               string
	factor, medianFactor   float64
	minJobs, medianMinJobs int
	cascade                bool
	gap                    int64
}

func newCleanCommand(stdout, stderr io.Writer) *cobra.Command {
	var o cleanOptions
	cmd := &cobra.Command{
		Use:   "clean TRACE -o OUT",
		Short: "Remove bad records, chosen jobs and flurries from a trace",
		Long: `Remove unwanted jobs from a trace and write the rest.

By default clean drops partial-execution records (status 2, 3 or 4) and jobs
with a negative submit time, a negative (unknown) run time or no processors,
and jobs larger than the machine (--oversize error refuses them instead,
clamp shrinks them, keep leaves them; every command that meets such jobs
drops them by default and says how many). Options drop chosen statuses, users, a time window, cancelled jobs
that never ran, and jobs matching filter expressions in the style of the
Parallel Workloads Archive (jobs that match are dropped):

  user=374 and 14968<job<28553        user=21 and (job>=13717 and job<=16207)
  status=5 and run=0                  processors>64 or reqtime=-1
  user=5 and hour=3                   submit<=2006-12-18 00:00:00

Fields: job, submit, wait, run, procs, cpu, mem, reqprocs, reqtime, reqmem,
status, user, group, app, queue, partition, preceding, think, processors
(allocated, else requested), hour (local hour of day of the submit time), or
the CSV column names. Dates (2006-12-18, 2006-12-18 00:00:00) are local times
and compare with submit.

Flurries, bursts of jobs by one user, are found by two detectors on weekly
job counts (weeks start Monday 00:00 local time):
  weekly  a user-week with >= --flurry-factor (3) times the largest weekly
          count of any other user and >= --flurry-min-jobs (500) jobs
  median  a user-week with > --median-factor (10) times the user's median
          weekly count and > --median-min-jobs (500) jobs
Flagged consecutive weeks merge, and each flurry extends over the user's jobs
less than --flurry-gap seconds apart. --detect-only lists the flurries with
the filter expressions that remove them, without writing anything; review
them, then remove them with --flurries or with --filter.

The output's header keeps the input's and adds notes saying what was removed
and how many jobs, with the hpcwl version and the parameters. A summary of
the removed jobs per reason goes to stderr, or as JSON to stdout (--json).` + exitStatusHelp,
		Example: `  hpcwl clean SDSC-SP2-1998-4.2-cln.swf.gz -o sp2.swf.gz
  hpcwl clean raw.swf --detect-only
  hpcwl clean raw.swf --flurries weekly -o clean.swf
  hpcwl clean raw.swf --filter 'user=374 and 14968<job<28553' -o clean.swf
  hpcwl clean log.swf --procs 128 --oversize clamp --status 1 -o done.csv`,
		Args: exactArgs(1, "one trace"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runClean(args[0], &o, stdout, stderr)
		}),
	}
	f := cmd.Flags()
	o.traceFlags.add(cmd)
	addBatsimVersionFlag(cmd)
	f.StringVarP(&o.out, "output", "o", "", "output file (\"-\" for stdout); required unless --detect-only")
	f.StringVar(&o.to, "to", "", "output format: swf, csv, batsim or parquet (default: from the -o extension)")
	f.BoolVar(&o.asJSON, "json", false, "print the summary (or the flurries) as JSON on stdout")
	f.BoolVar(&o.detectOnly, "detect-only", false, "list the flurries the detectors find and their filters; write nothing")
	f.BoolVar(&o.keepPartial, "keep-partial", false, "keep partial-execution records (status 2, 3, 4)")
	f.BoolVar(&o.keepInvalid, "keep-invalid", false, "keep jobs with negative submit or run time or no processors")
	f.BoolVar(&o.dropUnknownUser, "drop-unknown-user", false, "drop jobs whose user is unknown (-1)")
	f.BoolVar(&o.dropCancelledZero, "drop-cancelled-zero", false, "drop cancelled jobs (status 5) with run time 0")
	f.IntSliceVar(&o.statuses, "status", nil, "keep only jobs with these statuses (e.g. 0,1,5)")
	f.IntSliceVar(&o.keepUsers, "keep-users", nil, "keep only these users' jobs")
	f.IntSliceVar(&o.dropUsers, "drop-users", nil, "drop these users' jobs")
	f.StringVar(&o.start, "start", "", "drop jobs submitted before this: seconds of log time, or a local date[Thh:mm[:ss]]")
	f.StringVar(&o.end, "end", "", "drop jobs submitted at or after this (same forms as --start)")
	f.StringArrayVar(&o.filters, "filter", nil, "drop the jobs matching this expression (repeatable)")
	f.StringVar(&o.oversize, "oversize", "drop", "jobs larger than the machine: drop, error, clamp or keep")
	f.StringVar(&o.flurries, "flurries", "", "remove flurries found by: none, weekly, median or both (default none; both with --detect-only)")
	f.Float64Var(&o.factor, "flurry-factor", 3, "weekly detector: ratio to the other users' largest weekly count")
	f.IntVar(&o.minJobs, "flurry-min-jobs", 500, "weekly detector: least jobs in a flagged week")
	f.BoolVar(&o.cascade, "flurry-cascade", false, "weekly detector: also find flurry users that hide one another")
	f.Float64Var(&o.medianFactor, "median-factor", 10, "median detector: ratio to the user's median weekly count")
	f.IntVar(&o.medianMinJobs, "median-min-jobs", 500, "median detector: flagged weeks have more jobs than this")
	f.Int64Var(&o.gap, "flurry-gap", 86400, "extend flurries over the user's jobs less than this many seconds apart (0: no extension)")
	return cmd
}

// cleanSummary is what clean prints with --json.
type cleanSummary struct {
	Input  string `json:"input"`
	Output string `json:"output,omitempty"`
	Format string `json:"format,omitempty"`
	*clean.Report
}

func (o *cleanOptions) flurryOptions() (clean.FlurryOptions, error) {
	fo := clean.FlurryOptions{Factor: o.factor, MinJobs: o.minJobs, Cascade: o.cascade,
		MedianFactor: o.medianFactor, MedianMinJobs: o.medianMinJobs, Gap: o.gap}
	if o.gap == 0 {
		fo.Gap = -1
	}
	switch {
	case o.factor <= 0 || o.medianFactor <= 0:
		return fo, usagef("--flurry-factor and --median-factor must be positive")
	case o.minJobs <= 0 || o.medianMinJobs <= 0:
		return fo, usagef("--flurry-min-jobs and --median-min-jobs must be positive")
	case o.gap < 0:
		return fo, usagef("--flurry-gap must be >= 0, got %d", o.gap)
	}
	which := strings.ToLower(o.flurries)
	if which == "" && o.detectOnly {
		which = "both"
	}
	switch which {
	case "", "none":
	case "weekly", "talby":
		fo.Weekly = true
	case "median", "zakay":
		fo.Median = true
	case "both", "weekly,median", "median,weekly":
		fo.Weekly, fo.Median = true, true
	default:
		return fo, usagef("unknown detector %q for --flurries; valid: none, weekly, median, both", o.flurries)
	}
	return fo, nil
}

// parseTime reads a --start/--end value: seconds of log time, or a local
// date and time in the log's time zone.
func parseTime(flag, s string, clock *trace.Clock) (int64, error) {
	if s == "" {
		return 0, nil
	}
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, nil
	}
	for _, layout := range []string{"2006-01-02", "2006-01-02T15:04", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02 15:04:05"} {
		if t, err := time.ParseInLocation(layout, s, clock.Loc); err == nil {
			return t.Unix() - clock.Start, nil
		}
	}
	return 0, usagef("--%s %q: expected seconds of log time or a local date such as 1998-05-01 or 1998-05-01T08:00", flag, s)
}

func runClean(in string, o *cleanOptions, stdout, stderr io.Writer) error {
	switch {
	case o.out == "" && !o.detectOnly:
		return usagef("clean needs the output file: -o OUT (\"-\" for stdout), or --detect-only")
	case o.out != "" && o.detectOnly:
		return usagef("--detect-only writes nothing; drop -o %s", o.out)
	}
	outs := []output{{"-o", o.out}}
	format := ""
	if !o.detectOnly {
		var err error
		if format, err = outputFormat(o.out, o.to); err != nil {
			return err
		}
	}
	fo, err := o.flurryOptions()
	if err != nil {
		return err
	}
	if err := checkOutputs([]string{in}, outs...); err != nil {
		return err
	}
	over, err := clean.ParseOversize(o.oversize)
	if err != nil {
		return usageError{err}
	}
	if o.detectOnly {
		over = clean.OversizeKeep
	}
	opt := clean.Options{KeepPartial: o.keepPartial, KeepInvalid: o.keepInvalid,
		DropUnknownUser: o.dropUnknownUser, DropCancelledZero: o.dropCancelledZero,
		Statuses: o.statuses, KeepUsers: o.keepUsers, DropUsers: o.dropUsers,
		Flurries: fo, Oversize: over}
	for _, s := range o.filters {
		f, err := clean.ParseFilter(s)
		if err != nil {
			return usageError{err}
		}
		opt.Filters = append(opt.Filters, f)
	}
	var rep *clean.Report
	var inJobs int
	var flagged func() int
	if streamOutputs && !o.detectOnly && inputFormat(in) == formatSWF && (in != "-" || !fo.Enabled()) {
		rep, inJobs, flagged, err = cleanStream(in, o, opt, format, stdout)
	} else {
		rep, inJobs, flagged, err = cleanWhole(in, o, opt, fo, format, stdout)
	}
	var oe *clean.OversizeJobError
	if errors.As(err, &oe) {
		return fmt.Errorf("%w; drop such jobs with --oversize drop, clamp them to the machine with --oversize clamp, "+
			"or give the right machine size with --procs N", err)
	}
	if errors.Is(err, errNoJobs) {
		printCleanSummary(stderr, in, rep)
		return fmt.Errorf("%w: the filters dropped all %d jobs", err, inJobs)
	}
	if err != nil || o.detectOnly {
		return err
	}
	if rep.Flurries == nil {
		rep.Flurries = []clean.Flurry{}
	}
	if o.asJSON {
		return writeJSON(summaryWriter(stdout, stderr, outs...), cleanSummary{Input: in, Output: o.out, Format: format, Report: rep})
	}
	printCleanSummary(stderr, in, rep)
	if !fo.Enabled() {
		if n := flagged(); n > 0 {
			fmt.Fprintf(stderr, "note: the weekly detector flags %d possible flurries in the output; "+
				"list them with --detect-only, remove them with --flurries weekly\n", n)
		}
	}
	return nil
}

// windowOptions sets the window of opt from --start and --end, read with
// clock.
func windowOptions(o *cleanOptions, opt *clean.Options, clock *trace.Clock) error {
	var err error
	if opt.From, err = parseTime("start", o.start, clock); err != nil {
		return err
	}
	if opt.To, err = parseTime("end", o.end, clock); err != nil {
		return err
	}
	if o.end != "" && opt.To <= opt.From {
		return usagef("--end (%d) must come after --start (%d)", opt.To, opt.From)
	}
	return nil
}

// cleanWhole cleans the log held whole and writes it (or, with
// --detect-only, prints the flurries). It returns the report, the number
// of jobs read and a function counting the flurries the weekly detector
// flags in the output.
func cleanWhole(in string, o *cleanOptions, opt clean.Options, fo clean.FlurryOptions, format string, stdout io.Writer) (*clean.Report, int, func() int, error) {
	t, err := loadAnyTrace(in, trace.Options{Procs: o.procs})
	if err != nil {
		return nil, 0, nil, err
	}
	if err := windowOptions(o, &opt, t.Clock()); err != nil {
		return nil, 0, nil, err
	}
	out, rep, err := clean.Clean(t, opt)
	if err != nil {
		return nil, 0, nil, err
	}
	if o.detectOnly {
		if o.asJSON {
			return rep, t.Len(), nil, writeJSON(stdout, map[string]any{"input": in, "detectors": fo.String(), "flurries": nonNil(rep.Flurries)})
		}
		return rep, t.Len(), nil, printFlurries(stdout, in, fo, rep.Flurries)
	}
	flagged := func() int { return len(clean.DetectFlurries(out, clean.FlurryOptions{Weekly: true})) }
	return rep, t.Len(), flagged, writeTrace(out, o.out, format, stdout, t)
}

// cleanStream cleans an SWF log job by job (clean.Cleaner), writing each
// job kept at once; with flurry detection the log file is read twice. The
// output's header, which counts the jobs kept, comes after them (through
// a scratch file). Besides counters it holds the number, submit time and
// user of every job kept, for the weekly detector's note.
func cleanStream(in string, o *cleanOptions, opt clean.Options, format string, stdout io.Writer) (*clean.Report, int, func() int, error) {
	topt := trace.Options{Procs: o.procs}
	s, err := openScanner(in, topt)
	if err != nil {
		return nil, 0, nil, scanError(err)
	}
	defer s.Close()
	hdr := s.Header()
	if err := windowOptions(o, &opt, (&trace.Trace{Header: *hdr}).Clock()); err != nil {
		return nil, 0, nil, err
	}
	c, err := clean.NewCleaner(s.Name(), hdr, s.Procs(), opt)
	if err != nil {
		return nil, 0, nil, err
	}
	firstSHA := ""
	if c.NeedsFirstPass() {
		if err := scanJobs(s, func(j *trace.Job) error {
			c.Measure(j)
			return nil
		}); err != nil {
			return nil, 0, nil, err
		}
		t, err := s.Trace()
		if err != nil {
			return nil, 0, nil, err
		}
		c.EndFirstPass()
		firstSHA = t.SHA256
		s.Close()
		if s, err = openScanner(in, topt); err != nil {
			return nil, 0, nil, scanError(err)
		}
		defer s.Close()
	}
	w, err := createTraceOutput(o.out, format, stdout, traceSource{name: s.Name(), procs: s.Procs(), in: s.Name(), inSHA: shaLater})
	if err != nil {
		return nil, 0, nil, err
	}
	defer w.abort()
	// The weekly detector's note on the output needs its jobs' numbers,
	// submit times and users.
	var kept *clean.FlurryJobs
	if !opt.Flurries.Enabled() && !o.asJSON {
		kept = clean.NewFlurryJobs(hdr)
	}
	n := 0
	if err := scanJobs(s, func(j *trace.Job) error {
		n++
		if !c.Clean(j) {
			return nil
		}
		if kept != nil {
			kept.Add(j)
		}
		return w.WriteJob(j)
	}); err != nil {
		return nil, 0, nil, err
	}
	t, err := scanDone(s)
	if err != nil {
		return nil, 0, nil, err
	}
	if firstSHA != "" && t.SHA256 != firstSHA {
		return nil, 0, nil, fmt.Errorf("%s: the file changed while being read; nothing written", in)
	}
	rep, h, err := c.Finish(&t.Header)
	if err != nil {
		return nil, 0, nil, err
	}
	if err := w.setHeader(h); err != nil {
		return nil, 0, nil, err
	}
	flagged := func() int { return 0 }
	if kept != nil {
		kept.UseHeader(&h)
		flagged = func() int { return len(kept.Detect(clean.FlurryOptions{Weekly: true})) }
	}
	return rep, n, flagged, w.finish(t.SHA256)
}

func nonNil(f []clean.Flurry) []clean.Flurry {
	if f == nil {
		return []clean.Flurry{}
	}
	return f
}

func printCleanSummary(w io.Writer, in string, rep *clean.Report) {
	fmt.Fprintf(w, "%s: kept %d of %d jobs, removed %d\n", in, rep.Output, rep.Input, rep.RemovedJobs())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  reason\t   jobs\trule")
	for _, r := range rep.Removed {
		fmt.Fprintf(tw, "  %s\t%7d\t%s\n", r.Reason, r.Jobs, r.What)
	}
	tw.Flush()
	if rep.Clamped > 0 {
		fmt.Fprintf(w, "  clamped %d jobs to the machine's %d processors\n", rep.Clamped, rep.Procs)
	}
}

func printFlurries(w io.Writer, in string, fo clean.FlurryOptions, fl []clean.Flurry) error {
	fmt.Fprintf(w, "%s: %s found by %s\n", in, plural(len(fl), "flurry", "flurries"), fo.String())
	if len(fl) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "method\tuser\tweeks\tfrom\tfirst job\tlast job\tjobs\tpeak/week\tbaseline")
	for _, f := range fl {
		weeks := strconv.Itoa(f.FirstWeek)
		if f.LastWeek != f.FirstWeek {
			weeks += "-" + strconv.Itoa(f.LastWeek)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%d\t%d\t%d\t%d\t%g\n", f.Method, f.User, weeks, f.WeekStart,
			f.FirstJob, f.LastJob, f.Jobs, f.PeakWeekJobs, f.Baseline)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nfilters (remove with --filter EXPR, or all of them with --flurries):")
	for _, f := range fl {
		fmt.Fprintf(w, "  %s\n", f.Filter)
	}
	return nil
}
