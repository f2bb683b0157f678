package batsim

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// Keys of the extra job fields that carry the SWF values Batsim has no
// place for.
const (
	keyWait      = "swf_wait_time"
	keyRuntime   = "swf_run_time" // written only when the run time is unknown
	keyProcs     = "swf_allocated_processors"
	keyAvgCPU    = "swf_average_cpu_time"
	keyUsedMem   = "swf_used_memory"
	keyReqProcs  = "swf_requested_processors"
	keyReqMem    = "swf_requested_memory"
	keyStatus    = "swf_status"
	keyUser      = "swf_user_id"
	keyGroup     = "swf_group_id"
	keyApp       = "swf_executable_number"
	keyQueue     = "swf_queue_number"
	keyPartition = "swf_partition_number"
	keyPreceding = "swf_preceding_job_number"
	keyThinkTime = "swf_think_time"
	// KeyHeader is the top-level key holding the SWF header lines.
	KeyHeader = "swf_header"
)

// Batsim versions whose workloads [WriteVersion] writes.
const (
	// Version4 names the delay profile type "delay" (Batsim 4 and older).
	Version4 = 4
	// Version5 names it "DelayProfile" (Batsim 5).
	Version5 = 5
)

// Versions lists the Batsim versions [WriteVersion] accepts.
var Versions = []int{Version4, Version5}

// ZeroDelay is the delay written for a job of zero runtime: Batsim
// requires a delay above 0, and it rounds back to 0 s when read.
const ZeroDelay = 0.001

// DelayType returns the name of the delay profile type in the given Batsim
// version, or an error listing the versions known.
func DelayType(version int) (string, error) {
	switch version {
	case Version4:
		return "delay", nil
	case Version5:
		return "DelayProfile", nil
	}
	return "", fmt.Errorf("unknown Batsim version %d; valid: 4, 5", version)
}

// Write writes t as a Batsim JSON workload for Batsim 4 ([WriteVersion]
// with [Version4]).
func Write(w io.Writer, t *trace.Trace) error { return WriteVersion(w, t, Version4) }

// WriteVersion writes t as a Batsim JSON workload that the given Batsim
// version accepts: one delay profile per distinct runtime, typed as that
// version names it (see [DelayType]), with a delay above 0 ([ZeroDelay]
// for jobs of zero runtime). The machine size must be known (from the
// header or trace.Options.Procs); when it is not, the error says how to
// give it.
func WriteVersion(w io.Writer, t *trace.Trace, batsimVersion int) error {
	l, err := NewLayout(t.Name, t.Procs, batsimVersion)
	if err != nil {
		return err
	}
	tw := trace.NewWriter(w, l)
	if err := tw.WriteHeader(&t.Header); err != nil {
		return err
	}
	for i := range t.Jobs {
		if err := tw.WriteJob(&t.Jobs[i]); err != nil {
			return err
		}
	}
	return tw.Close()
}

// Layout lays a trace out as a Batsim JSON workload for [trace.Writer], job
// by job, as [WriteVersion] does. It keeps the set of distinct runtimes, for
// the profiles it lists after the jobs.
type Layout struct {
	name   string
	procs  int
	typ    string
	delays map[int64]bool
}

// NewLayout returns the Layout of a workload read from name (recorded in
// its description; "" for none) for a machine of procs processors (at
// least 1), for the given Batsim version.
func NewLayout(name string, procs, batsimVersion int) (*Layout, error) {
	typ, err := DelayType(batsimVersion)
	if err != nil {
		return nil, err
	}
	if procs <= 0 {
		return nil, fmt.Errorf("%s: %w; pass the machine size with --procs N", name, trace.ErrNoMachineSize)
	}
	return &Layout{name: name, procs: procs, typ: typ, delays: map[int64]bool{}}, nil
}

// Head writes the description, the machine size and the SWF header.
func (l *Layout) Head(w io.Writer, h *swf.Header) error {
	bw := bufio.NewWriter(w)
	from := ""
	if l.name != "" {
		from = " from " + l.name
	}
	desc := jsonString("converted" + from + " by hpcwl " + version.String())
	fmt.Fprintf(bw, "{\n  \"description\": %s,\n  \"nb_res\": %d,\n  %q: [", desc, l.procs, KeyHeader)
	for i, hl := range h.Lines {
		s := jsonString(hl.String())
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n    ")
		bw.WriteString(s)
	}
	if len(h.Lines) > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("],\n  \"jobs\": [")
	return bw.Flush()
}

// AppendJob appends job i's object and notes its runtime.
func (l *Layout) AppendJob(b []byte, i int, j *trace.Job) []byte {
	if i > 0 {
		b = append(b, ',')
	}
	b = append(b, "\n    {\"id\": "...)
	b = strconv.AppendInt(b, j.ID, 10)
	b = append(b, ", \"subtime\": "...)
	b = strconv.AppendInt(b, j.Submit, 10)
	b = append(b, ", \"walltime\": "...)
	b = strconv.AppendInt(b, max(j.ReqTime, -1), 10)
	b = append(b, ", \"res\": "...)
	b = strconv.AppendInt(b, int64(max(j.Processors(), 0)), 10)
	d := max(j.Runtime, 0)
	l.delays[d] = true
	b = append(b, ", \"profile\": \""...)
	b = append(b, profileName(d)...)
	b = append(b, '"')
	if j.Runtime < 0 {
		b = appendInt(b, keyRuntime, j.Runtime)
	}
	b = appendInt(b, keyWait, j.Wait)
	b = appendInt(b, keyProcs, int64(j.Procs))
	b = appendFloat(b, keyAvgCPU, j.AvgCPU)
	b = appendFloat(b, keyUsedMem, j.UsedMem)
	b = appendInt(b, keyReqProcs, int64(j.ReqProcs))
	b = appendFloat(b, keyReqMem, j.ReqMem)
	b = appendInt(b, keyStatus, int64(j.Status))
	b = appendInt(b, keyUser, int64(j.User))
	b = appendInt(b, keyGroup, int64(j.Group))
	b = appendInt(b, keyApp, int64(j.App))
	b = appendInt(b, keyQueue, int64(j.Queue))
	b = appendInt(b, keyPartition, int64(j.Partition))
	b = appendInt(b, keyPreceding, int64(j.Preceding))
	b = appendInt(b, keyThinkTime, j.ThinkTime)
	return append(b, '}')
}

// Tail closes the job list and writes one profile per distinct runtime.
func (l *Layout) Tail(w io.Writer, n int) error {
	bw := bufio.NewWriter(w)
	if n > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("],\n  \"profiles\": {")
	ds := make([]int64, 0, len(l.delays))
	for d := range l.delays {
		ds = append(ds, d)
	}
	sort.Slice(ds, func(a, b int) bool { return ds[a] < ds[b] })
	for i, d := range ds {
		if i > 0 {
			bw.WriteByte(',')
		}
		delay := strconv.FormatInt(d, 10)
		if d == 0 {
			delay = strconv.FormatFloat(ZeroDelay, 'g', -1, 64)
		}
		fmt.Fprintf(bw, "\n    \"%s\": {\"type\": %q, \"delay\": %s}", profileName(d), l.typ, delay)
	}
	if len(ds) > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("}\n}\n")
	return bw.Flush()
}

// jsonString quotes s as a JSON string, leaving '<', '>' and '&' readable.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func profileName(d int64) string { return "delay_" + strconv.FormatInt(d, 10) }

func appendInt(b []byte, key string, v int64) []byte {
	b = append(b, ", \""...)
	b = append(b, key...)
	b = append(b, "\": "...)
	return strconv.AppendInt(b, v, 10)
}

func appendFloat(b []byte, key string, f float64) []byte {
	b = append(b, ", \""...)
	b = append(b, key...)
	b = append(b, "\": "...)
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.AppendInt(b, int64(f), 10)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

// Error reports a malformed workload: the file, the line, the JSON path of
// the offending value and what was expected.
type Error struct {
	File string // file name, or ""
	Line int    // 1-based line, or 0 when unknown
	Path string // JSON path such as "jobs[12].res", or ""
	Err  error
}

// Error formats the error as "file: line N: path: cause".
func (e *Error) Error() string {
	s := ""
	if e.File != "" {
		s = e.File + ": "
	}
	if e.Line > 0 {
		s += fmt.Sprintf("line %d: ", e.Line)
	}
	if e.Path != "" {
		s += e.Path + ": "
	}
	return s + e.Err.Error()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrInvalid is the cause of errors about values that are well-formed JSON
// but not a valid workload; test for it with errors.Is.
var ErrInvalid = errors.New("invalid workload")
