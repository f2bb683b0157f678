package sim

import (
	"errors"
	"fmt"
	"io"

	"github.com/hpcwl/hpcwl/trace"
)

// ErrUnordered is the error of a [Stream] whose log is not in submit
// order: it cannot submit a job before it has read every earlier one.
var ErrUnordered = errors.New("sim: the log is not in submit order")

// Stream is the rigid replay of a log read as the simulation goes: it reads
// the next record only when simulated time reaches the submit time of the
// one before, so the log is never held in memory. It implements
// [JobSource] and gives the schedule of [Simulate] (the same jobs, refs
// and tie order), for logs in submit order: a kept job submitted before
// the one above it stops the stream with [ErrUnordered] (left-out records
// may be anywhere). Any error ends the stream as if the log ended there;
// a run must check [Stream.Err] before its result.
type Stream struct {
	sc      *trace.Scanner
	p       *preparer
	rec     int // records read
	pending Job
	has     bool
	last    Time // submit time of the last job handed over
	err     error
	rj      trace.Job
}

// NewStream returns a replay of the jobs sc reads, prepared as [Prepare]
// would (opt.MissingEstimate "max" needs the whole log and is refused).
// The machine size is opt.Procs, else the scanner's.
func NewStream(sc *trace.Scanner, opt PrepareOptions) (*Stream, error) {
	procs := opt.Procs
	if procs <= 0 {
		procs = sc.Procs()
	}
	if procs <= 0 {
		return nil, fmt.Errorf("%s: %w; pass the machine size with --procs N", sc.Name(), trace.ErrNoMachineSize)
	}
	if opt.MissingEstimate.Kind == "max" {
		return nil, errors.New("sim: a stream cannot fill requested times with the log's largest")
	}
	p, err := newPreparer(opt, procs, 0)
	if err != nil {
		return nil, err
	}
	if p.fill, err = fallbackValue(&trace.Trace{}, opt.MissingEstimate); err != nil {
		return nil, err
	}
	return &Stream{sc: sc, p: p}, nil
}

// read fetches the next kept job into s.pending.
func (s *Stream) read() {
	for !s.has && s.err == nil {
		err := s.sc.Next(&s.rj)
		if err == io.EOF {
			return
		}
		if err != nil {
			s.err = err
			return
		}
		i := s.rec
		s.rec++
		j, ok, err := s.p.job(i, &s.rj)
		switch {
		case err != nil:
			s.err = err
		case !ok:
		case j.Submit < s.last:
			s.err = fmt.Errorf("%w: job %d (record %d) is submitted at %d, before %d", ErrUnordered, j.ID, i+1, j.Submit, s.last)
		default:
			s.pending, s.has = j, true
		}
	}
}

// Next implements [JobSource].
func (s *Stream) Next() (Time, bool) {
	s.read()
	if !s.has {
		return 0, false
	}
	return s.pending.Submit, true
}

// Pop implements [JobSource].
func (s *Stream) Pop(now Time, dst []Job) []Job {
	for s.read(); s.has && s.pending.Submit == now; s.read() {
		dst = append(dst, s.pending)
		s.last, s.has = now, false
	}
	return dst
}

// Started implements [JobSource]; a rigid replay ignores it.
func (s *Stream) Started(*View, Ref) {}

// Ended implements [JobSource]; a rigid replay ignores it.
func (s *Stream) Ended(*View, Ref) {}

// Err returns the error that ended the stream early, or nil.
func (s *Stream) Err() error { return s.err }

// Workload returns the counts of the records read so far (left out,
// clamped, filled in, overrunning), the machine size and the speed; its
// Jobs are nil.
func (s *Stream) Workload() *Workload { return s.p.w }

// Records returns the number of records read so far.
func (s *Stream) Records() int { return s.rec }
