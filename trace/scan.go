package trace

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/swf"
)

// Scanner reads a log's jobs one at a time, with the same rules as [Read]
// (requested times at [ReqTimeLimit] and, with Options.Lenient, values out
// of range read as unknown), without keeping them: a simulation that
// consumes each job as it goes needs no memory per job for the log. It
// also gathers what [Trace.Check] reports, in a few bytes per run of
// consecutive job numbers.
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
	return &Scanner{r: r, opt: opt, hdr: hdr, check: checker{name: r.Name}}, nil
}

// ErrNotSWF is returned by [OpenScanner] for input it cannot scan job by
// job (a Parquet file or a built-in log); [Load] reads those.
var ErrNotSWF = errors.New("not an SWF file")

// OpenScanner opens the named SWF log (plain or gzipped; "-" for standard
// input) for scanning. The SHA-256 of its bytes is known once every job
// has been read ([Scanner.SHA256]).
func OpenScanner(name string, opt Options) (*Scanner, error) {
	f, err := swf.OpenRaw(name)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(f, 64<<10)
	if magic, _ := br.Peek(len(ParquetMagic)); IsParquet(magic) {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, ErrNotSWF)
	}
	h := sha256.New()
	rc := readCloser{br, f}
	sf, err := swf.NewFile(name, readCloser{io.TeeReader(rc, h), rc})
	if err != nil {
		f.Close()
		return nil, err
	}
	s, err := NewScanner(sf.Reader, opt)
	if err != nil {
		sf.Close()
		return nil, err
	}
	s.sum, s.closer = h, sf
	return s, nil
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
func (s *Scanner) Name() string { return s.r.Name }

// Len returns the number of jobs read so far.
func (s *Scanner) Len() int { return s.n }

// Next reads the next job into j; it returns io.EOF after the last.
func (s *Scanner) Next(j *Job) error {
	if s.done {
		return io.EOF
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
	s.check.add(j)
	s.n++
	if s.Seen != nil {
		s.Seen(j)
	}
	return nil
}

// Oddities returns the values read as unknown so far (complete after
// io.EOF).
func (s *Scanner) Oddities() Oddities { return s.odd }

// Warnings returns what [Trace.Check] says of the jobs read so far.
func (s *Scanner) Warnings() []string { return s.check.warnings() }

// SHA256 returns the hex SHA-256 of the file's bytes read so far (all of
// them after io.EOF), or "" for a scanner not made by [OpenScanner].
func (s *Scanner) SHA256() string {
	if s.sum == nil {
		return ""
	}
	return hex.EncodeToString(s.sum.Sum(nil))
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
