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

	"github.com/hpcwl/hpcwl/builtin"
	"github.com/hpcwl/hpcwl/swf"
)

// Scanner reads a log job by job, with the conversions of [Read]: it holds
// one job at a time, so that a transformation that writes each job as it
// reads it ([JobWriter]) runs in constant memory whatever the log's length.
// What Read records once the jobs are read (the oddities' header note, the
// SHA-256 of a file) is known after the last job: see [Scanner.Trace].
//
// A Parquet input (which needs random access) is read whole and then
// handed out job by job.
type Scanner struct {
	r    *swf.Reader
	opt  Options
	hdr  *swf.Header
	job  Job
	err  error
	done bool
	odd  Oddities
	name string

	// Set by OpenScanner.
	file *swf.File
	sum  hash.Hash
	t    *Trace // a Parquet trace read whole
	next int    // its next job
}

// NewScanner reads the header from r and returns a Scanner positioned
// before the first job.
func NewScanner(r *swf.Reader, opt Options) (*Scanner, error) {
	if opt.Lenient {
		r.Lenient = true
	}
	hdr, err := r.Header()
	if err != nil {
		return nil, err
	}
	return &Scanner{r: r, opt: opt, hdr: hdr, name: r.Name}, nil
}

// OpenScanner opens a log as [Load] does: a file name (plain or gzipped),
// "-" for standard input, or "builtin:NAME"; Parquet input too. Close it
// when done.
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
			return &Scanner{t: t, hdr: &h, name: name, opt: opt, done: false}, nil
		}
		rc = readCloser{br, f}
	}
	h := sha256.New()
	f, err := swf.NewFile(name, readCloser{io.TeeReader(rc, h), rc})
	if err != nil {
		rc.Close()
		return nil, err
	}
	s, err := NewScanner(f.Reader, opt)
	if err != nil {
		f.Close()
		return nil, err
	}
	s.file, s.sum, s.name = f, h, name
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

// Header returns the log's header as read (without the note on oddities
// that [Scanner.Trace] adds).
func (s *Scanner) Header() *swf.Header { return s.hdr }

// Procs returns the machine size as a trace of this header has it: the
// Options' Procs, else the header's MaxProcs, else MaxNodes, else 0.
func (s *Scanner) Procs() int {
	t := Trace{Header: *s.hdr}
	t.setProcs(s.opt)
	return t.Procs
}

// Name returns the log's name.
func (s *Scanner) Name() string { return s.name }

// Scan reads the next job; it returns false at the end of the log or on an
// error (see [Scanner.Err]).
func (s *Scanner) Scan() bool {
	if s.done {
		return false
	}
	if s.t != nil {
		if s.next == len(s.t.Jobs) {
			s.done = true
			return false
		}
		s.job = s.t.Jobs[s.next]
		s.next++
		return true
	}
	sj, err := s.r.Read()
	if err == io.EOF {
		s.done = true
		for i, n := range s.r.Replaced() {
			s.odd.addOutOfRange(i+1, n)
		}
		return false
	}
	if err != nil {
		s.err, s.done = err, true
		return false
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
	j, err := FromSWF(&sj)
	if err != nil {
		s.err, s.done = &swf.ParseError{File: s.r.Name, Line: s.r.Line(), Err: err}, true
		return false
	}
	s.job = j
	return true
}

// Job returns the job the last Scan read; it stays valid until the next
// Scan.
func (s *Scanner) Job() *Job { return &s.job }

// Err returns the error that ended the scan, nil at the end of the log.
func (s *Scanner) Err() error { return s.err }

// Trace returns, after the last job, the log as [Load] or [Read] gives it
// but without jobs: its name, the header with the note on oddities, the
// machine size, the SHA-256 of the file (for a scanner from
// [OpenScanner]) and the oddities.
func (s *Scanner) Trace() (*Trace, error) {
	if !s.done {
		return nil, fmt.Errorf("%s: the scan has not reached the end of the log", s.name)
	}
	if s.err != nil {
		return nil, s.err
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
	if s.sum != nil {
		t.SHA256 = hex.EncodeToString(s.sum.Sum(nil))
	}
	return t, nil
}

// Close releases the file of a scanner from [OpenScanner].
func (s *Scanner) Close() error {
	if s.file != nil {
		return s.file.Close()
	}
	return nil
}

// collect reads the remaining jobs into a trace, as Read and Load do.
func (s *Scanner) collect() (*Trace, error) {
	var jobs []Job
	if n, ok := s.hdr.MaxRecords(); ok && n > 0 && n < 50_000_000 {
		jobs = make([]Job, 0, n)
	}
	for s.Scan() {
		jobs = append(jobs, s.job)
	}
	t, err := s.Trace()
	if err != nil {
		return nil, err
	}
	t.Jobs = jobs
	return t, nil
}

type readCloser struct {
	io.Reader
	io.Closer
}
