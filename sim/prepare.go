package sim

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hpcwl/hpcwl/trace"
)

// OversizePolicy says what to do with a job wider than the machine.
type OversizePolicy uint8

// The oversize policies.
const (
	// OversizeError fails with an [*OversizeError] naming the first such job
	// (the default).
	OversizeFail OversizePolicy = iota
	// OversizeDrop leaves such jobs out (counted in Workload.DroppedOversize).
	OversizeDrop
	// OversizeClamp shrinks them to the machine size (counted in
	// Workload.Clamped).
	OversizeClamp
)

// String returns "error", "drop" or "clamp".
func (p OversizePolicy) String() string {
	switch p {
	case OversizeDrop:
		return "drop"
	case OversizeClamp:
		return "clamp"
	}
	return "error"
}

// ParseOversize parses "error", "drop" or "clamp".
func ParseOversize(s string) (OversizePolicy, error) {
	switch strings.ToLower(s) {
	case "error", "":
		return OversizeFail, nil
	case "drop":
		return OversizeDrop, nil
	case "clamp":
		return OversizeClamp, nil
	}
	return 0, fmt.Errorf("unknown oversize policy %q; valid: error, drop, clamp", s)
}

// OversizeError reports a job wider than the machine.
type OversizeError struct {
	JobID   int64
	Procs   int
	Machine int
}

func (e *OversizeError) Error() string {
	return fmt.Sprintf("job %d needs %d processors but the machine has %d; drop or clamp such jobs, or give a larger machine size",
		e.JobID, e.Procs, e.Machine)
}

// EstimateFallback says which requested time a job gets when its log has
// none (field 9 is -1 or 0).
type EstimateFallback struct {
	// Kind is "runtime" (the job's own runtime: a perfect estimate; the
	// default, Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, chapter 2), "max" (the largest requested time
	// in the log, else the header's MaxRuntime, else the largest runtime) or
	// "fixed" (Seconds).
	Kind string
	// Seconds is the fixed requested time, with Kind "fixed".
	Seconds Time
}

// String returns the form ParseEstimateFallback accepts.
func (f EstimateFallback) String() string {
	switch f.Kind {
	case "max":
		return "max"
	case "fixed":
		return strconv.FormatInt(int64(f.Seconds), 10)
	}
	return "runtime"
}

// ParseEstimateFallback parses "runtime", "max" or a number of seconds.
func ParseEstimateFallback(s string) (EstimateFallback, error) {
	switch strings.ToLower(s) {
	case "runtime", "":
		return EstimateFallback{Kind: "runtime"}, nil
	case "max":
		return EstimateFallback{Kind: "max"}, nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 {
		return EstimateFallback{Kind: "fixed", Seconds: Time(n)}, nil
	}
	return EstimateFallback{}, fmt.Errorf("unknown requested-time fallback %q; valid: runtime, max, or a number of seconds > 0", s)
}

// ProcsField says which SWF field gives a job's processor count.
type ProcsField uint8

// The processor fields.
const (
	// ProcsAllocated is field 5 (allocated processors), else field 8
	// (requested processors) when field 5 is unknown: the default.
	ProcsAllocated ProcsField = iota
	// ProcsRequested is field 8, else field 5.
	ProcsRequested
	// ProcsLarger is the larger of fields 5 and 8.
	ProcsLarger
)

// String returns "allocated", "requested" or "max".
func (f ProcsField) String() string {
	switch f {
	case ProcsRequested:
		return "requested"
	case ProcsLarger:
		return "max"
	}
	return "allocated"
}

// ParseProcsField parses "allocated", "requested" or "max".
func ParseProcsField(s string) (ProcsField, error) {
	switch strings.ToLower(s) {
	case "allocated", "":
		return ProcsAllocated, nil
	case "requested":
		return ProcsRequested, nil
	case "max":
		return ProcsLarger, nil
	}
	return 0, fmt.Errorf("unknown processor field %q; valid: allocated, requested, max", s)
}

// Processors returns job j's processor count by field f, or -1 if unknown.
func (f ProcsField) Processors(j *trace.Job) int { return f.procs(j) }

// procs returns job j's processor count by field f, or -1 if unknown.
func (f ProcsField) procs(j *trace.Job) int {
	alloc, req := int(j.Procs), int(j.ReqProcs)
	switch f {
	case ProcsRequested:
		alloc, req = req, alloc
	case ProcsLarger:
		alloc = max(alloc, req)
	}
	switch {
	case alloc > 0:
		return alloc
	case req > 0:
		return req
	}
	return -1
}

// Semantics is a set of rules that turn log records into simulated jobs.
// Simulators differ in them, and a published schedule can be reproduced
// only under the rules of the simulator that made it.
type Semantics uint8

// The semantics.
const (
	// SemanticsHpcwl is hpcwl's own (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, chapter 2): jobs without
	// a runtime, processor count or submit time are left out, missing
	// requested times are filled in, runtimes are kept as recorded (a
	// run may kill them at the requested time).
	SemanticsHpcwl Semantics = iota
	// SemanticsPyss are the rules of the pyss simulator of Feitelson's
	// group (its conversion of SWF records to jobs): processors from field
	// 5 (allocated) clamped to 1..P, whatever ProcsField says; the runtime is
	// min(requested, runtime), at least 1 s, and the requested time used
	// for planning is max(requested, runtime), at least 1 s, so no job
	// outlives its plan; a record without a positive runtime or processor
	// count, or with a negative submit time, becomes a job of 1 s on at
	// least one processor submitted at max(submit, 1) with a requested
	// time of 1 s. A record without a requested time (-1) therefore runs
	// 1 s, as in pyss. Nothing is dropped, filled in or refused as
	// oversized.
	SemanticsPyss
)

// String returns "hpcwl" or "pyss".
func (s Semantics) String() string {
	if s == SemanticsPyss {
		return "pyss"
	}
	return "hpcwl"
}

// ParseSemantics parses "hpcwl" or "pyss".
func ParseSemantics(s string) (Semantics, error) {
	switch strings.ToLower(s) {
	case "hpcwl", "":
		return SemanticsHpcwl, nil
	case "pyss":
		return SemanticsPyss, nil
	}
	return 0, fmt.Errorf("unknown job semantics %q; valid: hpcwl, pyss", s)
}

// Machine describes the simulated machine relative to the trace's.
type Machine struct {
	// Procs is the machine size; 0 means the trace's (trace.Trace.Procs).
	Procs int
	// ProcsFactor multiplies the machine size (rounded, at least 1);
	// 0 means 1.
	ProcsFactor float64
	// Speed is the node speed relative to the traced machine: runtimes and
	// requested times are divided by it and rounded up to whole seconds.
	// 0 means 1.
	Speed float64
}

// PrepareOptions control [Prepare].
type PrepareOptions struct {
	Machine
	// Oversize handles jobs wider than the machine; default OversizeFail.
	Oversize OversizePolicy
	// MissingEstimate gives jobs without a requested time one; the zero
	// value means "runtime".
	MissingEstimate EstimateFallback
	// ProcsField chooses the SWF field of the processor count; the zero
	// value is field 5, else field 8.
	ProcsField ProcsField
	// Semantics chooses the rules of another simulator (see [SemanticsPyss]);
	// the zero value is hpcwl's. Under pyss rules ProcsField, Oversize and
	// MissingEstimate do not apply.
	Semantics Semantics
}

// Workload is a trace's jobs ready for simulation.
type Workload struct {
	// Jobs are the jobs to simulate, in the trace's order.
	Jobs []Job
	// Procs is the machine size.
	Procs int
	// Speed is the node speed factor applied.
	Speed float64
	// Dropped counts jobs left out because their runtime, processor count
	// or submit time is unknown.
	Dropped int
	// DroppedOversize and Clamped count jobs wider than the machine that
	// were left out or shrunk.
	DroppedOversize, Clamped int
	// EstimateFilled counts jobs whose missing requested time was filled
	// in by the fallback.
	EstimateFilled int
	// Overruns counts jobs whose runtime exceeds their requested time.
	Overruns int
}

// Prepare turns a trace into simulator jobs (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, chapter 2): the
// processor count is field 5, else field 8 (or as opt.ProcsField says);
// jobs without a runtime,
// processor count or submit time are dropped and counted; missing requested
// times are filled in; the node speed scales runtimes and requested times;
// jobs wider than the machine are handled by opt.Oversize. opt.Semantics
// may choose another simulator's rules instead.
func Prepare(t *trace.Trace, opt PrepareOptions) (*Workload, error) {
	procs := opt.Procs
	if procs <= 0 {
		p, err := t.MachineSize()
		if err != nil && len(t.Jobs) > 0 {
			return nil, err
		}
		procs = p // 0 for an empty trace of unknown machine size
	}
	p, err := newPreparer(opt, procs, 0)
	if err != nil {
		return nil, err
	}
	if p.fill, err = fallbackValue(t, opt.MissingEstimate); err != nil {
		return nil, err
	}
	p.w.Jobs = make([]Job, 0, len(t.Jobs))
	for i := range t.Jobs {
		j, ok, err := p.job(i, &t.Jobs[i])
		if err != nil {
			return nil, err
		}
		if ok {
			p.w.Jobs = append(p.w.Jobs, j)
		}
	}
	return p.w, nil
}

// preparer turns log records into simulator jobs one at a time, for
// [Prepare] and [Stream] alike.
type preparer struct {
	opt  PrepareOptions
	fill Time
	span float64 // scaled runtimes and requested times so far
	w    *Workload
}

// newPreparer checks opt and returns a preparer for a machine of procs
// processors (before opt's factor), filling missing requested times with
// fill unless opt says "runtime".
func newPreparer(opt PrepareOptions, procs int, fill Time) (*preparer, error) {
	if f := opt.ProcsFactor; f != 0 {
		if f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("machine size factor %v: must be > 0", f)
		}
		if procs > 0 {
			procs = max(1, int(math.Round(float64(procs)*f)))
		}
	}
	speed := opt.Speed
	if speed == 0 {
		speed = 1
	}
	if speed < 0 || math.IsNaN(speed) || math.IsInf(speed, 0) {
		return nil, fmt.Errorf("node speed %v: must be > 0", speed)
	}
	return &preparer{opt: opt, fill: fill, w: &Workload{Procs: procs, Speed: speed}}, nil
}

// job returns record i of the log as a simulator job, or false when it is
// left out (and counted).
func (p *preparer) job(i int, tj *trace.Job) (Job, bool, error) {
	if p.opt.Semantics == SemanticsPyss {
		j, err := p.pyss(i, tj)
		return j, err == nil, err
	}
	w, opt, procs, speed := p.w, &p.opt, p.w.Procs, p.w.Speed
	n := opt.ProcsField.procs(tj)
	if n <= 0 || tj.Runtime < 0 || tj.Submit < 0 {
		w.Dropped++
		return Job{}, false, nil
	}
	if n > procs {
		switch opt.Oversize {
		case OversizeDrop:
			w.DroppedOversize++
			return Job{}, false, nil
		case OversizeClamp:
			w.Clamped++
			n = procs
		default:
			return Job{}, false, &OversizeError{JobID: tj.ID, Procs: n, Machine: procs}
		}
	}
	est := Time(tj.ReqTime)
	if est <= 0 {
		w.EstimateFilled++
		est = p.fill
		if opt.MissingEstimate.Kind == "" || opt.MissingEstimate.Kind == "runtime" {
			est = Time(tj.Runtime)
		}
	}
	p.span += max(float64(tj.Runtime), float64(est)) / speed
	if p.span+float64(tj.Submit) > maxSpan {
		return Job{}, false, fmt.Errorf("node speed %v: the jobs' runtimes and requested times scaled to it add up to more than %g s by job %d, beyond the simulator's time range; use a larger speed", speed, float64(maxSpan), tj.ID)
	}
	run := scale(Time(tj.Runtime), speed)
	est = max(1, scale(est, speed))
	if run > est {
		w.Overruns++
	}
	return Job{ID: tj.ID, Submit: Time(tj.Submit), Runtime: run, Estimate: est,
		Procs: int32(n), User: tj.User, Index: int32(i)}, true, nil
}

// pyss returns record i under [SemanticsPyss].
func (p *preparer) pyss(i int, tj *trace.Job) (Job, error) {
	w := p.w
	n := min(max(int(tj.Procs), 1), w.Procs)
	j := Job{ID: tj.ID, Submit: Time(tj.Submit), Procs: int32(n), User: tj.User, Index: int32(i)}
	run, req := Time(tj.Runtime), Time(tj.ReqTime)
	if tj.Runtime <= 0 || tj.Procs <= 0 || tj.Submit < 0 {
		j.Submit = max(j.Submit, 1)
		j.Runtime, j.Estimate = 1, 1
	} else {
		j.Runtime = max(scale(min(req, run), w.Speed), 1)
		j.Estimate = max(scale(max(req, run), w.Speed), 1)
		if run > req {
			w.Overruns++
		}
	}
	// scaled requested times so far (each >= the runtime)
	p.span += max(float64(tj.Runtime), float64(tj.ReqTime), 1) / w.Speed
	if p.span+float64(j.Submit) > maxSpan {
		return Job{}, fmt.Errorf("node speed %v: the jobs' requested times scaled to it add up to more than %g s by job %d, beyond the simulator's time range; use a larger speed", w.Speed, float64(maxSpan), tj.ID)
	}
	return j, nil
}

// maxSpan bounds the scaled runtimes and requested times of a workload,
// summed, plus its last submit time (2^62 s), so that simulated times
// cannot overflow even when every job runs after the other.
const maxSpan = 1 << 62

func scale(t Time, speed float64) Time {
	if speed == 1 {
		return t
	}
	return Time(math.Ceil(float64(t) / speed))
}

func fallbackValue(t *trace.Trace, f EstimateFallback) (Time, error) {
	switch f.Kind {
	case "", "runtime":
		return 0, nil
	case "fixed":
		if f.Seconds <= 0 {
			return 0, fmt.Errorf("fixed requested time %d: must be > 0", f.Seconds)
		}
		return f.Seconds, nil
	case "max":
		var m int64
		for i := range t.Jobs {
			m = max(m, t.Jobs[i].ReqTime)
		}
		if m <= 0 {
			if h, ok := t.Header.MaxRuntime(); ok {
				m = h
			}
		}
		if m <= 0 {
			for i := range t.Jobs {
				m = max(m, t.Jobs[i].Runtime)
			}
		}
		return Time(max(m, 1)), nil
	}
	return 0, fmt.Errorf("unknown requested-time fallback %q; valid: runtime, max, fixed", f.Kind)
}
