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
	procs := t.Procs
	if opt.Oversize != OversizeKeep {
		p, err := t.MachineSize()
		if err != nil {
			return nil, nil, err
		}
		procs = p
	}
	rep := &Report{Input: t.Len(), Procs: procs, Parameters: opt.String()}
	counts := map[string]int{}
	filterCounts := make([]int, len(opt.Filters))

	type rule struct {
		reason, what string
		on           bool
		drop         func(j *trace.Job) bool
	}
	statuses, keepUsers, dropUsers := opt.Statuses, opt.KeepUsers, opt.DropUsers
	rules := []rule{
		{ReasonPartial, "partial-execution records (status 2, 3 or 4)", !opt.KeepPartial,
			func(j *trace.Job) bool { return j.Status >= 2 && j.Status <= 4 }},
		{ReasonNegativeSubmit, "jobs with a negative submit time", !opt.KeepInvalid,
			func(j *trace.Job) bool { return j.Submit < 0 }},
		{ReasonNegativeRun, "jobs with a negative (unknown) run time", !opt.KeepInvalid,
			func(j *trace.Job) bool { return j.Runtime < 0 }},
		{ReasonNoProcessors, "jobs with no processors", !opt.KeepInvalid,
			func(j *trace.Job) bool { return j.Processors() <= 0 }},
		{ReasonUnknownUser, "jobs of unknown users", opt.DropUnknownUser,
			func(j *trace.Job) bool { return j.User < 0 }},
		{ReasonStatus, "jobs with a status other than " + joinInts(statuses), len(statuses) > 0,
			func(j *trace.Job) bool { return !slices.Contains(statuses, int(j.Status)) }},
		{ReasonUser, userWhat(keepUsers, dropUsers), len(keepUsers)+len(dropUsers) > 0,
			func(j *trace.Job) bool {
				u := int(j.User)
				return len(keepUsers) > 0 && !slices.Contains(keepUsers, u) || slices.Contains(dropUsers, u)
			}},
		{ReasonWindow, windowWhat(opt.From, opt.To), opt.From > 0 || opt.To > 0,
			func(j *trace.Job) bool { return j.Submit < opt.From || opt.To > 0 && j.Submit >= opt.To }},
		{ReasonCancelledZero, "cancelled jobs (status 5) with run time 0", opt.DropCancelledZero,
			func(j *trace.Job) bool { return j.Status == 5 && j.Runtime == 0 }},
	}
	var active []rule
	for _, r := range rules {
		if r.on {
			active = append(active, r)
		}
	}
	for _, f := range opt.Filters {
		f.Bind(t)
	}
	kept := make([]trace.Job, 0, t.Len())
jobs:
	for i := range t.Jobs {
		j := &t.Jobs[i]
		for _, r := range active {
			if r.drop(j) {
				counts[r.reason]++
				continue jobs
			}
		}
		for k, f := range opt.Filters {
			if f.Match(j) {
				filterCounts[k]++
				continue jobs
			}
		}
		kept = append(kept, *j)
	}
	for _, r := range active {
		rep.Removed = append(rep.Removed, Removal{Reason: r.reason, What: r.what, Jobs: counts[r.reason]})
	}
	for k, f := range opt.Filters {
		rep.Removed = append(rep.Removed, Removal{Reason: ReasonFilter, What: f.String(), Jobs: filterCounts[k]})
	}

	out := trace.New(t.Header.Clone(), kept, trace.Options{Procs: t.Procs})
	out.Name = t.Name
	if opt.Flurries.Enabled() {
		rep.Flurries = DetectFlurries(out, opt.Flurries)
		if len(rep.Flurries) > 0 {
			fs := make([]*Filter, len(rep.Flurries))
			fc := make([]int, len(fs))
			for k, fl := range rep.Flurries {
				fs[k] = MustParseFilter(fl.Filter)
			}
			out.Jobs = slices.DeleteFunc(out.Jobs, func(j trace.Job) bool {
				for k, f := range fs {
					if f.Match(&j) {
						fc[k]++
						return true
					}
				}
				return false
			})
			for k, fl := range rep.Flurries {
				rep.Removed = append(rep.Removed, Removal{Reason: ReasonFlurry,
					What: fl.Filter + " (" + fl.Method + " detector)", Jobs: fc[k]})
			}
		}
	}

	switch opt.Oversize {
	case OversizeError:
		var first *trace.Job
		n := 0
		for i := range out.Jobs {
			if out.Jobs[i].Processors() > procs {
				if first == nil {
					first = &out.Jobs[i]
				}
				n++
			}
		}
		if first != nil {
			return nil, nil, &OversizeJobError{Trace: t.Name, Job: first.ID, Uses: first.Processors(), Procs: procs, Count: n}
		}
	case OversizeDrop:
		n := len(out.Jobs)
		out.Jobs = slices.DeleteFunc(out.Jobs, func(j trace.Job) bool { return j.Processors() > procs })
		rep.Removed = append(rep.Removed, Removal{Reason: ReasonOversize,
			What: fmt.Sprintf("jobs using more than the machine's %d processors", procs), Jobs: n - len(out.Jobs)})
	case OversizeClamp:
		p := int32(min(procs, 1<<31-1))
		for i := range out.Jobs {
			j := &out.Jobs[i]
			if j.Processors() > procs {
				rep.Clamped++
				j.Procs = min(j.Procs, p)
				j.ReqProcs = min(j.ReqProcs, p)
			}
		}
	}
	rep.Output = out.Len()
	if opt.From > 0 {
		// The log now starts at the window's start: time 0 moves there
		// (UnixStartTime and StartTime follow, every submit time shifts by
		// the same amount), so that the log's period, which runs from time
		// 0, is the window and not the source's whole history.
		start := out.Clock().Time(opt.From)
		for i := range out.Jobs {
			out.Jobs[i].Submit -= opt.From
		}
		out.Header.Set("UnixStartTime", strconv.FormatInt(start.Unix(), 10))
		if _, ok := out.Header.Get("StartTime"); ok {
			out.Header.Set("StartTime", start.Format(swfTimeLayout))
		}
	}
	if opt.To > 0 {
		// The log now ends at the window's end: say so, so that tools
		// that take the log's period from the header see the shorter one.
		if _, ok := out.Header.Get("EndTime"); ok {
			out.Header.Set("EndTime", t.Clock().Time(opt.To).Format(swfTimeLayout))
		}
	}
	addNotes(&out.Header, rep)
	return out, rep, nil
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
