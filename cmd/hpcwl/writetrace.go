package main

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hpcwl/hpcwl/batsim"
	"github.com/hpcwl/hpcwl/builtin"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// writeTrace writes t to name ("-" is stdout) in the format given by to
// (swf, csv, batsim or parquet), else by name's extension; see outputFormat.
// The file is written atomically and gzipped when name ends in ".gz". A
// Parquet file records the provenance (see provenance): the input trace is
// src[0] when given (the log t was made from), else t itself.
func writeTrace(t *trace.Trace, name, to string, stdout io.Writer, src ...*trace.Trace) error {
	in := t
	if len(src) > 0 && src[0] != nil {
		in = src[0]
	}
	format, err := outputFormat(name, to)
	if err != nil {
		return err
	}
	if t.Len() == 0 {
		return fmt.Errorf("%w; nothing written to %s", errNoJobs, name)
	}
	if format == formatBatsim {
		// Check before creating the output, so that no file is left behind.
		if _, err := t.MachineSize(); err != nil {
			return err
		}
		if d := batsim.Check(t); d.Any() {
			fmt.Fprintf(warnOut, "warning: %s: %s\n", name, d.String())
		}
	}
	return writeOutput(name, stdout, func(w io.Writer) error {
		switch format {
		case formatCSV:
			return t.WriteCSV(w)
		case formatBatsim:
			return batsim.Write(w, t)
		case formatParquet:
			return t.WriteParquet(w, provenance(in.Name, in.SHA256, nil))
		}
		return t.WriteSWF(w)
	})
}

// errNoJobs is returned instead of writing a trace without jobs: a log with
// a header only is never what was asked for.
var errNoJobs = errors.New("the output would hold no jobs")

// inputFormat returns the format of the trace file name from its extension:
// CSV for .csv, Batsim for .json (each optionally .gz), Parquet for
// .parquet, SWF otherwise (trace.Load reads a Parquet file of any name too).
func inputFormat(name string) string {
	if name == "-" || builtin.Is(name) {
		return formatSWF
	}
	base := strings.TrimSuffix(strings.ToLower(filepath.Base(name)), ".gz")
	switch {
	case strings.HasSuffix(base, ".csv"):
		return formatCSV
	case strings.HasSuffix(base, ".json"):
		return formatBatsim
	case strings.HasSuffix(base, ".parquet"):
		return formatParquet
	}
	return formatSWF
}

// readSettings are the root command's flags about reading logs, shared by
// every command that reads one.
type readSettings struct {
	lenient bool // --lenient
}

// reading holds the settings of the command line being run.
var reading readSettings

// loadAnyTrace reads a trace in any format hpcwl writes: SWF (a file, "-"
// or "builtin:NAME"), CSV (.csv) or a Batsim workload (.json), the files
// optionally gzipped, or Parquet (.parquet, or any file starting with the
// Parquet magic bytes). The optional opts[0] gives the machine size.
func loadAnyTrace(name string, opts ...trace.Options) (*trace.Trace, error) {
	t, err := loadAnyTraceQuiet(name, opts...)
	if err != nil {
		return nil, err
	}
	if t.Oddities.Any() {
		fmt.Fprintf(warnOut, "warning: %s: %s\n", name, t.Oddities.String())
	}
	for _, w := range t.Check() {
		fmt.Fprintf(warnOut, "warning: %s\n", w)
	}
	return t, nil
}

// warnOut receives warnings about the inputs: the command's stderr.
var warnOut io.Writer = os.Stderr

// loadAnyTraceQuiet is loadAnyTrace without the warnings.
func loadAnyTraceQuiet(name string, opts ...trace.Options) (*trace.Trace, error) {
	var opt trace.Options
	if len(opts) > 0 {
		opt = opts[0]
	}
	if opt.Procs < 0 {
		return nil, usagef("--procs must be positive, got %d", opt.Procs)
	}
	opt.Lenient = reading.lenient
	format := inputFormat(name)
	switch format {
	case formatSWF:
		t, err := trace.Load(name, opt)
		if errors.Is(err, swf.ErrNegative) || errors.Is(err, trace.ErrOutOfRange) {
			return nil, fmt.Errorf("%w (--lenient reads values out of range as unknown)", err)
		}
		return t, err
	case formatParquet:
		return trace.LoadParquet(name, opt)
	}
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s: is a directory, expected a %s file", name, strings.ToUpper(format))
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sum := sha256.New()
	br := bufio.NewReaderSize(io.TeeReader(f, sum), 64<<10)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: reading gzip header: %w", name, err)
		}
		defer zr.Close()
		r = zr
	}
	var t *trace.Trace
	if format == formatCSV {
		t, err = trace.ReadCSV(r, name, opt)
	} else {
		t, err = batsim.Read(r, name, opt)
	}
	if err != nil {
		return nil, err
	}
	// The hash covers the whole file, also bytes after what the reader used.
	if _, err := io.Copy(io.Discard, br); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	t.SHA256 = hex.EncodeToString(sum.Sum(nil))
	return t, nil
}
