package trace

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/hpcwl/hpcwl/swf"
)

// JobWriter receives the jobs of a trace one at a time, in output order.
// Generators and transformations that write to a JobWriter instead of
// returning a slice run in memory bounded by what they need themselves,
// whatever the number of jobs: a [Writer] formats each job as it comes.
type JobWriter interface {
	WriteJob(j *Job) error
}

// JobWriterFunc adapts a function to a [JobWriter].
type JobWriterFunc func(j *Job) error

// WriteJob calls f(j).
func (f JobWriterFunc) WriteJob(j *Job) error { return f(j) }

// Layout is how a text format lays out a trace: a head holding the header,
// one record per job, and a tail that may depend on the jobs written (a
// Batsim workload lists its profiles there).
type Layout interface {
	// Head writes what comes before the first job.
	Head(w io.Writer, h *swf.Header) error
	// AppendJob appends the record of job number i (from 0) to b.
	AppendJob(b []byte, i int, j *Job) []byte
	// Tail writes what comes after the last of n jobs.
	Tail(w io.Writer, n int) error
}

// SWFLayout lays a trace out in SWF, as [Trace.WriteSWF] does.
type SWFLayout struct{}

// Head writes the header lines.
func (SWFLayout) Head(w io.Writer, h *swf.Header) error {
	return writeHeaderLines(w, "", h)
}

// AppendJob appends the job line.
func (SWFLayout) AppendJob(b []byte, _ int, j *Job) []byte {
	sj := j.SWF()
	return swf.AppendJob(b, &sj)
}

// Tail writes nothing: an SWF file ends with its last job.
func (SWFLayout) Tail(io.Writer, int) error { return nil }

// CSVLayout lays a trace out in CSV, as [Trace.WriteCSV] does.
type CSVLayout struct{}

// Head writes the header as '#' lines and the column row.
func (CSVLayout) Head(w io.Writer, h *swf.Header) error {
	if err := writeHeaderLines(w, "#", h); err != nil {
		return err
	}
	_, err := io.WriteString(w, strings.Join(CSVColumns[:], ",")+"\n")
	return err
}

// AppendJob appends the job's row.
func (CSVLayout) AppendJob(b []byte, _ int, j *Job) []byte { return appendCSVRow(b, j) }

// Tail writes nothing: a CSV file ends with its last row.
func (CSVLayout) Tail(io.Writer, int) error { return nil }

func writeHeaderLines(w io.Writer, prefix string, h *swf.Header) error {
	var b []byte
	for _, l := range h.Lines {
		b = append(append(append(b[:0], prefix...), l.String()...), '\n')
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// Writer writes a trace job by job in a [Layout]: the head when the header
// is given ([Writer.WriteHeader]), each job as it comes, the tail on
// [Writer.Close]. It holds one job's record at a time.
//
// When the header is known only after the jobs (it counts them, or notes
// what reading them found), give the Writer a spill file with
// [Writer.Defer]: the job records go there until WriteHeader, which then
// writes the head and copies the records after it. The output is the same
// bytes either way.
type Writer struct {
	out    *bufio.Writer
	layout Layout
	spill  io.ReadWriteSeeker
	sbuf   *bufio.Writer // buffers the spill
	head   bool          // the head has been written
	n      int
	buf    []byte
	err    error
}

// NewWriter returns a Writer writing w in layout l.
func NewWriter(w io.Writer, l Layout) *Writer {
	return &Writer{out: bufio.NewWriterSize(w, 256<<10), layout: l}
}

// Defer lets jobs come before the header: until [Writer.WriteHeader], their
// records are written to spill, an empty scratch file the caller creates
// and removes. Call it before the first job.
func (w *Writer) Defer(spill io.ReadWriteSeeker) {
	w.spill = spill
	w.sbuf = bufio.NewWriterSize(spill, 256<<10)
}

// ErrNoHeader is returned when a job or Close comes before the header of a
// Writer without a spill file.
var ErrNoHeader = errors.New("trace writer: a job before the header (use Defer to give the header last)")

// WriteHeader writes the head for h, then the records spilled so far, if
// any. It may be called once.
func (w *Writer) WriteHeader(h *swf.Header) error {
	if w.err != nil {
		return w.err
	}
	if w.head {
		return w.fail(errors.New("trace writer: header written twice"))
	}
	w.head = true
	if err := w.layout.Head(w.out, h); err != nil {
		return w.fail(err)
	}
	if w.spill == nil {
		return nil
	}
	if err := w.sbuf.Flush(); err != nil {
		return w.fail(fmt.Errorf("spill file: %w", err))
	}
	if _, err := w.spill.Seek(0, io.SeekStart); err != nil {
		return w.fail(fmt.Errorf("spill file: %w", err))
	}
	if _, err := w.out.ReadFrom(w.spill); err != nil {
		return w.fail(err)
	}
	w.spill, w.sbuf = nil, nil
	return nil
}

// WriteJob writes (or spills) the record of j.
func (w *Writer) WriteJob(j *Job) error {
	if w.err != nil {
		return w.err
	}
	dst := w.out
	if !w.head {
		if w.spill == nil {
			return w.fail(ErrNoHeader)
		}
		dst = w.sbuf
	}
	w.buf = w.layout.AppendJob(w.buf[:0], w.n, j)
	w.n++
	if _, err := dst.Write(w.buf); err != nil {
		return w.fail(err)
	}
	return nil
}

// Jobs returns the number of jobs written so far.
func (w *Writer) Jobs() int { return w.n }

// Close writes the tail and flushes. It does not close the underlying
// writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if !w.head {
		return w.fail(ErrNoHeader)
	}
	if err := w.layout.Tail(w.out, w.n); err != nil {
		return w.fail(err)
	}
	if err := w.out.Flush(); err != nil {
		return w.fail(err)
	}
	return nil
}

func (w *Writer) fail(err error) error {
	w.err = err
	return err
}
