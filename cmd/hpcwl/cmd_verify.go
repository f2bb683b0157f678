package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/parquet-go/parquet-go"
	"github.com/spf13/cobra"

	"github.com/hpcwl/hpcwl/batsim"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/verify"
)

func init() { register(newVerifyCommand) }

// verifyOptions are the options of `hpcwl verify`.
type verifyOptions struct {
	trace           traceFlags
	log             string
	kill            bool
	policy          string
	oversize        string
	missingEstimate string
	speed           float64
	procsFactor     float64
	max             int
	estimateFactor  float64
}

func newVerifyCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts verifyOptions
	cmd := &cobra.Command{
		Use:   "verify SCHEDULE --log LOG",
		Short: "Check a schedule (jobs.csv) against its log and machine",
		Long: `Verify checks a schedule independently of the simulator that made it. SCHEDULE
is a jobs.csv with Batsim's columns, as written by "hpcwl simulate --jobs" or by
Batsim (or the Parquet file simulate --jobs writes for a name ending in .parquet) (job ids of the form workload!id are read as id). Its jobs are matched
by id to the jobs of LOG, prepared as "hpcwl simulate" prepares them (pass the
same --procs, --procs-factor, --speed, --oversize, --missing-estimate and --kill
as the simulation). The machine size is --procs, else the log header's.

Every schedule must: hold every job of the log exactly once (no missing,
duplicate or unknown job, none left unstarted), with the log's submission
time and processor count; start no job before its submission; run every job
for its runtime, or with --kill for min(runtime, requested time); and never
have more processors busy than the machine has (jobs ending at an instant
free their processors before jobs starting then take theirs). When SCHEDULE
names the processors of each job (allocated_resources), each job must hold as
many as it needs, all on the machine, none held by another job at the time.

--policy adds the invariants of a policy, checked when the basic rules hold
(job by job against the log, independently of the simulator):
  fcfs  jobs start in arrival order (submit time, then job id);
  easy  EASY backfilling (Lifka 1995; Mu'alem and Feitelson 2001): at every
        instant, the oldest waiting job starts no later than its shadow time,
        the earliest planned end (start + requested time, times
        --estimate-factor) of a running job by
        which enough processors are free for it (at once if it fits now).
        This bound holds only when planned ends bound the actual ends, so it
        is checked with --kill or when no job runs past its requested time,
        and skipped with a note otherwise.
  conservative  textbook conservative backfilling (Mu'alem and Feitelson
        2001): the reservations are replayed along the schedule's starts and
        ends (each job reserves at arrival the earliest slot where it fits
        for its planned time; after every instant at which a job ended, the
        waiting jobs in arrival order move to the earliest slot where they
        now fit, the others left in place), and no job may start after its
        reservation. This is the compression of hpcwl's conservative with
        one pass per instant; a scheduler that compresses otherwise (or
        after each single end, as with simulate --pass-every-event) may
        fail it.
  conservative-bound  a necessary condition that every variant of
        conservative backfilling keeps, whatever its compression: no job
        starts after the time by which every job running at its arrival is
        planned to end and every job waiting then is planned to end after
        starting by its own such bound.
  Both are checked under the same condition as easy.

The first violations are listed (rule, job, time, line of SCHEDULE, what);
the exit status is 1 if there is any.` + exitStatusHelp,
		Example: `  hpcwl simulate builtin:KTH-SP2 --scheduler easy --kill --jobs easy.csv
  hpcwl verify easy.csv --log builtin:KTH-SP2 --kill --policy easy`,
		Args: exactArgs(1, "one SCHEDULE"),
		RunE: action(func(cmd *cobra.Command, args []string) error {
			return runVerify(cmd.Context(), opts, args[0], stdout)
		}),
	}
	opts.trace.add(cmd)
	f := cmd.Flags()
	f.StringVar(&opts.log, "log", "", "the workload log the schedule was made from (required)")
	f.BoolVar(&opts.kill, "kill", false, "jobs were killed at their requested time")
	f.StringVar(&opts.policy, "policy", "none", "also check a policy's invariants: none, fcfs, easy, conservative, conservative-bound")
	f.StringVar(&opts.oversize, "oversize", "drop", "jobs wider than the machine, as in the simulation: drop (as simulate does by default), error, clamp")
	f.StringVar(&opts.missingEstimate, "missing-estimate", "runtime", "requested time of jobs without one, as in the simulation: runtime, max, or SECONDS")
	f.Float64Var(&opts.speed, "speed", 1, "node speed of the simulation relative to the log's machine")
	f.Float64Var(&opts.procsFactor, "procs-factor", 1, "machine size factor of the simulation")
	f.IntVar(&opts.max, "max", 20, "list at most `N` violations (all are counted)")
	f.Float64Var(&opts.estimateFactor, "estimate-factor", 1, "the simulation's estimate factor: planned times are requested times times this (2 for easy-x2)")
	positiveFlags(cmd, "max")
	return cmd
}

func runVerify(_ context.Context, opts verifyOptions, name string, stdout io.Writer) error {
	if opts.log == "" {
		return usagef("--log LOG is required: the workload log the schedule was made from")
	}
	pol, err := verify.ParsePolicy(opts.policy)
	if err != nil {
		return usageError{err}
	}
	fill, err := sim.ParseEstimateFallback(opts.missingEstimate)
	if err != nil {
		return usageError{err}
	}
	over, err := sim.ParseOversize(opts.oversize)
	if err != nil {
		return usageError{err}
	}
	if !(opts.speed > 0) || math.IsInf(opts.speed, 0) {
		return usagef("--speed must be a positive number, got %v", opts.speed)
	}
	if !(opts.estimateFactor >= 1) || math.IsInf(opts.estimateFactor, 0) {
		return usagef("--estimate-factor must be a number >= 1, got %v", opts.estimateFactor)
	}
	if !(opts.procsFactor > 0) || math.IsInf(opts.procsFactor, 0) {
		return usagef("--procs-factor must be a positive number, got %v", opts.procsFactor)
	}
	t, err := opts.trace.load(opts.log)
	if err != nil {
		return err
	}
	w, err := sim.Prepare(t, sim.PrepareOptions{Machine: sim.Machine{ProcsFactor: opts.procsFactor, Speed: opts.speed},
		Oversize: over, MissingEstimate: fill})
	var oe *sim.OversizeError
	if errors.As(err, &oe) {
		return fmt.Errorf("%s: job %d needs %d processors but the machine has %d; pass the simulation's --oversize or --procs",
			opts.log, oe.JobID, oe.Procs, oe.Machine)
	}
	if err != nil {
		return err
	}
	if w.Procs <= 0 {
		return usagef("%s: machine size unknown; pass --procs N", opts.log)
	}
	sch, err := readSchedule(name)
	if err != nil {
		return err
	}
	rep, err := verify.Check(w.Jobs, sch, verify.Options{Procs: w.Procs, Kill: opts.kill, Policy: pol, Max: opts.max,
		EstimateFactor: opts.estimateFactor})
	if err != nil {
		return err
	}
	rules := "every job once, submission, size, no early start, durations (runtime"
	if opts.kill {
		rules += ", killed at the requested time"
	}
	rules += "), processors busy"
	if rep.AllocChecked {
		rules += ", processors allocated (allocated_resources)"
	}
	if rep.PolicyChecked {
		rules += ", " + rep.Policy.String() + " invariants"
	}
	fmt.Fprintf(stdout, "schedule\t%s: %d jobs\n", name, rep.Entries)
	fmt.Fprintf(stdout, "log\t%s: %d jobs, %d processors", opts.log, rep.Jobs, w.Procs)
	if n := w.Dropped + w.DroppedOversize; n > 0 {
		fmt.Fprintf(stdout, " (%d records left out as simulate leaves them out: %d without runtime, processors or submit time, %d wider than the machine)",
			n, w.Dropped, w.DroppedOversize)
	}
	fmt.Fprintln(stdout)
	fmt.Fprintf(stdout, "checked\t%s\n", rules)
	if rep.Note != "" {
		fmt.Fprintf(stdout, "note\t%s\n", rep.Note)
	}
	if rep.OK() {
		fmt.Fprintf(stdout, "result\tOK: no violation\n")
		return nil
	}
	fmt.Fprintf(stdout, "result\t%d violations; the first %d:\n", rep.Count, len(rep.Violations))
	for _, v := range rep.Violations {
		fmt.Fprintf(stdout, "  %s\n", v)
	}
	return fmt.Errorf("%s: %d violations of the schedule rules", name, rep.Count)
}

// readSchedule reads a jobs.csv, or the Parquet form simulate --jobs
// writes for a name ending in .parquet (rows numbered from 1 as lines).
func readSchedule(name string) ([]verify.Entry, error) {
	if !isParquetName(name) {
		fh, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer fh.Close()
		return verify.ReadJobsCSV(fh, name)
	}
	rows, err := parquet.ReadFile[batsim.JobRow](name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out := make([]verify.Entry, len(rows))
	for i, r := range rows {
		e := verify.Entry{ID: r.JobID, Submit: sim.Time(r.SubmissionTime), Procs: int(r.RequestedResources),
			Start: sim.Time(r.StartingTime), End: sim.Time(r.FinishTime), Line: i + 1}
		if e.Start < 0 {
			e.Start, e.End = -1, -1
		}
		if r.AllocatedResources != "" {
			if e.Alloc, err = verify.ParseIntervals(r.AllocatedResources); err != nil {
				return nil, fmt.Errorf("%s: row %d: allocated_resources %q: %w", name, i+1, r.AllocatedResources, err)
			}
		}
		out[i] = e
	}
	return out, nil
}
