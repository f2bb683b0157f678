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

	"github.com/spf13/cobra"

	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/sweep"
	"github.com/hpcwl/hpcwl/trace"
)

func init() { register(newSweepCommand) }

type sweepOptions struct {
	db      string
	workers int
	status  bool
	csvOut  string
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
A progress bar shows on a terminal.` + exitStatusHelp,
		Example: `  hpcwl sweep experiment.yaml
  hpcwl sweep experiment.yaml --status
  hpcwl sweep experiment.yaml --workers 2 --csv results.csv`,
		Args: exactArgs(1, "one experiment file"),
		RunE: action(func(c *cobra.Command, args []string) error {
			return runSweep(c.Context(), opts, args[0], stdout, stderr)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&opts.db, "db", "", "results database (default: the experiment file with extension .db)")
	f.IntVar(&opts.workers, "workers", 0, "runs at once (default: the number of CPUs)")
	f.BoolVar(&opts.status, "status", false, "print how many runs are done and exit")
	f.StringVar(&opts.csvOut, "csv", "", "also write the results table as CSV to `FILE`")
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
	store, err := sweep.Open(db, e, version.String())
	if err != nil {
		return err
	}
	defer store.Close()
	total := e.NumRuns()
	if opts.status {
		n, err := store.Count()
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s: %d of %d runs done (%.1f%%), in %s\n", name, n, total, 100*float64(n)/float64(total), db)
		return err
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
		if err := writeTableOutput(opts.csvOut, "sweep results csv", stdout, func(w io.Writer) error { return writeSweepCSV(w, rows) }); err != nil {
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
