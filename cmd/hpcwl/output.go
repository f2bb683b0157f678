package main

import (
	"encoding/json"
	"fmt"
	"io"
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

// traceFlags are the flags every command reading a trace shares.
type traceFlags struct {
	procs int
}

func (f *traceFlags) add(cmd *cobra.Command) {
	cmd.Flags().IntVar(&f.procs, "procs", 0, "machine size in processors (default: the log's MaxProcs, else MaxNodes)")
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
