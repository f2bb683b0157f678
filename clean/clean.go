package clean

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// Oversize says what to do with jobs that use more processors than the
// machine has.
type Oversize int

// Oversize policies.
const (
	// OversizeError makes Clean fail, naming the first such job (the default).
	OversizeError Oversize = iota
	// OversizeDrop removes the jobs.
	OversizeDrop
	// OversizeClamp lowers their allocated and requested processors to the
	// machine size.
	OversizeClamp
	// OversizeKeep leaves them as they are and needs no machine size.
	OversizeKeep
)

var oversizeNames = [...]string{"error", "drop", "clamp", "keep"}

// String returns the policy's name: error, drop, clamp or keep.
func (o Oversize) String() string {
	if o >= 0 && int(o) < len(oversizeNames) {
		return oversizeNames[o]
	}
	return "Oversize(" + strconv.Itoa(int(o)) + ")"
}

// ParseOversize parses a policy name (error, drop, clamp or keep).
func ParseOversize(s string) (Oversize, error) {
	for i, n := range oversizeNames {
		if strings.EqualFold(s, n) {
			return Oversize(i), nil
		}
	}
	return 0, fmt.Errorf("unknown oversize policy %q; valid: %s", s, strings.Join(oversizeNames[:], ", "))
}

// Options select what [Clean] removes. The zero value applies the defaults
// recommended for modeling and simulation: drop partial-execution records
// (status 2, 3, 4), jobs with a negative submit time, a negative (unknown)
// run time or no processors, and fail on jobs larger than the machine.
type Options struct {
	// KeepPartial keeps the partial-execution records (status 2, 3 or 4).
	KeepPartial bool
	// KeepInvalid keeps jobs with negative submit or run time or without
	// processors.
	KeepInvalid bool
	// DropUnknownUser drops jobs whose user is unknown (-1).
	DropUnknownUser bool
	// Statuses, when not empty, keeps only jobs with one of these statuses.
	Statuses []int
	// KeepUsers, when not empty, keeps only these users' jobs.
	KeepUsers []int
	// DropUsers drops these users' jobs.
	DropUsers []int
	// From and To keep only jobs submitted in [From, To) (seconds of log
	// time); To <= 0 means no upper bound. The output's period is the
	// window: with From > 0 its time 0 (UnixStartTime) moves to From and
	// submit times shift by -From; with To > 0 its EndTime is To.
	From, To int64
	// DropCancelledZero drops cancelled jobs (status 5) with run time 0,
	// which never ran.
	DropCancelledZero bool
	// Filters drop the jobs they match, in the archive's style.
	Filters []*Filter
	// Flurries enables flurry detection; the flurries found are removed.
	Flurries FlurryOptions
	// Oversize handles jobs larger than the machine (default OversizeError).
	Oversize Oversize
}

// String describes the options, for the cleaned log's header.
func (o *Options) String() string {
	var p []string
	if o.KeepPartial {
		p = append(p, "keep-partial")
	}
	if o.KeepInvalid {
		p = append(p, "keep-invalid")
	}
	if o.DropUnknownUser {
		p = append(p, "drop-unknown-user")
	}
	if len(o.Statuses) > 0 {
		p = append(p, "status="+joinInts(o.Statuses))
	}
	if len(o.KeepUsers) > 0 {
		p = append(p, "keep-users="+joinInts(o.KeepUsers))
	}
	if len(o.DropUsers) > 0 {
		p = append(p, "drop-users="+joinInts(o.DropUsers))
	}
	if o.From > 0 {
		p = append(p, fmt.Sprintf("from=%d", o.From))
	}
	if o.To > 0 {
		p = append(p, fmt.Sprintf("to=%d", o.To))
	}
	if o.DropCancelledZero {
		p = append(p, "drop-cancelled-zero")
	}
	for _, f := range o.Filters {
		p = append(p, fmt.Sprintf("filter=%q", f.String()))
	}
	p = append(p, "flurries="+o.Flurries.String(), "oversize="+o.Oversize.String())
	return strings.Join(p, " ")
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// Reasons for removing a job, as reported in [Removal.Reason].
const (
	ReasonPartial        = "partial"
	ReasonNegativeSubmit = "negative-submit"
	ReasonNegativeRun    = "negative-runtime"
	ReasonNoProcessors   = "no-processors"
	ReasonUnknownUser    = "unknown-user"
	ReasonStatus         = "status"
	ReasonUser           = "user"
	ReasonWindow         = "window"
	ReasonCancelledZero  = "cancelled-zero"
	ReasonFilter         = "filter"
	ReasonFlurry         = "flurry"
	ReasonOversize       = "oversize"
)

// Removal counts the jobs removed for one reason. Each job counts once,
// under the first reason (in the order of the Reason constants) that
// removes it.
type Removal struct {
	Reason string `json:"reason"`
	// What describes the rule; for filters and flurries it is the filter
	// expression.
	What string `json:"what"`
	Jobs int    `json:"jobs"`
}

// Report says what [Clean] did.
type Report struct {
	Input    int       `json:"input_jobs"`
	Output   int       `json:"output_jobs"`
	Removed  []Removal `json:"removed"`
	Clamped  int       `json:"clamped"`
	Procs    int       `json:"procs"`
	Flurries []Flurry  `json:"flurries"`
	// Parameters is [Options.String] of the options used.
	Parameters string `json:"parameters"`
}

// RemovedJobs returns the total number of jobs removed.
func (r *Report) RemovedJobs() int { return r.Input - r.Output }

// OversizeJobError reports jobs larger than the machine under [OversizeError].
type OversizeJobError struct {
	Trace string // trace name
	Job   int64  // the first such job's number
	Uses  int    // its processors
	Procs int    // the machine size
	Count int    // how many jobs are larger than the machine
}

// Error names the first job and how many there are.
func (e *OversizeJobError) Error() string {
	more := ""
	if e.Count > 1 {
		more = fmt.Sprintf(" (and %d more jobs are larger than the machine)", e.Count-1)
	}
	return fmt.Sprintf("%s: job %d uses %d processors but the machine has %d%s",
		e.Trace, e.Job, e.Uses, e.Procs, more)
}

// Clean returns a copy of t without the jobs that opt removes, and a report.
// The copy's header keeps t's and adds notes saying what was removed, how
// many jobs, the hpcwl version and the parameters, as the archive's cleaned
// logs do; MaxRecords, when present, is set to the number of jobs kept.
//
// Flurries are detected on the jobs left by the other rules and removed
// when opt.Flurries enables a detector. Jobs larger than the machine are
// handled last; every policy but [OversizeKeep] needs the machine size, and
// its absence is an error saying how to give it.
func Clean(t *trace.Trace, opt Options) (*trace.Trace, *Report, error) {
	c, err := NewCleaner(t.Name, &t.Header, t.Procs, opt)
	if err != nil {
		return nil, nil, err
	}
	if c.NeedsFirstPass() {
		for i := range t.Jobs {
			c.Measure(&t.Jobs[i])
		}
		c.EndFirstPass()
	}
	kept := make([]trace.Job, 0, t.Len())
	for i := range t.Jobs {
		j := t.Jobs[i]
		if c.Clean(&j) {
			kept = append(kept, j)
		}
	}
	rep, h, err := c.Finish(&t.Header)
	if err != nil {
		return nil, nil, err
	}
	out := trace.New(h, kept, trace.Options{Procs: t.Procs})
	out.Name = t.Name
	return out, rep, nil
}

// Cleaner cleans a log job by job, as [Clean] does, for a log that is not
// held whole: give every job to [Cleaner.Clean], in order, and write those
// it keeps (changed in place) at once; [Cleaner.Finish] then gives the
// report and the cleaned log's header. With flurry detection the log is
// read twice: every job goes first to [Cleaner.Measure], then
// [Cleaner.EndFirstPass] runs the detectors, which need each job's
// number, submit time and user (24 bytes a job); without it a Cleaner
// holds counters only.
type Cleaner struct {
	name    string
	procs   int
	opt     Options
	clock   *trace.Clock
	active  []rule
	counts  []int
	filters []int
	flurry  *FlurryJobs
	found   []Flurry
	fs      []*Filter
	fc      []int
	rep     Report
	// Oversize jobs under OversizeError: the first and their number.
	overFirst *trace.Job
	overN     int
	dropped   int
}

type rule struct {
	reason, what string
	drop         func(j *trace.Job) bool
}

// NewCleaner returns a Cleaner for the log name (for messages) whose header
// is h, on a machine of procs processors (0 when unknown). It fails as
// Clean does when a policy needs the machine size and it is unknown.
func NewCleaner(name string, h *swf.Header, procs int, opt Options) (*Cleaner, error) {
	t := &trace.Trace{Name: name, Header: *h, Procs: procs}
	if opt.Oversize != OversizeKeep {
		p, err := t.MachineSize()
		if err != nil {
			return nil, err
		}
		procs = p
	}
	c := &Cleaner{name: name, procs: procs, opt: opt, clock: t.Clock(),
		rep: Report{Procs: procs, Parameters: opt.String()}, filters: make([]int, len(opt.Filters))}
	statuses, keepUsers, dropUsers := opt.Statuses, opt.KeepUsers, opt.DropUsers
	rules := []struct {
		rule
		on bool
	}{
		{rule{ReasonPartial, "partial-execution records (status 2, 3 or 4)",
			func(j *trace.Job) bool { return j.Status >= 2 && j.Status <= 4 }}, !opt.KeepPartial},
		{rule{ReasonNegativeSubmit, "jobs with a negative submit time",
			func(j *trace.Job) bool { return j.Submit < 0 }}, !opt.KeepInvalid},
		{rule{ReasonNegativeRun, "jobs with a negative (unknown) run time",
			func(j *trace.Job) bool { return j.Runtime < 0 }}, !opt.KeepInvalid},
		{rule{ReasonNoProcessors, "jobs with no processors",
			func(j *trace.Job) bool { return j.Processors() <= 0 }}, !opt.KeepInvalid},
		{rule{ReasonUnknownUser, "jobs of unknown users",
			func(j *trace.Job) bool { return j.User < 0 }}, opt.DropUnknownUser},
		{rule{ReasonStatus, "jobs with a status other than " + joinInts(statuses),
			func(j *trace.Job) bool { return !slices.Contains(statuses, int(j.Status)) }}, len(statuses) > 0},
		{rule{ReasonUser, userWhat(keepUsers, dropUsers),
			func(j *trace.Job) bool {
				u := int(j.User)
				return len(keepUsers) > 0 && !slices.Contains(keepUsers, u) || slices.Contains(dropUsers, u)
			}}, len(keepUsers)+len(dropUsers) > 0},
		{rule{ReasonWindow, windowWhat(opt.From, opt.To),
			func(j *trace.Job) bool { return j.Submit < opt.From || opt.To > 0 && j.Submit >= opt.To }}, opt.From > 0 || opt.To > 0},
		{rule{ReasonCancelledZero, "cancelled jobs (status 5) with run time 0",
			func(j *trace.Job) bool { return j.Status == 5 && j.Runtime == 0 }}, opt.DropCancelledZero},
	}
	for _, r := range rules {
		if r.on {
			c.active = append(c.active, r.rule)
		}
	}
	c.counts = make([]int, len(c.active))
	for _, f := range opt.Filters {
		f.Bind(t)
	}
	if opt.Flurries.Enabled() {
		c.flurry = NewFlurryJobs(h)
	}
	return c, nil
}

// NeedsFirstPass reports whether the options detect flurries, which needs
// a first pass over the log ([Cleaner.Measure]).
func (c *Cleaner) NeedsFirstPass() bool { return c.flurry != nil }

// rules returns the index of the first rule (then len(active) + filter)
// that removes j, or -1.
func (c *Cleaner) rules(j *trace.Job) int {
	for k, r := range c.active {
		if r.drop(j) {
			return k
		}
	}
	for k, f := range c.opt.Filters {
		if f.Match(j) {
			return len(c.active) + k
		}
	}
	return -1
}

// Measure adds a job of the first pass.
func (c *Cleaner) Measure(j *trace.Job) {
	if c.flurry != nil && c.rules(j) < 0 {
		c.flurry.Add(j)
	}
}

// EndFirstPass runs the flurry detectors on the jobs the other rules keep.
func (c *Cleaner) EndFirstPass() {
	if c.flurry == nil {
		return
	}
	c.found = c.flurry.Detect(c.opt.Flurries)
	c.flurry = nil
	c.fs = make([]*Filter, len(c.found))
	c.fc = make([]int, len(c.found))
	for k, fl := range c.found {
		c.fs[k] = MustParseFilter(fl.Filter)
	}
}

// Clean reports whether the log keeps j, the next job, and changes it as
// the cleaned log has it (clamped, its submit time moved with the start of
// the window).
func (c *Cleaner) Clean(j *trace.Job) bool {
	c.rep.Input++
	if k := c.rules(j); k >= 0 {
		if k < len(c.active) {
			c.counts[k]++
		} else {
			c.filters[k-len(c.active)]++
		}
		return false
	}
	for k, f := range c.fs {
		if f.Match(j) {
			c.fc[k]++
			return false
		}
	}
	if j.Processors() > c.procs {
		switch c.opt.Oversize {
		case OversizeError:
			if c.overFirst == nil {
				first := *j
				c.overFirst = &first
			}
			c.overN++
		case OversizeDrop:
			c.dropped++
			return false
		case OversizeClamp:
			p := int32(min(c.procs, 1<<31-1))
			c.rep.Clamped++
			j.Procs = min(j.Procs, p)
			j.ReqProcs = min(j.ReqProcs, p)
		}
	}
	c.rep.Output++
	if c.opt.From > 0 {
		j.Submit -= c.opt.From
	}
	return true
}

// Finish returns the report and the cleaned log's header: h, the log's
// header, with its period moved to the window and notes saying what was
// removed. It fails with an [*OversizeJobError] when jobs are wider than the
// machine under [OversizeError] (no job kept should then be written).
func (c *Cleaner) Finish(h *swf.Header) (*Report, swf.Header, error) {
	if c.overFirst != nil {
		return nil, swf.Header{}, &OversizeJobError{Trace: c.name, Job: c.overFirst.ID, Uses: c.overFirst.Processors(), Procs: c.procs, Count: c.overN}
	}
	rep := c.rep
	for k, r := range c.active {
		rep.Removed = append(rep.Removed, Removal{Reason: r.reason, What: r.what, Jobs: c.counts[k]})
	}
	for k, f := range c.opt.Filters {
		rep.Removed = append(rep.Removed, Removal{Reason: ReasonFilter, What: f.String(), Jobs: c.filters[k]})
	}
	if c.opt.Flurries.Enabled() {
		rep.Flurries = c.found
		for k, fl := range c.found {
			rep.Removed = append(rep.Removed, Removal{Reason: ReasonFlurry,
				What: fl.Filter + " (" + fl.Method + " detector)", Jobs: c.fc[k]})
		}
	}
	if c.opt.Oversize == OversizeDrop {
		rep.Removed = append(rep.Removed, Removal{Reason: ReasonOversize,
			What: fmt.Sprintf("jobs using more than the machine's %d processors", c.procs), Jobs: c.dropped})
	}
	out := h.Clone()
	if c.opt.From > 0 {
		// The log now starts at the window's start: time 0 moves there
		// (UnixStartTime and StartTime follow, every submit time shifts by
		// the same amount), so that the log's period, which runs from time
		// 0, is the window and not the source's whole history.
		start := c.clock.Time(c.opt.From)
		out.Set("UnixStartTime", strconv.FormatInt(start.Unix(), 10))
		if _, ok := out.Get("StartTime"); ok {
			out.Set("StartTime", start.Format(swfTimeLayout))
		}
	}
	if c.opt.To > 0 {
		// The log now ends at the window's end: say so, so that tools
		// that take the log's period from the header see the shorter one.
		if _, ok := out.Get("EndTime"); ok {
			out.Set("EndTime", c.clock.Time(c.opt.To).Format(swfTimeLayout))
		}
	}
	addNotes(&out, &rep)
	return &rep, out, nil
}

// swfTimeLayout is the layout of the StartTime and EndTime header fields.
const swfTimeLayout = "Mon Jan 02 15:04:05 MST 2006"

func userWhat(keep, drop []int) string {
	var p []string
	if len(keep) > 0 {
		p = append(p, "jobs of users other than "+joinInts(keep))
	}
	if len(drop) > 0 {
		p = append(p, "jobs of users "+joinInts(drop))
	}
	return strings.Join(p, "; ")
}

func windowWhat(from, to int64) string {
	switch {
	case to > 0 && from > 0:
		return fmt.Sprintf("jobs submitted before %d or at or after %d", from, to)
	case to > 0:
		return fmt.Sprintf("jobs submitted at or after %d", to)
	}
	return fmt.Sprintf("jobs submitted before %d", from)
}

// addNotes appends the archive-style notes describing the cleaning.
func addNotes(h *swf.Header, rep *Report) {
	if _, ok := h.MaxRecords(); ok {
		h.Set("MaxRecords", strconv.Itoa(rep.Output))
	}
	cont := func(s string) { h.Lines = append(h.Lines, swf.HeaderLine{Value: "      " + s}) }
	h.AddNote("THIS IS A CLEANED VERSION OF THE LOG, made by hpcwl " + version.String())
	cont("Parameters: " + rep.Parameters)
	cont(fmt.Sprintf("The filters used removed %d of %d jobs:", rep.RemovedJobs(), rep.Input))
	for _, r := range rep.Removed {
		if r.Jobs == 0 && r.Reason != ReasonFilter && r.Reason != ReasonFlurry {
			continue
		}
		cont(fmt.Sprintf("  %s (%d jobs removed)", r.What, r.Jobs))
	}
	if rep.Clamped > 0 {
		cont(fmt.Sprintf("Jobs larger than the machine were clamped to %d processors (%d jobs)", rep.Procs, rep.Clamped))
	}
	h.Lines = append(h.Lines, swf.HeaderLine{})
}
