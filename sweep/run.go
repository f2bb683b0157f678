package sweep

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/hpcwl/hpcwl/feedback"
	"github.com/hpcwl/hpcwl/metrics"
	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// Row is the result of one run: its coordinates and its metrics.
type Row struct {
	Run
	// Jobs counts the jobs simulated.
	Jobs int
	// The means (and median, 95th percentile) over the simulated jobs, in
	// seconds; bounded slowdown with tau 10 s.
	WaitMean, WaitMedian, WaitP95 float64
	ResponseMean                  float64
	SlowdownMean, BSLDMean        float64
	// Utilization in [0, 1], makespan in seconds, throughput in jobs per
	// week, the mean number of waiting jobs.
	Utilization, Makespan, Throughput, QueueMean float64
}

// Progress is told of every finished run.
type Progress interface {
	Done()
}

// Options control [Execute].
type Options struct {
	// Workers is the number of runs simulated at once; 0 means the number
	// of CPUs.
	Workers int
	// Load opens a log by name; nil means trace.Load.
	Load func(name string) (*trace.Trace, error)
	// Progress receives a Done for each run finished (including those
	// skipped because the store has them); nil means none.
	Progress Progress
}

// Sink keeps rows: a [Store], or a task's [TaskFile].
type Sink interface {
	// Keys returns the keys of the runs kept.
	Keys() (map[string]bool, error)
	// Put keeps one row durably before it returns.
	Put(Row) error
}

// Execute runs every run of e that store does not hold yet and saves each
// row as soon as it is done. It returns the number of runs simulated now.
// When ctx is cancelled it stops starting runs, waits for those under way
// to be saved, and returns ctx's error: resuming later runs the rest.
func Execute(ctx context.Context, e *Experiment, store Sink, o Options) (int, error) {
	return ExecuteRuns(ctx, e, e.Runs(), store, o)
}

// ExecuteRuns is [Execute] for some of e's runs (a task's share).
func ExecuteRuns(ctx context.Context, e *Experiment, runs []Run, store Sink, o Options) (int, error) {
	have, err := store.Keys()
	if err != nil {
		return 0, err
	}
	load := o.Load
	if load == nil {
		load = func(name string) (*trace.Trace, error) { return trace.Load(name, trace.Options{}) }
	}
	var todo []Run
	for _, r := range runs {
		if have[r.Key()] {
			if o.Progress != nil {
				o.Progress.Done()
			}
			continue
		}
		todo = append(todo, r)
	}
	if len(todo) == 0 {
		return 0, nil
	}
	// Each log is read once; pools for resampling are built once per log.
	logs := map[string]*workload{}
	for _, r := range todo {
		if logs[r.Log] != nil {
			continue
		}
		t, err := load(r.Log)
		if err != nil {
			return 0, err
		}
		w := &workload{trace: t}
		logs[r.Log] = w
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan Run)
	var (
		mu    sync.Mutex
		first error
		done  int
		wg    sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
		cancel()
	}
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range jobs {
				row, err := simulate(ctx, e, logs[r.Log], r)
				if err != nil {
					if !errors.Is(err, context.Canceled) {
						fail(fmt.Errorf("run %s: %w", r.Key(), err))
					}
					continue
				}
				if err := store.Put(row); err != nil {
					fail(err)
					continue
				}
				mu.Lock()
				done++
				mu.Unlock()
				if o.Progress != nil {
					o.Progress.Done()
				}
			}
		}()
	}
feed:
	for _, r := range todo {
		select {
		case jobs <- r:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if first != nil {
		return done, first
	}
	if err := ctx.Err(); err != nil {
		return done, err
	}
	return done, nil
}

// workload is a log with its resampling pools, built on first use.
type workload struct {
	trace *trace.Trace
	once  sync.Once
	pools *resample.Pools
	err   error
}

func (w *workload) poolsOf() (*resample.Pools, error) {
	w.once.Do(func() { w.pools, w.err = resample.Classify(w.trace, resample.ClassifyOptions{}) })
	return w.pools, w.err
}

// simulate makes the run's workload and simulates it.
func simulate(ctx context.Context, e *Experiment, w *workload, r Run) (Row, error) {
	t := w.trace
	if r.Variant > 0 {
		p, err := w.poolsOf()
		if err != nil {
			return Row{}, err
		}
		// One random stream per variant: variant v is the same workload for
		// every scheduler, speed and replay.
		g, err := p.Generate(resample.Options{LoadFactor: r.Load, Seed: e.Seed, Stream: uint64(r.Variant)})
		if err != nil {
			return Row{}, err
		}
		t = g.Trace("")
	}
	s, err := sched.New(r.Scheduler)
	if err != nil {
		return Row{}, err
	}
	so := sim.Options{PrepareOptions: sim.PrepareOptions{
		Machine:  sim.Machine{ProcsFactor: r.ProcsFactor, Speed: r.Speed},
		Oversize: sim.OversizeDrop,
	}, Kill: e.Kill}
	var res *sim.Result
	if r.Replay == "rigid" {
		res, _, err = sim.Simulate(ctx, t, s, so)
	} else {
		m, perr := feedback.ParseModel(r.Replay)
		if perr != nil {
			return Row{}, perr
		}
		var run *feedback.Run
		run, err = feedback.Simulate(ctx, t, s, so, feedback.Options{Model: m, Seed: e.Seed})
		if run != nil {
			res = run.Result
		}
	}
	if err != nil {
		return Row{}, err
	}
	if len(res.Jobs) == 0 {
		return Row{}, errors.New("no job to simulate")
	}
	m, err := metrics.Compute(res, metrics.Options{Clock: t.Clock(), NoGroups: true})
	if err != nil {
		return Row{}, err
	}
	return Row{Run: r, Jobs: m.Jobs,
		WaitMean: m.Wait.Mean, WaitMedian: m.Wait.Median, WaitP95: m.Wait.P95,
		ResponseMean: m.Response.Mean, SlowdownMean: m.Slowdown.Mean, BSLDMean: m.BoundedSlowdown.Mean,
		Utilization: m.Utilization, Makespan: float64(m.Makespan), Throughput: m.Throughput, QueueMean: m.QueueMean,
	}, nil
}
