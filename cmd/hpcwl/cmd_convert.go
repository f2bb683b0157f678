package main

import (
	"fmt"
	"io"

	"github.com/hpcwl/hpcwl/trace"
	"github.com/spf13/cobra"
)

func init() { register(newConvertCommand) }

type convertOptions struct {
	traceFlags
	out    string
	to     string
	sort   bool
	asJSON bool
}

func newConvertCommand(stdout, stderr io.Writer) *cobra.Command {
	var o convertOptions
	cmd := &cobra.Command{
		Use:   "convert IN -o OUT",
		Short: "Convert a trace between SWF, CSV, Batsim JSON and Parquet",
		Long: `Convert a trace between the Standard Workload Format (SWF), CSV, Batsim
JSON workloads and Parquet. The input format comes from IN's extension (.csv,
.json, .parquet, else SWF; all but Parquet may be gzipped; a file starting
with Parquet's magic bytes is read as Parquet whatever its name), the output
format from OUT's extension or --to.

CSV: the SWF header as leading '#' lines ("#; MaxProcs: 128"), one row naming
the 18 columns (job_number, submit_time, ..., think_time), one row per job.

Batsim: {"nb_res", "jobs", "profiles"} with one delay profile per distinct
run time, typed as --batsim-version names it ("delay" in Batsim 4, the
default, "DelayProfile" in Batsim 5), a zero run time written as a delay of
0.001 s (Batsim needs a delay above 0); the SWF fields Batsim has no place for travel in extra job keys
("swf_user_id", ...) and the header in "swf_header", so converting back gives
the original trace exactly. Batsim needs the machine size: pass --procs N
when the log's header has no MaxProcs or MaxNodes.

--from batsim-jobs reads the jobs.csv of a Batsim run: the schedule Batsim
simulated becomes an SWF log whose waits and run times are Batsim's, for
hpcwl's analyses (info, sessions, compare). --from sacct reads Slurm's
accounting as sacct --parsable2 prints it (fields JobIDRaw or JobID, Submit,
Start, End and State; with Elapsed(Raw), Timelimit(Raw), NCPUS, ReqCPUS,
UID/User, GID/Group, Partition and NodeList when given; times in the local
time zone; docs/formats.md): jobs renumbered by submit time, steps skipped,
unfinished jobs left out with a warning. --from also names the format of
standard input ("-"), SWF when not given.

The output records the hpcwl version, the command line and the input's
SHA-256 in its header (docs/formats.md, "Provenance").

Parquet: one row per job, the 18 SWF fields as typed columns named as in the
CSV (integers, and doubles for the CPU time and memory fields), -1 (unknown)
stored as null, zstd-compressed; the SWF header and the provenance (hpcwl
version, command line, input and its SHA-256) in the file's key-value
metadata, so converting back gives the original trace exactly. pandas,
polars, DuckDB and R's arrow read it directly (see docs/formats.md).

SWF to SWF rewrites the job lines in the canonical layout (and with --sort
orders the jobs by submit time).` + exitStatusHelp,
		Example: `  hpcwl convert builtin:KTH-SP2 -o kth.csv
  hpcwl convert kth.csv -o kth.swf.gz
  hpcwl convert builtin:KTH-SP2 -o kth.parquet
  hpcwl convert KTH-SP2-1996-2.1-cln.swf.gz -o kth.json
  hpcwl convert log.swf --to batsim --procs 128 -o -
  hpcwl convert log.swf --batsim-version 5 -o log5.json
  hpcwl convert out_jobs.csv --from batsim-jobs -o sched.swf
  sacct -a -X --parsable2 -S 2024-01-01 -o JobIDRaw,User,Group,Partition,Submit,Start,End,ElapsedRaw,TimelimitRaw,NCPUS,ReqCPUS,NodeList,State > jobs.txt
  hpcwl convert jobs.txt --from sacct -o cluster.swf`,
		Args: exactArgs(1, "one input trace"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runConvert(args[0], &o, stdout, stderr)
		}),
	}
	o.traceFlags.add(cmd)
	cmd.Flags().StringVarP(&o.out, "output", "o", "", "output file (\"-\" for stdout; required)")
	cmd.Flags().StringVar(&o.to, "to", "", "output format: swf, csv, batsim or parquet (default: from the -o extension)")
	addBatsimVersionFlag(cmd)
	cmd.Flags().BoolVar(&o.sort, "sort", false, "order the jobs by submit time, then job number")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print a JSON summary on stdout")
	return cmd
}

// convertSummary is what convert reports.
type convertSummary struct {
	Input  string `json:"input"`
	Output string `json:"output"`
	Format string `json:"format"`
	Jobs   int    `json:"jobs"`
	Procs  int    `json:"procs"`
}

func runConvert(in string, o *convertOptions, stdout, stderr io.Writer) error {
	if o.out == "" {
		return usagef("convert needs the output file: -o OUT (\"-\" for stdout)")
	}
	format, err := outputFormat(o.out, o.to)
	if err != nil {
		return err
	}
	outs := []output{{"-o", o.out}}
	if err := checkOutputs([]string{in}, outs...); err != nil {
		return err
	}
	var s convertSummary
	if o.sort || inputFormat(in) != formatSWF {
		// Sorting needs every job; the CSV and Batsim readers read whole
		// traces.
		t, err := loadAnyTrace(in, trace.Options{Procs: o.procs})
		if err != nil {
			return err
		}
		if o.sort {
			t.SortBySubmit()
		}
		if err := writeTrace(t, o.out, format, stdout); err != nil {
			return err
		}
		s = convertSummary{Input: in, Output: o.out, Format: format, Jobs: t.Len(), Procs: t.Procs}
	} else {
		t, n, err := copyTrace(in, trace.Options{Procs: o.procs}, o.out, format, stdout)
		if err != nil {
			return err
		}
		s = convertSummary{Input: in, Output: o.out, Format: format, Jobs: n, Procs: t.Procs}
	}
	if o.asJSON {
		return writeJSON(summaryWriter(stdout, stderr, outs...), s)
	}
	if o.out != "-" {
		fmt.Fprintf(stderr, "wrote %d jobs to %s (%s)\n", s.Jobs, s.Output, s.Format)
	}
	return nil
}
