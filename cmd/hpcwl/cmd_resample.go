package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/resample"
)

func init() { register(newResampleCommand) }

// poolFlags are the user-classification and generator flags shared by
// resample, replicate and compare.
type poolFlags struct {
	trace       traceFlags
	duration    string
	load        float64
	seed        uint64
	rbnpw       float64
	rare        []string
	detectRare  bool
	longTerm    string
	boundary    string
	discard     string
	weeksActive string
	period      string
	week0       bool
	innerRate   bool
	alignLT     bool
	rareFactor  float64
	rareMinJobs int
}

func (f *poolFlags) add(cmd *cobra.Command) {
	f.trace.add(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.duration, "duration", "", "length of the generated workload, e.g. 5y, 52w, 90d (default: the log's length; 1w to 5200w, about 99.7 years)")
	fl.Float64Var(&f.load, "load", 1, "load factor: multiplies the number of users (above 0, at most 100)")
	fl.Uint64Var(&f.seed, "seed", 1, "random seed (recorded in the output)")
	fl.Float64Var(&f.rbnpw, "rb-npw", 0, "rare behaviours started per week on average, in place of temporary users")
	fl.StringArrayVar(&f.rare, "rare", nil, "a rare behaviour: USER:BEGIN-END in seconds from the log's start, or USER (repeatable)")
	fl.BoolVar(&f.detectRare, "detect-rare", false, "flag user-weeks with over 10x the user's median weekly jobs and over 500 jobs as rare behaviours")
	fl.Float64Var(&f.rareFactor, "rare-factor", 10, "detector: multiple of the user's median weekly job count")
	fl.IntVar(&f.rareMinJobs, "rare-min-jobs", 500, "detector: least jobs in a flagged week")
	fl.StringVar(&f.longTerm, "long-term-span", "12w", "users active longer than this are long-term")
	fl.StringVar(&f.boundary, "boundary", "4w", "temporary users active only this close to either end of the log are discarded")
	fl.StringVar(&f.discard, "discard", "inside", "boundary rule: inside (whole activity inside a boundary window), touch (activity touches one), none")
	fl.StringVar(&f.weeksActive, "weeks-active", "distinct", "a user's weeks active: distinct (weeks with a job) or span (ceil(span/week))")
	fl.StringVar(&f.period, "period", "auto", "log period: header (time 0 to EndTime), submits (first to last submit), "+
		"or auto: header, but an end more than 28 days away from the jobs is the submit's")
	fl.BoolVar(&f.week0, "week0-arrivals", false, "also draw weekly temporary arrivals in week 0")
	fl.BoolVar(&f.innerRate, "inner-rate", false, "weekly arrival rate over the weeks between the boundary windows")
	fl.BoolVar(&f.alignLT, "align-long-term", false, "start every long-term user at one common random week, keeping the log's relative timing of long-term users (a diagnostic; not the thesis's method)")
}

// classifyOptions parses the classification flags.
func (f *poolFlags) classifyOptions() (resample.ClassifyOptions, error) {
	var o resample.ClassifyOptions
	var err error
	if o.LongTermSpan, err = parseSpan(f.longTerm); err != nil || o.LongTermSpan <= 0 {
		return o, usagef("--long-term-span: %v", orPositive(err, f.longTerm))
	}
	if o.Boundary, err = parseSpan(f.boundary); err != nil || o.Boundary <= 0 {
		return o, usagef("--boundary: %v", orPositive(err, f.boundary))
	}
	switch f.discard {
	case "inside":
	case "touch":
		o.Touch = true
	case "none":
		o.NoDiscard = true
	default:
		return o, usagef("unknown --discard %q; valid: inside, touch, none", f.discard)
	}
	switch f.weeksActive {
	case "distinct":
	case "span":
		o.WeeksBySpan = true
	default:
		return o, usagef("unknown --weeks-active %q; valid: distinct, span", f.weeksActive)
	}
	switch f.period {
	case "auto":
	case "header":
		o.Period = resample.PeriodHeader
	case "submits":
		o.Period = resample.PeriodSubmits
	default:
		return o, usagef("unknown --period %q; valid: auto, header, submits", f.period)
	}
	for _, s := range f.rare {
		r, err := resample.ParseRarePeriod(s)
		if err != nil {
			return o, usageError{err}
		}
		o.Rare = append(o.Rare, r)
	}
	if f.detectRare {
		if f.rareFactor <= 0 || f.rareMinJobs < 0 {
			return o, usagef("--rare-factor must be > 0 and --rare-min-jobs >= 0")
		}
		o.Detect = &resample.RareDetector{Factor: f.rareFactor, MinJobs: f.rareMinJobs}
	}
	return o, nil
}

func orPositive(err error, v string) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("%q: must be positive", v)
}

// options parses the generator flags.
func (f *poolFlags) options() (resample.Options, error) {
	o := resample.Options{LoadFactor: f.load, Seed: f.seed, RBNPW: f.rbnpw, WeekZeroArrivals: f.week0, InnerRate: f.innerRate, AlignLongTerm: f.alignLT}
	if !(f.load > 0 && f.load <= resample.MaxLoadFactor) {
		return o, usagef("--load %v is out of range; valid: above 0, at most %d", f.load, resample.MaxLoadFactor)
	}
	if f.rbnpw < 0 || math.IsNaN(f.rbnpw) {
		return o, usagef("--rb-npw %v is out of range; valid: 0 to the weekly arrival rate of temporary users", f.rbnpw)
	}
	if f.duration != "" {
		d, err := parseSpan(f.duration)
		if err != nil {
			return o, usagef("--duration: %v", err)
		}
		if d < resample.MinDuration || d > resample.MaxDuration {
			return o, usagef("--duration %s is out of range; valid: %dw to %dw (%.1f years of 365.25 days)", f.duration,
				resample.MinDuration/resample.Week, resample.MaxDuration/resample.Week, float64(resample.MaxDuration)/(365.25*86400))
		}
		o.Duration = d
	}
	return o, nil
}

// pools loads the trace and classifies its users.
func (f *poolFlags) pools(name string) (*resample.Pools, error) {
	co, err := f.classifyOptions()
	if err != nil {
		return nil, err
	}
	t, err := f.trace.load(name)
	if err != nil {
		return nil, err
	}
	p, err := resample.Classify(t, co)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

// generatorError turns the generator's range errors into usage errors.
func generatorError(err error) error {
	var re *resample.RangeError
	if errors.As(err, &re) || errors.Is(err, resample.ErrNoRare) {
		return usageError{err}
	}
	return err
}

// parseSpan reads a length of time: seconds ("90") or a number with a unit
// s, m, h, d, w or y (365.25 days): "90s", "20m", "1.5h", "2d", "12w", "5y".
func parseSpan(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n >= 0 {
		return n, nil
	}
	units := map[byte]float64{'s': 1, 'm': 60, 'h': 3600, 'd': 86400, 'w': 7 * 86400, 'y': 365.25 * 86400}
	if len(s) > 1 {
		if k, ok := units[s[len(s)-1]]; ok {
			f, err := strconv.ParseFloat(s[:len(s)-1], 64)
			if err == nil && f >= 0 && f*k < math.MaxInt64/2 {
				return int64(math.Round(f * k)), nil
			}
		}
	}
	return 0, fmt.Errorf("%q is not a length of time; use seconds (90) or a number with a unit: 90s, 20m, 1h, 2d, 12w, 5y", s)
}

// resampleOptions are the options of `hpcwl resample`.
type resampleOptions struct {
	poolFlags
	stream uint64
	out    string
	to     string
	json   bool
	extend extendFlags
}

func newResampleCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts resampleOptions
	cmd := &cobra.Command{
		Use:   "resample TRACE [TRACE...]",
		Short: "Make a new workload by resampling a log's users",
		Long: `Resample builds a new workload from a log by recombining whole users, after
Zakay and Feitelson. Users active for more than 12 weeks are long-term: all of
them are present from the start, each from an arbitrary week of its activity,
and each is regenerated when its activity ends. The others are temporary:
some are present at the start and new ones arrive every week at the log's
rate. Temporary users seen only in the first or last 4 weeks are discarded.

Every copy of a user is shifted by whole weeks in the log's local time, so a
job keeps its day of week and time of day, and a user's jobs keep their order
and the intervals between them. --load scales the number of users (never time
or job sizes); --duration makes the workload any length. --rare and
--detect-rare move flurries into a pool of rare behaviours, of which --rb-npw
start per week on average in place of temporary users; the summary lists the
rare behaviours with their jobs, and UserCopy lines mark their copies (class
rare). replicate leaves their jobs out of the metrics, as the thesis does; a
simulation of the written log counts them.

The output log's header records the source's name and SHA-256, the hpcwl
version, the seed and every parameter; field 12 numbers the user copies and
one "UserCopy: ID USER CLASS SLOT SHIFT_WEEKS" header line per copy maps it
back to the original user. The same seed gives the same log, byte for byte.
A summary of the pools and parameters goes to stderr (stdout with --json).

Several logs are mixed into one workload (Zakay's proposed mixing of
traces): each log is resampled with --load times its share of the users
(--weights, equal by default), every job is moved to the same week, weekday
and time of day in the first log's calendar, and the jobs are merged. Logs of
different machine sizes need a rule: --machine max (the largest) or --machine
N, jobs wider than it dropped or clamped to it (--oversize). Field 16
(partition) of every job is its log's number, named by "MixLog: K WEIGHT NAME
SHA256" header lines; UserCopy lines gain the log number as a sixth field.

--prefer biases the choice of users (selective resampling): by a feature of
their sub-traces, FEATURE:high or FEATURE:low (runtime, jobs-per-week, procs,
area, jobs: users above or below the median of their pool), or by one of
Talby's user classes, class:LTLU|LTHU|STWE|STWD. A preferred user weighs
--bias, the others 1, in the long-term slots, the initial temporary users
and the weekly arrivals; the numbers of users are unchanged.

--stationary cuts the log into segments of stationary weekly offered load
(binary segmentation for changes in the mean; --list-segments shows them)
and resamples from one (--segment, default the longest), long-term users
keeping their relative timing (--align-long-term), so that --duration can
make a long workload as stationary as the segment.` + exitStatusHelp,
		Example: `  hpcwl resample builtin:KTH-SP2 --duration 5y --load 1.3 --seed 7 -o out.swf
  hpcwl resample SDSC-SP2-1998-4.2-cln.swf.gz --rare 374 --rb-npw 0.25 -o flurries.swf
  hpcwl resample OSC-Clust-2000-3.1-cln.swf.gz --load 6 -o osc6.swf.gz --json
  hpcwl resample builtin:KTH-SP2 SDSC-SP2-1998-4.2-cln.swf.gz --machine max -o mix.swf
  hpcwl resample builtin:KTH-SP2 --prefer runtime:high --bias 4 -o long-jobs.swf
  hpcwl resample SDSC-SP2-1998-4.2-cln.swf.gz --stationary --duration 5y -o steady.swf`,
		Args: minArgs(1, "one TRACE or more"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			if err := opts.extend.check(cmd, len(args)); err != nil {
				return err
			}
			opts.extend.alignSet = cmd.Flags().Changed("align-long-term")
			command := "hpcwl " + strings.Join(os.Args[1:], " ")
			if len(args) > 1 {
				return runMix(cmd.Context(), opts, args, stdout, stderr, command)
			}
			return runResample(cmd.Context(), opts, args[0], stdout, stderr, command)
		}),
	}
	opts.poolFlags.add(cmd)
	opts.extend.add(cmd)
	f := cmd.Flags()
	f.Uint64Var(&opts.stream, "stream", 0, "random stream (replications use one per variant)")
	f.StringVarP(&opts.out, "output", "o", "-", "write the workload to `FILE` (.swf, .csv, .json, optionally .gz; .parquet; - is stdout)")
	f.StringVar(&opts.to, "to", "", "output format: swf, csv, batsim, parquet (default: from the extension)")
	addBatsimVersionFlag(cmd)
	f.BoolVar(&opts.json, "json", false, "print the summary as JSON on stdout")
	return cmd
}

// resampleReport is the summary of `hpcwl resample`.
type resampleReport struct {
	Version     string          `json:"hpcwl_version"`
	Input       string          `json:"input"`
	SHA256      string          `json:"sha256"`
	Pools       poolsReport     `json:"pools"`
	Params      resample.Params `json:"parameters"`
	Jobs        int             `json:"jobs"`
	Copies      map[string]int  `json:"copies"`
	BeforeStart int             `json:"jobs_before_start"`
	Output      string          `json:"output"`
	// Rare lists the rare behaviours of the rare pool (named or detected)
	// with their jobs; Segments the stationary segments with --stationary.
	Rare     []rareReport    `json:"rare,omitempty"`
	Segments *segmentsReport `json:"segments,omitempty"`
}

// rareReport is one rare behaviour of the pools.
type rareReport struct {
	User  int32 `json:"user"`
	Begin int64 `json:"begin"`
	End   int64 `json:"end"`
	Jobs  int   `json:"jobs"`
	Weeks int   `json:"weeks_active"`
}

func rareReports(p *resample.Pools) []rareReport {
	var out []rareReport
	for _, u := range p.Rare {
		out = append(out, rareReport{User: u.ID, Begin: u.Period.Begin, End: u.Period.End, Jobs: len(u.Jobs), Weeks: u.WeeksActive})
	}
	return out
}

// poolsReport is a log's classification (as in Table V of N. Zakay, Improved
// Realism and Representativeness of Workloads to Improve Reliability of
// Performance Evaluations, PhD thesis, Hebrew University, chapter 3).
type poolsReport struct {
	Weeks    int                            `json:"log_weeks"`
	Start    int64                          `json:"start"`
	End      int64                          `json:"end"`
	Classes  map[string]resample.ClassCount `json:"classes"`
	Filtered int                            `json:"filtered_jobs"`
	Warnings []string                       `json:"warnings,omitempty"`
}

func newPoolsReport(p *resample.Pools) poolsReport {
	r := poolsReport{Weeks: p.Weeks(), Start: p.Start, End: p.End, Classes: map[string]resample.ClassCount{}, Filtered: p.Filtered, Warnings: p.Warnings()}
	for c, n := range p.Counts() {
		r.Classes[c.String()] = n
	}
	return r
}

func runResample(ctx context.Context, opts resampleOptions, name string, stdout, stderr io.Writer, command string) error {
	o, err := opts.options()
	if err != nil {
		return err
	}
	o.Stream = opts.stream
	if _, err := outputFormat(opts.out, opts.to); err != nil {
		return err
	}
	outs := []output{{"-o", opts.out}}
	if err := checkOutputs([]string{name}, outs...); err != nil {
		return err
	}
	p, err := opts.pools(name)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var segs *segmentsReport
	if opts.extend.stationary {
		sp, rep, err := opts.extend.stationaryPools(p)
		if err != nil {
			return err
		}
		if sp == nil { // --list-segments
			if opts.json {
				return writeJSON(stdout, rep)
			}
			return printStationarySegments(stdout, rep)
		}
		p, segs = sp, rep
	}
	o.CyclePhase = opts.extend.cyclePhase
	// From a segment, long-term users keep their relative timing by
	// default: the segment's joint activity is what is stationary.
	o.AlignLongTerm = opts.alignLT || (opts.extend.stationary && !opts.extend.alignSet)
	if o.Prefer, err = opts.extend.preference(p); err != nil {
		return err
	}
	d, err := p.Draw(o)
	if err != nil {
		return generatorError(err)
	}
	if err := writeDraw(d, command, opts.out, opts.to, stdout); err != nil {
		if errors.Is(err, errNoJobs) {
			return fmt.Errorf("%w (no user was drawn at --load %v over %.1f weeks; raise --load or --duration)",
				err, opts.load, float64(d.Params.Duration)/resample.Week)
		}
		return err
	}
	rep := resampleReport{Version: version.String(), Input: name, SHA256: p.Trace.SHA256, Pools: newPoolsReport(p),
		Params: d.Params, Jobs: d.Jobs, Copies: map[string]int{}, BeforeStart: d.BeforeStart, Output: opts.out,
		Rare: rareReports(p), Segments: segs}
	for _, c := range d.Copies {
		rep.Copies[c.Class.String()]++
	}
	if opts.json {
		printWarnings(stderr, rep.Pools.Warnings)
		return writeJSON(summaryWriter(stdout, stderr, outs...), rep)
	}
	if segs != nil {
		if err := printStationarySegments(stderr, segs); err != nil {
			return err
		}
	}
	err = printResample(stderr, &rep)
	printWarnings(stderr, rep.Pools.Warnings)
	return err
}

// writeDraw writes the resampled workload d to out job by job, in the bytes
// writeTrace writes for the workload held whole (resample.Workload.Trace).
func writeDraw(d *resample.Draw, command, out, to string, stdout io.Writer) error {
	src := d.Pools.Trace
	o, err := createTraceOutput(out, to, stdout, traceSource{procs: src.Procs, in: src.Name, inSHA: src.SHA256})
	if err != nil {
		return err
	}
	defer o.abort()
	if err := o.setHeader(d.Header(command)); err != nil {
		return err
	}
	if err := d.WriteJobs(o); err != nil {
		return err
	}
	return o.finish("")
}

// printWarnings writes each warning on a line of its own.
func printWarnings(w io.Writer, ws []string) {
	for _, s := range ws {
		fmt.Fprintf(w, "warning: %s\n", s)
	}
}

func printResample(w io.Writer, r *resampleReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format+"\n", a...) }
	pr := r.Params
	p("input\t%s: %d weeks", r.Input, r.Pools.Weeks)
	for _, c := range []string{"long-term", "temporary", "discarded", "rare"} {
		n := r.Pools.Classes[c]
		p("%s\t%d users, %d jobs", c, n.Users, n.Jobs)
	}
	p("filtered\t%d jobs without user, size, runtime or submit time, or partial", r.Pools.Filtered)
	p("parameters\tduration %.1f weeks, load factor %v, seed %d stream %d", float64(pr.Duration)/resample.Week, pr.LoadFactor, pr.Seed, pr.Stream)
	p("\tN_LT %d, N_T0 %.2f, r_T %.3f/week, RB_NPW %v, long-term cycle %d weeks", pr.LongTerm, pr.InitialTemporary, pr.WeeklyRate, pr.RBNPW, pr.CycleWeeks)
	for _, rr := range r.Rare {
		p("rare behaviour\tuser %d, %d to %d s: %d jobs in %d weeks", rr.User, rr.Begin, rr.End, rr.Jobs, rr.Weeks)
	}
	if pr.Prefer != "" {
		p("preference\t%s: %d of the long-term and %d of the temporary users preferred", pr.Prefer, pr.PreferredLongTerm, pr.PreferredTemporary)
	}
	p("output\t%s: %d jobs of %d long-term, %d temporary, %d rare copies", r.Output, r.Jobs, r.Copies["long-term"], r.Copies["temporary"], r.Copies["rare"])
	return tw.Flush()
}
