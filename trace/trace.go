package trace

import (
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/hpcwl/hpcwl/swf"
)

// Trace is a workload log in memory.
type Trace struct {
	// Name is where the trace came from: a file name, "-" or "builtin:NAME".
	Name string
	// Header is the log's SWF header, kept verbatim.
	Header swf.Header
	// Jobs holds the jobs in file order (SWF logs are sorted by submit time).
	Jobs []Job
	// Procs is the machine size in processors: the caller's override, else
	// the header's MaxProcs, else MaxNodes, else 0 (unknown).
	Procs int
	// SHA256 is the hex SHA-256 of the file's bytes as read (compressed if
	// it was), or "" when the trace was not loaded from a file.
	SHA256 string
	// Oddities counts the values read as unknown although the file held
	// another value (out-of-range values in lenient mode, requested times
	// at integer limits).
	Oddities Oddities
}

// Options control [Load] and [Read].
type Options struct {
	// Procs overrides the machine size from the header when > 0.
	Procs int
	// Lenient reads values outside an SWF field's documented range in
	// otherwise well-formed records as -1 (unknown) instead of failing (see
	// [swf.Reader.Lenient]; values too large for the 32-bit fields count
	// too). The replacements are counted in [Trace.Oddities] and recorded in
	// a header note. Malformed records fail in both modes.
	Lenient bool
}

// ErrNoMachineSize is returned by [Trace.MachineSize] when neither the
// header nor the caller gives the number of processors.
var ErrNoMachineSize = errors.New("the log's header has no MaxProcs or MaxNodes")

// Load reads a whole SWF log: a file name (plain or gzipped), "-" for
// standard input, or "builtin:NAME" for an embedded log. Input starting
// with the Parquet magic bytes is read as a Parquet trace ([ReadParquet]).
// [OpenScanner] reads the same logs job by job.
func Load(name string, opt Options) (*Trace, error) {
	s, err := OpenScanner(name, opt)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.collect()
}

// Read reads all jobs from r into a trace. Requested times at or above
// [ReqTimeLimit] are read as unknown; with opt.Lenient, out-of-range values
// are too. Either is counted in the trace's Oddities and recorded in a
// header note ("on reading: ..."). [NewScanner] reads them job by job.
func Read(r *swf.Reader, opt Options) (*Trace, error) {
	s, err := NewScanner(r, opt)
	if err != nil {
		return nil, err
	}
	return s.collect()
}

// New returns a trace of the given header and jobs.
func New(h swf.Header, jobs []Job, opt Options) *Trace {
	t := &Trace{Header: h, Jobs: jobs}
	t.setProcs(opt)
	return t
}

func (t *Trace) setProcs(opt Options) {
	switch {
	case opt.Procs > 0:
		t.Procs = opt.Procs
	default:
		if n, ok := t.Header.MaxProcs(); ok && n > 0 {
			t.Procs = int(n)
		} else if n, ok := t.Header.MaxNodes(); ok && n > 0 {
			t.Procs = int(n)
		}
	}
}

// MachineSize returns the number of processors, or an error that says how to
// give it when the log does not.
func (t *Trace) MachineSize() (int, error) {
	if t.Procs > 0 {
		return t.Procs, nil
	}
	return 0, fmt.Errorf("%s: %w; pass the machine size with --procs N", t.Name, ErrNoMachineSize)
}

// Len returns the number of jobs.
func (t *Trace) Len() int { return len(t.Jobs) }

// Clone returns a deep copy of t.
func (t *Trace) Clone() *Trace {
	c := *t
	c.Header = t.Header.Clone()
	c.Jobs = append([]Job(nil), t.Jobs...)
	return &c
}

// SortBySubmit orders the jobs by submit time, then job number. It is
// stable, so jobs equal in both keep their order.
func (t *Trace) SortBySubmit() {
	sort.SliceStable(t.Jobs, func(a, b int) bool {
		ja, jb := &t.Jobs[a], &t.Jobs[b]
		if ja.Submit != jb.Submit {
			return ja.Submit < jb.Submit
		}
		return ja.ID < jb.ID
	})
}

// Span returns the first and last submit times, or 0, 0 for an empty trace.
func (t *Trace) Span() (first, last int64) {
	if len(t.Jobs) == 0 {
		return 0, 0
	}
	first, last = t.Jobs[0].Submit, t.Jobs[0].Submit
	for i := range t.Jobs {
		s := t.Jobs[i].Submit
		if s < first {
			first = s
		}
		if s > last {
			last = s
		}
	}
	return first, last
}

// WriteSWF writes the header and jobs in SWF.
func (t *Trace) WriteSWF(w io.Writer) error {
	sw := swf.NewWriter(w)
	if err := sw.WriteHeader(&t.Header); err != nil {
		return err
	}
	for i := range t.Jobs {
		sj := t.Jobs[i].SWF()
		if err := sw.Write(&sj); err != nil {
			return err
		}
	}
	return sw.Flush()
}

// Unrunnable counts the jobs that are not [Job.Runnable].
func (t *Trace) Unrunnable() int {
	n := 0
	for i := range t.Jobs {
		if !t.Jobs[i].Runnable() {
			n++
		}
	}
	return n
}

// Check returns warnings about the order and identity of t's jobs, which
// SWF requires but readers accept: job numbers that appear more than once
// (by count, with the first such number) and submit times that go
// backwards (by count, with the first job concerned). It returns nil for a
// well-formed trace.
func (t *Trace) Check() []string {
	c := checker{name: t.Name}
	for i := range t.Jobs {
		c.add(&t.Jobs[i])
	}
	return c.warnings()
}
