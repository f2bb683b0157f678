package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/sweep"
	"github.com/hpcwl/hpcwl/trace"
)

func init() { register(newSweepCommand) }

type sweepOptions struct {
	db        string
	workers   int
	status    bool
	csvOut    string
	executor  string
	tasks     int
	sbatch    string
	wait      bool
	task      int
	taskCount int
}

func newSweepCommand(stdout, stderr io.Writer) *cobra.Command {
	var opts sweepOptions
	cmd := &cobra.Command{
		Use:   "sweep EXPERIMENT.yaml",
		Short: "Run a declared grid of simulations into a resumable results database",
		Long: `Sweep runs every combination of an experiment's logs, schedulers, node speeds,
machine size factors, load factors, replays and resampled variants, and keeps one
row of metrics per run in a SQLite database (--db; default: the experiment file
with the extension .db). Each row is saved as soon as its run ends, so a sweep
that is stopped (Ctrl-C, a killed job, a power cut) resumes where it stopped when
the same command is run again: runs already in the database are not run again and
none is lost or stored twice. A database belongs to one experiment: changing the
file's text needs another database.

The experiment file is YAML:

  name: easy-vs-fcfs
  logs: [builtin:KTH-SP2]
  schedulers: [fcfs, easy, conservative]
  speeds: [1, 0.5]          # node speed factors (default [1])
  procs_factors: [1]        # machine size factors (default [1])
  loads: [1, 1.2]           # load factors, applied by user-level resampling (default [1])
  replays: [rigid, madon]   # rigid, or a feedback user model (default [rigid])
  variants: 10              # resampled variants per log and load (default 0: the logs only)
  seed: 1                   # seed of the resampling (default 1)
  kill: false               # kill jobs at their requested time

Variant v of a log is the same workload for every scheduler, speed and replay, so
the schedulers are compared on the same workloads. The load factor scales the
number of users in the resampling (Zakay and Feitelson), which keeps sessions and
the daily cycle; it needs variants. The results table has one row per run: its
coordinates and the mean, median and 95th percentile of the wait, the mean
response time, slowdown and bounded slowdown (tau 10 s), utilization, makespan,
throughput per week and mean queue length. --csv writes it as CSV; any SQLite
client reads the database (table runs; table experiment holds the file's text).
A progress bar shows on a terminal.

--executor slurm submits the sweep to a Slurm cluster as a job array of --tasks
tasks (sbatch; --sbatch passes options such as --partition or --time); each task
runs its share of the runs with this hpcwl binary and writes its rows to a file
in DB.tasks/, which the experiment file, the database's directory and the binary
must share with the compute nodes. --status collects the finished rows into the
database and shows the array's state; --wait waits for the array, collecting as
it goes. A task that is killed or requeued keeps its finished rows; submitting
again runs only what is missing.` + exitStatusHelp,
		Example: `  hpcwl sweep experiment.yaml
  hpcwl sweep experiment.yaml --status
  hpcwl sweep experiment.yaml --workers 2 --csv results.csv
  hpcwl sweep experiment.yaml --executor slurm --tasks 16 --sbatch "--time=1:00:00"
  hpcwl sweep experiment.yaml --executor slurm --wait`,
		Args: exactArgs(1, "one experiment file"),
		RunE: action(func(c *cobra.Command, args []string) error {
			return runSweep(c.Context(), opts, args[0], stdout, stderr)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&opts.db, "db", "", "results database (default: the experiment file with extension .db)")
	f.IntVar(&opts.workers, "workers", 0, "runs at once (default: the number of CPUs)")
	f.BoolVar(&opts.status, "status", false, "print how many runs are done and exit")
	f.StringVar(&opts.csvOut, "csv", "", "also write the results table as CSV to `FILE` (Parquet when FILE ends in .parquet)")
	f.StringVar(&opts.executor, "executor", "local", "where the runs execute: local (this machine, --workers at once) or slurm (a job array)")
	f.IntVar(&opts.tasks, "tasks", 0, "slurm: the size of the job array (default: one task per 50 runs, at most 1000)")
	f.StringVar(&opts.sbatch, "sbatch", "", "slurm: extra sbatch options, e.g. \"--partition=batch --time=2:00:00\"")
	f.BoolVar(&opts.wait, "wait", false, "slurm: wait until the job array ends, collecting its results")
	f.IntVar(&opts.task, "task", -1, "run task `I` of a job array (set by the batch script)")
	f.IntVar(&opts.taskCount, "task-count", 0, "the job array's size, with --task")
	f.MarkHidden("task")
	f.MarkHidden("task-count")
	return cmd
}

func runSweep(ctx context.Context, opts sweepOptions, name string, stdout, stderr io.Writer) error {
	if opts.workers < 0 {
		return usagef("--workers must be positive, got %d", opts.workers)
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	e, err := sweep.Read(f, name)
	f.Close()
	if err != nil {
		return err
	}
	db := opts.db
	if db == "" {
		db = strings.TrimSuffix(name, filepath.Ext(name)) + ".db"
	}
	tasksDir := db + ".tasks"
	if opts.task >= 0 {
		return runSweepTask(ctx, opts, e, tasksDir, stderr)
	}
	if opts.executor != "local" && opts.executor != "slurm" {
		return usagef("unknown --executor %q; valid: local, slurm", opts.executor)
	}
	store, err := sweep.Open(db, e, version.String())
	if err != nil {
		return err
	}
	defer store.Close()
	total := e.NumRuns()
	if _, err := os.Stat(tasksDir); err == nil {
		if _, err := sweep.Collect(tasksDir, store); err != nil {
			return err
		}
	}
	if opts.status {
		n, err := store.Count()
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s: %d of %d runs done (%.1f%%), in %s\n", name, n, total, 100*float64(n)/float64(total), db)
		if err != nil {
			return err
		}
		if id, states, err := sweep.JobState(tasksDir); err != nil {
			return err
		} else if id != "" {
			fmt.Fprintf(stdout, "slurm job array %s: %s\n", id, stateText(states))
		}
		return nil
	}
	if opts.executor == "slurm" {
		return runSweepSlurm(ctx, opts, e, name, db, tasksDir, store, stdout, stderr)
	}
	var progress sweep.Progress
	if p := newBar(stderr, total, "runs"); p != nil {
		progress = p
	}
	var tf traceFlags
	load := func(log string) (*trace.Trace, error) { return tf.load(log) }
	n, err := sweep.Execute(ctx, e, store, sweep.Options{Workers: opts.workers, Progress: progress, Load: load})
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "hpcwl: sweep stopped after %d new runs; run the same command to resume\n", n)
		}
		return err
	}
	rows, err := store.Rows()
	if err != nil {
		return err
	}
	if opts.csvOut != "" {
		if err := writeSweepTable(opts.csvOut, e, rows, stdout); err != nil {
			return err
		}
	}
	return printSweep(summaryWriter(stdout, stderr, output{"--csv", opts.csvOut}), e, rows, n, db)
}

// writeSweepCSV writes the results table.
func writeSweepCSV(w io.Writer, rows []sweep.Row) error {
	cw := csv.NewWriter(w)
	cw.Write(sweep.Columns)
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, r := range rows {
		cw.Write([]string{r.Key(), r.Log, strconv.Itoa(r.Variant), g(r.Load), r.Scheduler, g(r.Speed), g(r.ProcsFactor), r.Replay,
			strconv.Itoa(r.Jobs), g(r.WaitMean), g(r.WaitMedian), g(r.WaitP95), g(r.ResponseMean), g(r.SlowdownMean), g(r.BSLDMean),
			g(r.Utilization), g(r.Makespan), g(r.Throughput), g(r.QueueMean)})
	}
	cw.Flush()
	return cw.Error()
}

// printSweep prints the mean of each metric over the variants of each
// point of the grid other than the variant.
func printSweep(w io.Writer, e *sweep.Experiment, rows []sweep.Row, now int, db string) error {
	fmt.Fprintf(w, "%s: %d runs (%d simulated now) in %s\n\n", e.Name, len(rows), now, db)
	type point struct {
		log, sched, replay   string
		load, speed, pfactor float64
	}
	type acc struct {
		n                      int
		wait, bsld, util, thru float64
	}
	sums := map[point]*acc{}
	var keys []point
	for _, r := range rows {
		p := point{r.Log, r.Scheduler, r.Replay, r.Load, r.Speed, r.ProcsFactor}
		a := sums[p]
		if a == nil {
			a = &acc{}
			sums[p] = a
			keys = append(keys, p)
		}
		a.n++
		a.wait += r.WaitMean
		a.bsld += r.BSLDMean
		a.util += r.Utilization
		a.thru += r.Throughput
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.log != b.log {
			return a.log < b.log
		}
		if a.load != b.load {
			return a.load < b.load
		}
		if a.replay != b.replay {
			return a.replay < b.replay
		}
		if a.speed != b.speed {
			return a.speed > b.speed
		}
		if a.pfactor != b.pfactor {
			return a.pfactor < b.pfactor
		}
		return a.sched < b.sched
	})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "log\tload\treplay\tspeed\tprocs\tscheduler\truns\twait mean\tbsld mean\tutilization\tjobs/week")
	for _, p := range keys {
		a := sums[p]
		n := float64(a.n)
		fmt.Fprintf(tw, "%s\t%g\t%s\t%g\t%g\t%s\t%d\t%s\t%.2f\t%.1f%%\t%.1f\n", p.log, p.load, p.replay, p.speed, p.pfactor, p.sched, a.n,
			durationText(a.wait/n), a.bsld/n, 100*a.util/n, a.thru/n)
	}
	return tw.Flush()
}

// runSweepTask runs one task of a job array: its share of the runs, into
// its own task file.
func runSweepTask(ctx context.Context, opts sweepOptions, e *sweep.Experiment, dir string, stderr io.Writer) error {
	if opts.taskCount < 1 || opts.task >= opts.taskCount {
		return usagef("--task %d needs --task-count above it", opts.task)
	}
	tf, err := sweep.OpenTaskFile(dir, opts.task)
	if err != nil {
		return err
	}
	defer tf.Close()
	var tflags traceFlags
	load := func(log string) (*trace.Trace, error) { return tflags.load(log) }
	runs := sweep.TaskRuns(e, opts.task, opts.taskCount)
	n, err := sweep.ExecuteRuns(ctx, e, runs, tf, sweep.Options{Workers: opts.workers, Load: load})
	fmt.Fprintf(stderr, "task %d of %d: %d runs of %d simulated now\n", opts.task, opts.taskCount, n, len(runs))
	return err
}

// runSweepSlurm submits the missing runs as a job array, and with --wait
// collects the results until the array ends.
func runSweepSlurm(ctx context.Context, opts sweepOptions, e *sweep.Experiment, name, db, dir string, store *sweep.Store, stdout, stderr io.Writer) error {
	total := e.NumRuns()
	done, err := store.Count()
	if err != nil {
		return err
	}
	id, states, err := sweep.JobState(dir)
	if err != nil {
		return err
	}
	switch {
	case done == total:
		fmt.Fprintf(stderr, "%s: all %d runs are done\n", name, total)
	case id != "" && len(states) > 0:
		fmt.Fprintf(stderr, "%s: job array %s is still in the queue (%s); not submitting again\n", name, id, stateText(states))
	default:
		tasks := opts.tasks
		if tasks <= 0 {
			tasks = min(1000, (total+49)/50)
		}
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		abs := func(p string) string {
			a, err := filepath.Abs(p)
			if err != nil {
				return p
			}
			return a
		}
		sl := &sweep.Slurm{Binary: abs(exe), Experiment: abs(name), DB: abs(db), Dir: abs(dir), Tasks: tasks, Args: strings.Fields(opts.sbatch)}
		id, err = sl.Submit()
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "%s: submitted job array %s (%d tasks) for %d missing runs; results in %s\n", name, id, tasks, total-done, dir)
	}
	if !opts.wait {
		return nil
	}
	bar := newBar(stderr, total, "runs")
	shown := 0
	for {
		if _, err := sweep.Collect(dir, store); err != nil {
			return err
		}
		n, err := store.Count()
		if err != nil {
			return err
		}
		for ; bar != nil && shown < n; shown++ {
			bar.Done()
		}
		_, states, err := sweep.JobState(dir)
		if err != nil {
			return err
		}
		if len(states) == 0 {
			if _, err := sweep.Collect(dir, store); err != nil {
				return err
			}
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
	n, err := store.Count()
	if err != nil {
		return err
	}
	if n < total {
		return fmt.Errorf("the job array ended with %d of %d runs done; see %s for the tasks' logs, and submit again to run the rest",
			n, total, filepath.Join(dir, "task-*.log"))
	}
	rows, err := store.Rows()
	if err != nil {
		return err
	}
	if opts.csvOut != "" {
		if err := writeSweepTable(opts.csvOut, e, rows, stdout); err != nil {
			return err
		}
	}
	return printSweep(summaryWriter(stdout, stderr, output{"--csv", opts.csvOut}), e, rows, n-done, db)
}

// stateText prints task states as "3 RUNNING, 5 PENDING", or "finished".
func stateText(states map[string]int) string {
	if len(states) == 0 {
		return "no task left in the queue"
	}
	var parts []string
	for s, n := range states {
		parts = append(parts, fmt.Sprintf("%d %s", n, s))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// sweepRow is one row of the results table as Parquet.
type sweepRow struct {
	Key             string  `parquet:"key"`
	Log             string  `parquet:"log,dict"`
	Variant         int64   `parquet:"variant"`
	Load            float64 `parquet:"load"`
	Scheduler       string  `parquet:"scheduler,dict"`
	Speed           float64 `parquet:"speed"`
	ProcsFactor     float64 `parquet:"procs_factor"`
	Replay          string  `parquet:"replay,dict"`
	Jobs            int64   `parquet:"jobs"`
	WaitMean        float64 `parquet:"wait_mean"`
	WaitMedian      float64 `parquet:"wait_median"`
	WaitP95         float64 `parquet:"wait_p95"`
	ResponseMean    float64 `parquet:"response_mean"`
	SlowdownMean    float64 `parquet:"slowdown_mean"`
	BoundedSlowdown float64 `parquet:"bounded_slowdown_mean"`
	Utilization     float64 `parquet:"utilization"`
	Makespan        float64 `parquet:"makespan"`
	Throughput      float64 `parquet:"throughput_per_week"`
	QueueMean       float64 `parquet:"queue_mean"`
}

// writeSweepTable writes the results table as CSV, or as Parquet (the
// same columns, the experiment's text and SHA-256 in the metadata) for a
// name ending in .parquet.
func writeSweepTable(name string, e *sweep.Experiment, rows []sweep.Row, stdout io.Writer) error {
	return writeTableOutput(name, "sweep results csv", stdout, func(w io.Writer) error {
		if !isParquetName(name) {
			return writeSweepCSV(w, rows)
		}
		out := make([]sweepRow, len(rows))
		for i, r := range rows {
			out[i] = sweepRow{r.Key(), r.Log, int64(r.Variant), r.Load, r.Scheduler, r.Speed, r.ProcsFactor, r.Replay, int64(r.Jobs),
				r.WaitMean, r.WaitMedian, r.WaitP95, r.ResponseMean, r.SlowdownMean, r.BSLDMean,
				r.Utilization, r.Makespan, r.Throughput, r.QueueMean}
		}
		return writeParquetTable(w, out, provenance("", "", map[string]string{
			"hpcwl.experiment": string(e.Source), "hpcwl.experiment_sha256": e.Hash}))
	})
}
