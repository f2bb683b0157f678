package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hpcwl/hpcwl/internal/atomicfile"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/spf13/cobra"
)

// Trace formats accepted by -o and --to.
const (
	formatSWF     = "swf"
	formatCSV     = "csv"
	formatBatsim  = "batsim"
	formatParquet = "parquet"
)

var traceFormats = []string{formatSWF, formatCSV, formatBatsim, formatParquet}

// outputFormat returns the format to write name in: to when given, else the
// one its extension names (.swf, .csv, .json, each optionally .gz, and
// .parquet), else SWF for standard output. Parquet is compressed already, so
// ".parquet.gz" is refused.
func outputFormat(name, to string) (string, error) {
	lower := strings.ToLower(filepath.Base(name))
	if strings.HasSuffix(lower, ".gz") && (to == formatParquet || strings.HasSuffix(lower, ".parquet.gz")) {
		return "", usagef("%s: Parquet files are compressed inside (zstd); write them without .gz", name)
	}
	if to != "" {
		for _, f := range traceFormats {
			if to == f {
				return f, nil
			}
		}
		return "", usagef("unknown format %q for --to; valid: %s", to, strings.Join(traceFormats, ", "))
	}
	base := strings.TrimSuffix(lower, ".gz")
	switch {
	case strings.HasSuffix(base, ".parquet"):
		return formatParquet, nil
	case name == "-":
		return formatSWF, nil
	case strings.HasSuffix(base, ".swf"):
		return formatSWF, nil
	case strings.HasSuffix(base, ".csv"):
		return formatCSV, nil
	case strings.HasSuffix(base, ".json"):
		return formatBatsim, nil
	}
	return "", usagef("cannot tell the format of %q from its extension (.swf, .csv, .json, .parquet); use --to %s",
		name, strings.Join(traceFormats, "|"))
}

// writeOutput writes name atomically ("-" is standard output).
func writeOutput(name string, stdout io.Writer, fn func(io.Writer) error) error {
	if name == "-" {
		return fn(stdout)
	}
	if err := atomicfile.WriteFile(name, fn); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

// output is an output file named on the command line.
type output struct {
	flag string // the flag naming it, e.g. "-o" or "--jobs"
	name string // the path, "-" for standard output, "" when not asked for
}

// checkOutputs refuses, before any computation, outputs that cannot be
// written or that would destroy an input:
//   - an output that is one of the inputs (the same file, by any path);
//   - two outputs naming the same file;
//   - more than one output on standard output ("-"): standard output carries
//     one data stream, and a command writing data there prints its summary
//     (table or --json) on standard error instead;
//   - an output in a directory that does not exist or cannot be written.
func checkOutputs(inputs []string, outs ...output) error {
	var onStdout []string
	var files []output
	for _, o := range outs {
		switch o.name {
		case "":
			continue
		case "-":
			onStdout = append(onStdout, o.flag+" -")
			continue
		}
		for _, in := range inputs {
			if sameFile(in, o.name) {
				return usagef("%s %s is the input %s: refusing to overwrite an input; write to another file", o.flag, o.name, in)
			}
		}
		for _, prev := range files {
			if sameFile(prev.name, o.name) || filepath.Clean(prev.name) == filepath.Clean(o.name) {
				return usagef("%s and %s name the same file %s; give each output its own file", prev.flag, o.flag, o.name)
			}
		}
		files = append(files, o)
		if err := checkWritable(o.name); err != nil {
			return fmt.Errorf("%s %s: cannot write: %w", o.flag, o.name, err)
		}
	}
	if len(onStdout) > 1 {
		return usagef("%s: only one output can go to standard output; write the others to files", strings.Join(onStdout, " and "))
	}
	return nil
}

// summaryWriter returns where a command prints its summary (table or
// JSON): standard output, unless one of outs writes its data there, in which
// case standard error, so that standard output holds one stream only.
func summaryWriter(stdout, stderr io.Writer, outs ...output) io.Writer {
	for _, o := range outs {
		if o.name == "-" {
			return stderr
		}
	}
	return stdout
}

// sameFile reports whether the paths a and b name one existing file.
func sameFile(a, b string) bool {
	if a == "-" || b == "-" {
		return false
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false
	}
	return os.SameFile(fa, fb)
}

// checkWritable tries to create (and removes) the temporary file an atomic
// write of name would use. A device or pipe is left alone (opening a pipe
// for writing would wait for a reader).
func checkWritable(name string) error {
	if fi, err := os.Stat(name); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("is a directory")
		}
		if !fi.Mode().IsRegular() {
			return nil
		}
	}
	f, err := atomicfile.Create(name)
	if err != nil {
		return err
	}
	f.Abort()
	return nil
}

// traceFlags are the flags every command reading a trace shares.
type traceFlags struct {
	procs int
}

func (f *traceFlags) add(cmd *cobra.Command) {
	cmd.Flags().IntVar(&f.procs, "procs", 0, "machine size in processors (default: the log's MaxProcs, else MaxNodes)")
	positiveFlags(cmd, "procs")
	addInputFormatFlag(cmd)
}

// load reads the trace named on the command line, in any format hpcwl
// reads (see loadAnyTrace).
func (f *traceFlags) load(name string) (*trace.Trace, error) {
	return loadAnyTrace(name, trace.Options{Procs: f.procs})
}

// isParquetName reports whether the file name ends in ".parquet".
func isParquetName(name string) bool {
	return strings.HasSuffix(strings.ToLower(name), ".parquet")
}

// invocation is the command line being run (set by run), recorded in the
// outputs' provenance.
var invocation []string

// provenance returns the key-value metadata recorded in every Parquet file
// hpcwl writes: the version, the command line, and input and its SHA-256
// when known. Extra entries (e.g. the parameters as JSON) are added to it.
func provenance(input, sha256 string, extra map[string]string) map[string]string {
	m := map[string]string{"hpcwl.version": version.String()}
	if len(invocation) > 0 {
		m["hpcwl.command"] = shellJoin(invocation)
	}
	if input != "" {
		m["hpcwl.input"] = input
	}
	if sha256 != "" {
		m["hpcwl.input_sha256"] = sha256
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// shellJoin quotes the words of a command line as a POSIX shell would need.
func shellJoin(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,+@%") == "" {
			q[i] = w
			continue
		}
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// jsonText returns v as compact JSON, for the metadata of Parquet files.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%+v", v)
	}
	return string(b)
}
