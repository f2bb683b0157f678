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
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hpcwl/hpcwl/batsim"
	"github.com/hpcwl/hpcwl/builtin"
	"github.com/hpcwl/hpcwl/sacct"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// writeTrace writes t to name ("-" is stdout) in the format given by to
// (swf, csv, batsim or parquet), else by name's extension; see outputFormat.
// The file is written atomically and gzipped when name ends in ".gz". The
// output records its provenance (docs/formats.md): SWF, CSV and Batsim in
// the header (see stamped); a Parquet file in its SWF header too and in its
// metadata (see provenance), whose input trace is src[0] when given (the log t was made
// from), else t itself.
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
		if _, err := batsim.DelayType(batsimVersion); err != nil {
			return usagef("--batsim-version: %v", err)
		}
		if _, err := t.MachineSize(); err != nil {
			return err
		}
		if d := batsim.Check(t); d.Any() {
			fmt.Fprintf(warnOut, "warning: %s: %s\n", name, d.String())
		}
	}
	st := stamped(t)
	return writeOutput(name, stdout, func(w io.Writer) error {
		switch format {
		case formatCSV:
			return st.WriteCSV(w)
		case formatBatsim:
			return batsim.WriteVersion(w, st, batsimVersion)
		case formatParquet:
			return st.WriteParquet(w, provenance(in.Name, in.SHA256, nil))
		}
		return st.WriteSWF(w)
	})
}

// errNoJobs is returned instead of writing a trace without jobs: a log with
// a header only is never what was asked for.
var errNoJobs = errors.New("the output would hold no jobs")

// formatBatsimJobs is the jobs.csv a Batsim run writes (the schedule it
// simulated); it is read, never written, as a trace.
const formatBatsimJobs = "batsim-jobs"

// formatSacct is Slurm's accounting as `sacct --parsable2` prints it; it
// is read, never written.
const formatSacct = "sacct"

// inputFormats are the formats --from names.
var inputFormats = []string{formatSWF, formatCSV, formatBatsim, formatParquet, formatBatsimJobs, formatSacct}

// inputFrom is the format given by --from for the traces the running
// command reads ("" when not given: from the name).
var inputFrom string

// batsimVersion is the Batsim version whose workloads the running command
// writes (--batsim-version).
var batsimVersion = batsim.Version4

// addInputFormatFlag adds --from to a command reading traces.
func addInputFormatFlag(cmd *cobra.Command) {
	cmd.Flags().StringVar(&inputFrom, "from", "", "input format: "+strings.Join(inputFormats, ", ")+
		" (Batsim's jobs.csv of a run; sacct: Slurm's sacct --parsable2); default: from the extension (.csv, .json, .parquet, else swf), swf for standard input")
}

// addBatsimVersionFlag adds --batsim-version to a command writing traces.
func addBatsimVersionFlag(cmd *cobra.Command) {
	cmd.Flags().IntVar(&batsimVersion, "batsim-version", batsim.Version4,
		`Batsim version of a Batsim workload output: 4 (profile type "delay") or 5 ("DelayProfile")`)
}

// inputFormat returns the format of the trace file name: --from when given,
// else from its extension: CSV for .csv, Batsim for .json (each optionally
// .gz), Parquet for .parquet, SWF otherwise (trace.Load reads a Parquet
// file of any name too).
func inputFormat(name string) string {
	if inputFrom != "" {
		return inputFrom
	}
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
// Parquet magic bytes), and with --from batsim-jobs the jobs.csv of a
// Batsim run. The optional opts[0] gives the machine size. The trace is
// recorded as an input of the running command (see recordInput).
func loadAnyTrace(name string, opts ...trace.Options) (*trace.Trace, error) {
	t, err := loadAnyTraceQuiet(name, opts...)
	if err != nil {
		return nil, err
	}
	recordInput(t)
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
	if !slices.Contains(inputFormats, format) {
		return nil, usagef("unknown format %q for --from; valid: %s", format, strings.Join(inputFormats, ", "))
	}
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
	var f *os.File
	if name == "-" {
		f = os.Stdin
	} else {
		fi, err := os.Stat(name)
		if err != nil {
			return nil, err
		}
		if fi.IsDir() {
			return nil, fmt.Errorf("%s: is a directory, expected a %s file", name, strings.ToUpper(format))
		}
		if f, err = os.Open(name); err != nil {
			return nil, err
		}
		defer f.Close()
	}
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
	var err error
	switch format {
	case formatCSV:
		t, err = trace.ReadCSV(r, name, opt)
	case formatBatsimJobs:
		t, err = batsim.ReadJobs(r, name, opt)
	case formatSacct:
		// sacct prints times in the local time zone of where it runs.
		var sum *sacct.Summary
		t, sum, err = sacct.Read(r, name, sacct.Options{Location: time.Local, Procs: opt.Procs})
		if err == nil && sum.Unfinished > 0 {
			fmt.Fprintf(warnOut, "warning: %s: %d jobs had not finished and are left out\n", name, sum.Unfinished)
		}
	default:
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
