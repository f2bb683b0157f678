package trace

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"math"
	"os"
	"slices"

	"github.com/hpcwl/hpcwl/builtin"
	"github.com/hpcwl/hpcwl/swf"
)

// Scanner reads a log's jobs one at a time, with the same rules as [Read]
// (requested times at [ReqTimeLimit] and, with Options.Lenient, values out
// of range read as unknown), without keeping them: a simulation that
// consumes each job as it goes needs no memory per job for the log. It
// also gathers what [Trace.Check] reports, in a few bytes per run of
// consecutive job numbers. A transformation that writes each job as it
// reads it ([JobWriter]) thus runs in constant memory whatever the log's
// length.
//
// A Parquet input or a built-in log ([OpenScanner]), which is read whole,
// is then handed out job by job.
type Scanner struct {
	// Seen, when set, is called with every job read (before the caller
	// gets it), for figures of the whole log gathered on the way.
	Seen func(j *Job)

	r      *swf.Reader
	opt    Options
	hdr    *swf.Header
	odd    Oddities
	check  checker
	n      int
	done   bool
	sum    hash.Hash // the file's SHA-256, with OpenScanner
	closer io.Closer
	name   string

	t    *Trace // a Parquet trace read whole
	next int    // its next job
}

// NewScanner reads r's header and returns a scanner of its jobs.
func NewScanner(r *swf.Reader, opt Options) (*Scanner, error) {
	if opt.Lenient {
		r.Lenient = true
	}
	hdr, err := r.Header()
	if err != nil {
		return nil, err
	}
	return &Scanner{r: r, opt: opt, hdr: hdr, check: checker{name: r.Name}, name: r.Name}, nil
}

// OpenScanner opens a log as [Load] does: a file name (plain or gzipped),
// "-" for standard input, or "builtin:NAME"; a Parquet trace too (read
// whole, as it needs random access). The SHA-256 of its bytes is known
// once every job has been read ([Scanner.SHA256]). Close it when done.
func OpenScanner(name string, opt Options) (*Scanner, error) {
	var rc io.ReadCloser
	switch {
	case builtin.Is(name):
		data, _, err := builtin.Open(name)
		if err != nil {
			return nil, err
		}
		rc = io.NopCloser(bytes.NewReader(data))
	default:
		f, err := swf.OpenRaw(name)
		if err != nil {
			return nil, err
		}
		br := bufio.NewReaderSize(f, 64<<10)
		if magic, _ := br.Peek(len(ParquetMagic)); IsParquet(magic) {
			defer f.Close()
			t, err := loadParquetFrom(name, br, opt)
			if err != nil {
				return nil, err
			}
			h := t.Header
			return &Scanner{t: t, hdr: &h, name: name, opt: opt, check: checker{name: name}}, nil
		}
		rc = readCloser{br, f}
	}
	h := sha256.New()
	sf, err := swf.NewFile(name, readCloser{io.TeeReader(rc, h), rc})
	if err != nil {
		rc.Close()
		return nil, err
	}
	s, err := NewScanner(sf.Reader, opt)
	if err != nil {
		sf.Close()
		return nil, err
	}
	s.sum, s.closer, s.name = h, sf, name
	return s, nil
}

// loadParquetFrom reads a Parquet trace: from the file name when it is a
// regular file, else from br (standard input or a pipe) read whole.
func loadParquetFrom(name string, br *bufio.Reader, opt Options) (*Trace, error) {
	if fi, err := os.Stat(name); err == nil && fi.Mode().IsRegular() && name != "-" {
		return LoadParquet(name, opt)
	}
	// Standard input or a pipe: Parquet needs random access.
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	t, err := ReadParquet(bytes.NewReader(data), int64(len(data)), name, opt)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	t.SHA256 = hex.EncodeToString(sum[:])
	return t, nil
}

// Close releases the file of [OpenScanner].
func (s *Scanner) Close() error {
	if s.closer == nil {
		return nil
	}
	c := s.closer
	s.closer = nil
	return c.Close()
}

// Header returns the log's header (without the note Read adds about
// oddities).
func (s *Scanner) Header() *swf.Header { return s.hdr }

// Procs returns the machine size as [Trace.Procs] gives it: opt.Procs, else
// the header's MaxProcs, else MaxNodes, else 0.
func (s *Scanner) Procs() int {
	t := Trace{Header: *s.hdr}
	t.setProcs(s.opt)
	return t.Procs
}

// Name returns the log's name.
func (s *Scanner) Name() string { return s.name }

// Len returns the number of jobs read so far.
func (s *Scanner) Len() int { return s.n }

// Next reads the next job into j; it returns io.EOF after the last.
func (s *Scanner) Next(j *Job) error {
	if s.done {
		return io.EOF
	}
	if s.t != nil {
		if s.next == len(s.t.Jobs) {
			s.done = true
			return io.EOF
		}
		*j = s.t.Jobs[s.next]
		s.next++
		s.seen(j)
		return nil
	}
	sj, err := s.r.Read()
	if err == io.EOF {
		s.done = true
		for i, n := range s.r.Replaced() {
			s.odd.addOutOfRange(i+1, n)
		}
		return io.EOF
	}
	if err != nil {
		return err
	}
	if s.opt.Lenient {
		for _, f := range []struct {
			v     *int64
			field int
		}{{&sj.Procs, 5}, {&sj.ReqProcs, 8}, {&sj.Status, 11}, {&sj.User, 12}, {&sj.Group, 13},
			{&sj.App, 14}, {&sj.Queue, 15}, {&sj.Partition, 16}, {&sj.Preceding, 17}} {
			if *f.v > math.MaxInt32 {
				*f.v = swf.Unknown
				s.odd.addOutOfRange(f.field, 1)
			}
		}
	}
	if sj.ReqTime >= ReqTimeLimit {
		sj.ReqTime = swf.Unknown
		s.odd.ReqTimeAtLimit++
	}
	if *j, err = FromSWF(&sj); err != nil {
		return &swf.ParseError{File: s.r.Name, Line: s.r.Line(), Err: err}
	}
	s.seen(j)
	return nil
}

// seen counts and checks the job j just read.
func (s *Scanner) seen(j *Job) {
	s.check.add(j)
	s.n++
	if s.Seen != nil {
		s.Seen(j)
	}
}

// Oddities returns the values read as unknown so far (complete after
// io.EOF).
func (s *Scanner) Oddities() Oddities {
	if s.t != nil {
		return s.t.Oddities
	}
	return s.odd
}

// Warnings returns what [Trace.Check] says of the jobs read so far.
func (s *Scanner) Warnings() []string { return s.check.warnings() }

// SHA256 returns the hex SHA-256 of the file's bytes read so far (all of
// them after io.EOF), or "" for a scanner not made by [OpenScanner].
func (s *Scanner) SHA256() string {
	if s.t != nil {
		return s.t.SHA256
	}
	if s.sum == nil {
		return ""
	}
	return hex.EncodeToString(s.sum.Sum(nil))
}

// Trace returns, after the last job, the log as [Load] or [Read] gives it
// but without jobs: its name, the header with the note on oddities, the
// machine size, the SHA-256 of the file (for a scanner from
// [OpenScanner]) and the oddities.
func (s *Scanner) Trace() (*Trace, error) {
	if !s.done {
		return nil, fmt.Errorf("%s: the scan has not reached the end of the log", s.name)
	}
	if s.t != nil {
		c := *s.t
		c.Jobs = nil
		return &c, nil
	}
	t := &Trace{Name: s.name, Header: *s.hdr, Oddities: s.odd}
	if t.Oddities.Any() {
		t.Header = s.hdr.Clone()
		t.Header.AddNote("on reading: " + t.Oddities.String())
	}
	t.setProcs(s.opt)
	t.SHA256 = s.SHA256()
	return t, nil
}

// collect reads the remaining jobs into a trace, as Read and Load do.
func (s *Scanner) collect() (*Trace, error) {
	if s.t != nil && s.next == 0 {
		s.done = true
		return s.t, nil
	}
	var jobs []Job
	if n, ok := s.hdr.MaxRecords(); ok && n > 0 && n < 50_000_000 {
		jobs = make([]Job, 0, n)
	}
	for {
		var j Job
		err := s.Next(&j)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, j)
	}
	t, err := s.Trace()
	if err != nil {
		return nil, err
	}
	t.Jobs = jobs
	return t, nil
}

// checker gathers the warnings of [Trace.Check] job by job.
type checker struct {
	name            string
	ids             idSet
	n               int
	last            int64 // the previous job's submit time
	dups, back      int
	firstDup, first int64
}

func (c *checker) add(j *Job) {
	if !c.ids.add(j.ID) {
		if c.dups == 0 {
			c.firstDup = j.ID
		}
		c.dups++
	}
	if c.n > 0 && j.Submit < c.last {
		if c.back == 0 {
			c.first = j.ID
		}
		c.back++
	}
	c.last = j.Submit
	c.n++
}

func (c *checker) warnings() []string {
	var warns []string
	if c.dups > 0 {
		warns = append(warns, fmt.Sprintf("%s: %d job(s) reuse an earlier job number (first: job %d); results by job number are ambiguous",
			c.name, c.dups, c.firstDup))
	}
	if c.back > 0 {
		warns = append(warns, fmt.Sprintf("%s: %d job(s) are submitted before the job above them (first: job %d); the log is not in submit order (hpcwl convert --sort fixes that)",
			c.name, c.back, c.first))
	}
	return warns
}

// idSet is a set of job numbers kept as runs of consecutive numbers in
// increasing order, with a map for the numbers that come below the last
// run: a log numbered 1, 2, 3, ... costs one run whatever its length.
type idSet struct {
	runs  []idRun
	other map[int64]struct{}
}

type idRun struct{ lo, hi int64 }

// add inserts id and reports whether it was new.
func (s *idSet) add(id int64) bool {
	n := len(s.runs)
	if n == 0 || id > s.runs[n-1].hi {
		// Nothing at or above id is in the set: the map holds only
		// numbers below the last run's end.
		if n > 0 && id == s.runs[n-1].hi+1 {
			s.runs[n-1].hi = id
		} else {
			s.runs = append(s.runs, idRun{id, id})
		}
		return true
	}
	if _, ok := slices.BinarySearchFunc(s.runs, id, func(r idRun, id int64) int {
		switch {
		case r.hi < id:
			return -1
		case r.lo > id:
			return 1
		}
		return 0
	}); ok {
		return false
	}
	if _, ok := s.other[id]; ok {
		return false
	}
	if s.other == nil {
		s.other = map[int64]struct{}{}
	}
	s.other[id] = struct{}{}
	return true
}

type readCloser struct {
	io.Reader
	io.Closer
}
