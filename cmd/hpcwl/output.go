package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/hpcwl/hpcwl/internal/atomicfile"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/spf13/cobra"
)

// Trace formats accepted by -o and --to.
const (
	formatSWF    = "swf"
	formatCSV    = "csv"
	formatBatsim = "batsim"
)

var traceFormats = []string{formatSWF, formatCSV, formatBatsim}

// outputFormat returns the format to write name in: to when given, else the
// one its extension names (.swf, .csv, .json, each optionally .gz), else SWF
// for standard output.
func outputFormat(name, to string) (string, error) {
	if to != "" {
		for _, f := range traceFormats {
			if to == f {
				return f, nil
			}
		}
		return "", usagef("unknown format %q for --to; valid: %s", to, strings.Join(traceFormats, ", "))
	}
	base := strings.TrimSuffix(strings.ToLower(filepath.Base(name)), ".gz")
	switch {
	case name == "-":
		return formatSWF, nil
	case strings.HasSuffix(base, ".swf"):
		return formatSWF, nil
	case strings.HasSuffix(base, ".csv"):
		return formatCSV, nil
	case strings.HasSuffix(base, ".json"):
		return formatBatsim, nil
	}
	return "", usagef("cannot tell the format of %q from its extension (.swf, .csv, .json); use --to %s",
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
	positiveFlags(cmd, "procs")
}

// load reads the trace named on the command line, in any format hpcwl
// reads (see loadAnyTrace).
func (f *traceFlags) load(name string) (*trace.Trace, error) {
	return loadAnyTrace(name, trace.Options{Procs: f.procs})
}
