package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/hpcwl/hpcwl/batsim"
	"github.com/hpcwl/hpcwl/internal/atomicfile"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// traceOutput writes a trace to a file (or standard output) job by job, in
// the bytes writeTrace writes for the whole trace: the format from the name
// or --to, gzipped for ".gz", the provenance in the header, atomically (an
// interrupted or failed run leaves no file). The header may come before the
// jobs or after them: jobs that come first are held in a scratch file beside
// the output and copied after the header (Parquet keeps its header at the
// end and needs none). Memory stays constant whatever the number of jobs.
type traceOutput struct {
	name, format string
	file         *atomicfile.File // nil for standard output
	w            io.Writer
	text         *trace.Writer
	pq           *trace.ParquetWriter
	spill        *atomicfile.Scratch
	header       *swf.Header // the header, stamped, once given
	held         bool        // the header is held until the first job (standard output)
	doubt        batsim.Doubtful
	jobs         int
}

// streamOutputs selects the streamed paths of the commands that have one
// besides the path holding the whole log (clean); the tests compare them.
var streamOutputs = true

// traceSource describes where the jobs written come from, for the parts of
// the output that name it.
type traceSource struct {
	// name is the trace's name, for a Batsim workload's description.
	name string
	// procs is the machine size, for a Batsim workload's nb_res.
	procs int
	// in is the input recorded in a Parquet file's metadata ("" for none);
	// inSHA is its SHA-256, or shaLater when given to finish.
	in, inSHA string
}

// shaLater stands for an input's SHA-256 known only after reading it.
const shaLater = "\x00later"

// createTraceOutput starts writing the trace name (see writeTrace).
func createTraceOutput(name, to string, stdout io.Writer, src traceSource) (*traceOutput, error) {
	format, err := outputFormat(name, to)
	if err != nil {
		return nil, err
	}
	o := &traceOutput{name: name, format: format}
	var layout trace.Layout
	switch format {
	case formatSWF:
		layout = trace.SWFLayout{}
	case formatCSV:
		layout = trace.CSVLayout{}
	case formatBatsim:
		if _, err := batsim.DelayType(batsimVersion); err != nil {
			return nil, usagef("--batsim-version: %v", err)
		}
		l, err := batsim.NewLayout(src.name, src.procs, batsimVersion)
		if err != nil {
			return nil, err
		}
		layout = l
	}
	if name == "-" {
		o.w = stdout
	} else {
		if o.file, err = atomicfile.Create(name); err != nil {
			return nil, fmt.Errorf("writing %s: %w", name, err)
		}
		o.w = o.file
	}
	if format == formatParquet {
		sha := src.inSHA
		if sha == shaLater {
			sha = "-" // a place for the value, set by finish
		}
		o.pq = trace.NewParquetWriter(o.w, provenance(src.in, sha, nil))
		return o, nil
	}
	o.text = trace.NewWriter(o.w, layout)
	return o, nil
}

// setHeader gives the header of the trace (stamped with the provenance of
// the running command); it is written now, or after the jobs that came
// before it.
func (o *traceOutput) setHeader(h swf.Header) error {
	h = h.Clone()
	stampHeader(&h)
	o.header = &h
	switch {
	case o.pq != nil:
		o.pq.SetHeader(o.header)
		return nil
	case o.jobs == 0:
		// Held until the first job, so that a run without jobs writes
		// nothing, not even to standard output.
		o.held = true
		return nil
	}
	return o.wrap(o.text.WriteHeader(o.header))
}

// WriteJob writes j, or holds it until the header comes.
func (o *traceOutput) WriteJob(j *trace.Job) error {
	if o.format == formatBatsim {
		o.doubt.Add(j)
	}
	o.jobs++
	if o.pq != nil {
		return o.wrap(o.pq.WriteJob(j))
	}
	if o.held {
		o.held = false
		if err := o.text.WriteHeader(o.header); err != nil {
			return o.wrap(err)
		}
	}
	if o.header == nil && o.spill == nil {
		dir := ""
		if o.file != nil {
			dir = filepath.Dir(o.name)
		}
		s, err := atomicfile.NewScratch(dir)
		if err != nil {
			return o.wrap(err)
		}
		o.spill = s
		o.text.Defer(s)
	}
	return o.wrap(o.text.WriteJob(j))
}

// finish ends the output: the header must have been given (setHeader), and
// inSHA is the input's SHA-256 when it was shaLater. An output without jobs
// is refused (errNoJobs) and nothing is written.
func (o *traceOutput) finish(inSHA string) error {
	defer o.abort()
	if o.jobs == 0 {
		return fmt.Errorf("%w; nothing written to %s", errNoJobs, o.name)
	}
	if o.format == formatBatsim && o.doubt.Any() {
		fmt.Fprintf(warnOut, "warning: %s: %s\n", o.name, o.doubt.String())
	}
	if o.header == nil {
		return fmt.Errorf("writing %s: no header", o.name)
	}
	if o.pq != nil {
		if inSHA != "" {
			if err := o.pq.SetMetadata("hpcwl.input_sha256", inSHA); err != nil {
				return err
			}
		}
		if err := o.pq.Close(); err != nil {
			return o.wrap(err)
		}
	} else if err := o.text.Close(); err != nil {
		return o.wrap(err)
	}
	if o.file == nil {
		return nil
	}
	return o.wrap(o.file.Commit())
}

// abort discards the output (a no-op after finish).
func (o *traceOutput) abort() {
	if o.spill != nil {
		o.spill.Remove()
	}
	if o.file != nil {
		o.file.Abort()
	}
}

// wrap names the output in an error about writing it, and drops the
// scratch file's name (it is gone once the run stops).
func (o *traceOutput) wrap(err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if o.spill != nil && errors.As(err, &pe) && pe.Path == o.spill.Name() {
		err = pe.Err
	}
	if o.file == nil {
		return err
	}
	return fmt.Errorf("writing %s: %w", o.name, err)
}

// openScanner opens an SWF log (or a Parquet trace) to read job by job, as
// loadAnyTrace reads it whole; scanDone records it as an input and prints
// loadAnyTrace's warnings once the scan is over.
func openScanner(name string, opt trace.Options) (*trace.Scanner, error) {
	if opt.Procs < 0 {
		return nil, usagef("--procs must be positive, got %d", opt.Procs)
	}
	opt.Lenient = reading.lenient
	return trace.OpenScanner(name, opt)
}

// scanError adds loadAnyTrace's hint to an error of a scan.
func scanError(err error) error {
	if errors.Is(err, swf.ErrNegative) || errors.Is(err, trace.ErrOutOfRange) {
		return fmt.Errorf("%w (--lenient reads values out of range as unknown)", err)
	}
	return err
}

// scanJobs calls f with each job that s reads, to the end of the log. A
// job is valid only during its call. It returns the first error of the
// scan (with scanError's hint) or of f.
func scanJobs(s *trace.Scanner, f func(j *trace.Job) error) error {
	var j trace.Job
	for {
		err := s.Next(&j)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return scanError(err)
		}
		if err := f(&j); err != nil {
			return err
		}
	}
}

// scanDone returns the scanned log without its jobs (see
// trace.Scanner.Trace), records it as an input of the running command and
// prints the warnings loadAnyTrace prints about it.
func scanDone(s *trace.Scanner) (*trace.Trace, error) {
	t, err := s.Trace()
	if err != nil {
		return nil, err
	}
	recordInput(t)
	if t.Oddities.Any() {
		fmt.Fprintf(warnOut, "warning: %s: %s\n", t.Name, t.Oddities.String())
	}
	for _, w := range s.Warnings() {
		fmt.Fprintf(warnOut, "warning: %s\n", w)
	}
	return t, nil
}

// copyTrace copies the log in to out job by job (convert without --sort):
// the output's bytes are writeTrace's of the loaded log, in constant
// memory. It returns the log without its jobs and the number of jobs.
func copyTrace(in string, opt trace.Options, out, to string, stdout io.Writer) (*trace.Trace, int, error) {
	s, err := openScanner(in, opt)
	if err != nil {
		return nil, 0, scanError(err)
	}
	defer s.Close()
	o, err := createTraceOutput(out, to, stdout, traceSource{name: s.Name(), procs: s.Procs(), in: s.Name(), inSHA: shaLater})
	if err != nil {
		return nil, 0, err
	}
	defer o.abort()
	n := 0
	if err := scanJobs(s, func(j *trace.Job) error {
		n++
		return o.WriteJob(j)
	}); err != nil {
		return nil, 0, err
	}
	t, err := scanDone(s)
	if err != nil {
		return nil, 0, err
	}
	if err := o.setHeader(t.Header); err != nil {
		return nil, 0, err
	}
	return t, n, o.finish(t.SHA256)
}
