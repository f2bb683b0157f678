package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/resample"
)

// extendFlags are resample's flags for mixing logs, selective resampling
// and stationary segments.
type extendFlags struct {
	weights      []float64
	machine      string
	oversize     string
	prefer       string
	bias         float64
	classSeed    uint64
	stationary   bool
	segment      int
	minSegment   string
	segmentPen   float64
	listSegments bool
	cyclePhase   bool
	// alignSet records an explicit --align-long-term.
	alignSet bool
}

func (f *extendFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.Float64SliceVar(&f.weights, "weights", nil, "mixing: each log's share of the users, one per log, e.g. 2,1 (none: equal shares)")
	fl.StringVar(&f.machine, "machine", "", "mixing logs of different machine sizes: max (the largest) or N processors")
	fl.StringVar(&f.oversize, "oversize", "drop", "mixing: jobs wider than the machine are dropped or clamped to it (drop, clamp)")
	fl.StringVar(&f.prefer, "prefer", "", "selective resampling: prefer users by FEATURE:high|low (runtime, jobs-per-week, procs, area, jobs) or class:LTLU|LTHU|STWE|STWD")
	fl.Float64Var(&f.bias, "bias", 4, "selective resampling: weight of a preferred user (others weigh 1; below 1 avoids them)")
	fl.Uint64Var(&f.classSeed, "class-seed", 1, "selective resampling by class: k-means seed of the user classes")
	fl.BoolVar(&f.stationary, "stationary", false, "cut the log into segments of stationary weekly load and resample from one (--segment; default the longest), long-term users keeping their relative timing (--align-long-term, default on here)")
	fl.IntVar(&f.segment, "segment", 0, "with --stationary: resample from segment N (1, 2, ...; default the longest)")
	fl.StringVar(&f.minSegment, "min-segment", "13w", "with --stationary: shortest segment")
	fl.Float64Var(&f.segmentPen, "segment-penalty", 1, "with --stationary: multiplier of the change-point penalty (larger: fewer segments)")
	fl.BoolVar(&f.cyclePhase, "cycle-phase", false, "start each long-term user at a random week of its whole cycle, not of its activity, so that its load does not peak at the start and every cycle (a diagnostic: it does not make a long workload stationary, see docs/validation.md)")
	fl.BoolVar(&f.listSegments, "list-segments", false, "with --stationary: print the segments and write nothing")
}

// mixing reports whether a flag of mixing was given.
func (f *extendFlags) mixing(cmd *cobra.Command) bool {
	return cmd.Flags().Changed("weights") || cmd.Flags().Changed("machine") || cmd.Flags().Changed("oversize")
}

// check validates the extension flags before any input is read.
func (f *extendFlags) check(cmd *cobra.Command, nlogs int) error {
	fl := cmd.Flags()
	if nlogs < 2 && f.mixing(cmd) {
		return usagef("--weights, --machine and --oversize apply to mixing two logs or more")
	}
	if nlogs >= 2 && fl.Changed("rare") {
		return usagef("--rare names a user of one log; with several logs use --detect-rare")
	}
	if nlogs >= 2 && len(f.weights) > 0 && len(f.weights) != nlogs {
		return usagef("--weights has %d values for %d logs; give one per log", len(f.weights), nlogs)
	}
	for i, w := range f.weights {
		if !(w > 0) {
			return usagef("--weights: value %d is %v; weights must be positive", i+1, w)
		}
	}
	if _, _, err := f.machineRule(); err != nil {
		return err
	}
	if !f.stationary && (fl.Changed("segment") || fl.Changed("min-segment") || fl.Changed("segment-penalty") || f.listSegments) {
		return usagef("--segment, --min-segment, --segment-penalty and --list-segments apply with --stationary")
	}
	if f.stationary && nlogs > 1 {
		return usagef("--stationary resamples one log; mix logs without it")
	}
	if f.segment < 0 || !(f.segmentPen > 0) {
		return usagef("--segment must be 1 or more and --segment-penalty positive")
	}
	if fl.Changed("bias") && f.prefer == "" {
		return usagef("--bias applies with --prefer")
	}
	if strings.HasPrefix(f.prefer, "class:") && nlogs > 1 {
		return usagef("--prefer class:NAME classifies one log's users; with several logs prefer by a feature")
	}
	if _, err := f.preference(nil); err != nil && !errors.Is(err, errNeedTrace) {
		return err
	}
	return nil
}

// machineRule parses --machine and --oversize.
func (f *extendFlags) machineRule() (int, resample.Oversize, error) {
	var o resample.Oversize
	switch f.oversize {
	case "drop":
	case "clamp":
		o = resample.OversizeClamp
	default:
		return 0, o, usagef("unknown --oversize %q; valid: drop, clamp", f.oversize)
	}
	switch f.machine {
	case "":
		return 0, o, nil
	case "max":
		return resample.MaxProcs, o, nil
	}
	n, err := strconv.Atoi(f.machine)
	if err != nil || n <= 0 {
		return 0, o, usagef("--machine %q: want max or a positive number of processors", f.machine)
	}
	return n, o, nil
}

var errNeedTrace = errors.New("the class preference needs the trace")

// preference parses --prefer; a class preference needs the pools (nil
// gives errNeedTrace once the flag is checked).
func (f *extendFlags) preference(p *resample.Pools) (*resample.Preference, error) {
	if f.prefer == "" {
		return nil, nil
	}
	if !(f.bias > 0) {
		return nil, usagef("--bias %v: want a positive weight", f.bias)
	}
	if name, ok := strings.CutPrefix(f.prefer, "class:"); ok {
		c, err := resample.ParseUserClass(name)
		if err != nil {
			return nil, usagef("--prefer: %v", err)
		}
		if p == nil {
			return nil, errNeedTrace
		}
		users, err := resample.ClassUsers(p.Trace, c, f.classSeed)
		if err != nil {
			return nil, fmt.Errorf("%s: user classes: %w", p.Trace.Name, err)
		}
		return &resample.Preference{Users: users, Label: "class:" + c.String(), Bias: f.bias}, nil
	}
	pr, err := resample.ParsePreference(f.prefer, f.bias)
	if err != nil {
		return nil, usagef("--prefer: %v", err)
	}
	return pr, nil
}

// segmentOptions parses the segment flags.
func (f *extendFlags) segmentOptions() (resample.SegmentOptions, error) {
	d, err := parseSpan(f.minSegment)
	if err != nil || d < resample.Week {
		return resample.SegmentOptions{}, usagef("--min-segment %q: want a length of at least 1w", f.minSegment)
	}
	return resample.SegmentOptions{MinWeeks: int(d / resample.Week), Penalty: f.segmentPen}, nil
}

// stationaryPools cuts p's log into segments and returns the pools of the
// chosen one, with the segments for the report.
func (f *extendFlags) stationaryPools(p *resample.Pools) (*resample.Pools, *segmentsReport, error) {
	so, err := f.segmentOptions()
	if err != nil {
		return nil, nil, err
	}
	procs, err := p.Trace.MachineSize()
	if err != nil {
		return nil, nil, usageError{err}
	}
	segs, err := p.WeeklySegments(procs, so)
	if err != nil {
		return nil, nil, err
	}
	k := resample.LongestSegment(segs)
	if f.segment > 0 {
		if f.segment > len(segs) {
			return nil, nil, usagef("--segment %d: the log has %d segments (--list-segments shows them)", f.segment, len(segs))
		}
		k = f.segment - 1
	}
	rep := &segmentsReport{Segments: segs, Chosen: k + 1, MinWeeks: so.MinWeeks, Penalty: so.Penalty}
	if f.listSegments {
		return nil, rep, nil
	}
	sp, err := p.Segment(segs[k])
	if err != nil {
		return nil, rep, usagef("segment %d (%d weeks): %v; choose a longer one (--segment) or lower --long-term-span", k+1, segs[k].Weeks(), err)
	}
	return sp, rep, nil
}

// segmentsReport lists the stationary segments.
type segmentsReport struct {
	Segments []resample.Segment `json:"segments"`
	Chosen   int                `json:"chosen"`
	MinWeeks int                `json:"min_weeks"`
	Penalty  float64            `json:"penalty"`
}

func printStationarySegments(w io.Writer, r *segmentsReport) error {
	fmt.Fprintf(w, "segments of stationary weekly offered load (binary segmentation, at least %d weeks, penalty x%v):\n", r.MinWeeks, r.Penalty)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "segment\tweeks\tfirst week\tlast week\tstart s\tend s\tmean load\tsd\t")
	for i, s := range r.Segments {
		mark := ""
		if i+1 == r.Chosen {
			mark = " *"
		}
		fmt.Fprintf(tw, "%d%s\t%d\t%d\t%d\t%d\t%d\t%.3f\t%.3f\t\n", i+1, mark, s.Weeks(), s.FirstWeek, s.LastWeek, s.Start, s.End, s.MeanLoad, s.SDLoad)
	}
	return tw.Flush()
}

// mixReport is the summary of `hpcwl resample` with several logs.
type mixReport struct {
	Version     string            `json:"hpcwl_version"`
	Inputs      []mixInput        `json:"inputs"`
	Procs       int               `json:"procs"`
	Oversize    string            `json:"oversize"`
	Jobs        int               `json:"jobs"`
	Copies      int               `json:"copies"`
	Dropped     int               `json:"dropped_oversize"`
	Clamped     int               `json:"clamped"`
	BeforeStart int               `json:"jobs_before_start"`
	Duration    int64             `json:"duration"`
	Parts       []resample.Params `json:"parameters"`
	Pools       []poolsReport     `json:"pools"`
	Output      string            `json:"output"`
}

type mixInput struct {
	Name   string  `json:"name"`
	SHA256 string  `json:"sha256"`
	Weight float64 `json:"weight"`
	Jobs   int     `json:"jobs"`
}

// runMix resamples several logs into one.
func runMix(ctx context.Context, opts resampleOptions, names []string, stdout, stderr io.Writer, command string) error {
	o, err := opts.options()
	if err != nil {
		return err
	}
	o.Stream = opts.stream
	o.CyclePhase = opts.extend.cyclePhase
	procs, ov, err := opts.extend.machineRule()
	if err != nil {
		return err
	}
	if _, err := outputFormat(opts.out, opts.to); err != nil {
		return err
	}
	outs := []output{{"-o", opts.out}}
	if err := checkOutputs(names, outs...); err != nil {
		return err
	}
	pref, err := opts.extend.preference(nil)
	if err != nil {
		return err
	}
	o.Prefer = pref
	var pools []*resample.Pools
	for _, n := range names {
		p, err := opts.pools(n)
		if err != nil {
			return err
		}
		pools = append(pools, p)
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	m, err := resample.Mix(pools, resample.MixOptions{Options: o, Weights: opts.extend.weights, Procs: procs, Oversize: ov})
	if err != nil {
		var me *resample.MachineSizeError
		if errors.As(err, &me) {
			return usageError{err}
		}
		return generatorError(err)
	}
	if err := writeTrace(m.Trace(command), opts.out, opts.to, stdout, pools[0].Trace); err != nil {
		return err
	}
	rep := mixReport{Version: version.String(), Procs: m.Procs, Oversize: m.Oversize.String(), Jobs: len(m.Jobs), Copies: len(m.Copies),
		Dropped: m.Dropped, Clamped: m.Clamped, BeforeStart: m.BeforeStart, Duration: m.Duration, Output: opts.out}
	perLog := make([]int, len(pools))
	for _, l := range m.Log {
		perLog[l]++
	}
	for i, p := range pools {
		rep.Inputs = append(rep.Inputs, mixInput{Name: names[i], SHA256: p.Trace.SHA256, Weight: m.Weights[i], Jobs: perLog[i]})
		rep.Parts = append(rep.Parts, m.Parts[i].Params)
		rep.Pools = append(rep.Pools, newPoolsReport(p))
	}
	if opts.json {
		for _, pr := range rep.Pools {
			printWarnings(stderr, pr.Warnings)
		}
		return writeJSON(summaryWriter(stdout, stderr, outs...), rep)
	}
	tw := tabwriter.NewWriter(stderr, 0, 0, 2, ' ', 0)
	for i, in := range rep.Inputs {
		pr := rep.Parts[i]
		fmt.Fprintf(tw, "log %d\t%s: weight %.3g, load factor %.3g, N_LT %d, r_T %.3f/week; %d jobs in the mix\n", i+1, in.Name, in.Weight, pr.LoadFactor, pr.LongTerm, pr.WeeklyRate, in.Jobs)
	}
	fmt.Fprintf(tw, "machine\t%d processors; %d jobs wider dropped, %d clamped (--oversize %s)\n", m.Procs, m.Dropped, m.Clamped, m.Oversize)
	fmt.Fprintf(tw, "output\t%s: %d jobs of %d user copies over %.1f weeks (%d jobs fell before its start)\n",
		opts.out, len(m.Jobs), len(m.Copies), float64(m.Duration)/resample.Week, m.BeforeStart)
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, pr := range rep.Pools {
		printWarnings(stderr, pr.Warnings)
	}
	return nil
}
