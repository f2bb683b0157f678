package platform

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// Options control [Simulate].
type Options struct {
	// Options apply to every partition. Machine.Procs is replaced by the
	// partition's size (Machine.ProcsFactor still scales it) and
	// Machine.Speed is multiplied by the partition's speed. Predictor is
	// ignored: NewPredictor makes one per partition.
	sim.Options
	// NewScheduler makes a fresh scheduler for each partition (required).
	// A scheduler that is an io.Closer is closed after its partition's run.
	NewScheduler func() (sim.Scheduler, error)
	// NewPredictor makes a fresh predictor for each partition from the
	// partition's jobs; nil means the requested times.
	NewPredictor func(part *trace.Trace) (sim.Predictor, error)
}

// Run is one partition's share of a simulation.
type Run struct {
	Partition
	// Jobs counts the log's jobs submitted to the partition.
	Jobs int `json:"jobs"`
	// Simulated counts those simulated (Prepare may drop some).
	Simulated int `json:"simulated"`
}

// Placement is the outcome of [Simulate] beyond the merged result.
type Placement struct {
	// Runs lists the partitions in ID order.
	Runs []Run `json:"runs"`
	// Unplaced counts the jobs whose partition (field 16) the platform does
	// not have, which were left out.
	Unplaced int `json:"unplaced"`
}

// Simulate replays trace t rigidly on platform p: each partition is a
// machine of its own that runs the jobs submitted to it (SWF field 16)
// under its own scheduler. The results are merged into one: jobs in
// arrival order (submit time, then job number, then position in the log),
// Outcome.Index the job's index in t.Jobs, Procs the platform's total, and
// the workload counts summed. Jobs of partitions the platform lacks are
// left out and counted in the placement.
func Simulate(ctx context.Context, t *trace.Trace, p *Platform, o Options) (*sim.Result, *sim.Workload, *Placement, error) {
	if o.NewScheduler == nil {
		panic("platform: nil NewScheduler")
	}
	byPart := map[int][]int{} // partition ID -> indices in t.Jobs
	pl := &Placement{}
	for i := range t.Jobs {
		id := int(t.Jobs[i].Partition)
		if _, ok := p.Partition(id); !ok {
			pl.Unplaced++
			continue
		}
		byPart[id] = append(byPart[id], i)
	}
	type piece struct {
		out  sim.Outcome
		part int // position in p.Partitions
		ref  sim.Ref
	}
	var pieces []piece
	var preds [][]sim.PredictionChange
	merged := &sim.Result{Kill: o.Kill}
	mw := &sim.Workload{Speed: o.Speed}
	if mw.Speed == 0 {
		mw.Speed = 1
	}
	for k, q := range p.Partitions {
		idx := byPart[q.ID]
		jobs := make([]trace.Job, len(idx))
		for n, i := range idx {
			jobs[n] = t.Jobs[i]
		}
		sub := trace.New(t.Header, jobs, trace.Options{Procs: q.Procs})
		sub.Name = fmt.Sprintf("%s (partition %d)", t.Name, q.ID)
		so := o.Options
		so.Procs = q.Procs
		speed := so.Speed
		if speed == 0 {
			speed = 1
		}
		so.Speed = speed * q.Speed
		so.Predictor = nil
		if o.NewPredictor != nil {
			pr, err := o.NewPredictor(sub)
			if err != nil {
				return nil, nil, nil, err
			}
			so.Predictor = pr
		}
		s, err := o.NewScheduler()
		if err != nil {
			return nil, nil, nil, err
		}
		res, w, err := sim.Simulate(ctx, sub, s, so)
		if c, ok := s.(io.Closer); ok {
			c.Close()
		}
		if err != nil {
			return nil, nil, nil, fmt.Errorf("partition %d: %w", q.ID, err)
		}
		for r, out := range res.Jobs {
			out.Index = int32(idx[out.Index])
			pieces = append(pieces, piece{out, k, sim.Ref(r)})
		}
		preds = append(preds, res.Predictions)
		merged.Procs += w.Procs
		merged.Events += res.Events
		merged.Passes += res.Passes
		for _, j := range w.Jobs {
			j.Index = int32(idx[j.Index])
			mw.Jobs = append(mw.Jobs, j)
		}
		mw.Procs += w.Procs
		mw.Dropped += w.Dropped
		mw.DroppedOversize += w.DroppedOversize
		mw.Clamped += w.Clamped
		mw.EstimateFilled += w.EstimateFilled
		mw.Overruns += w.Overruns
		pl.Runs = append(pl.Runs, Run{Partition: q, Jobs: len(idx), Simulated: len(res.Jobs)})
	}
	slices.SortStableFunc(pieces, func(a, b piece) int {
		return cmp.Or(cmp.Compare(a.out.Submit, b.out.Submit), cmp.Compare(a.out.ID, b.out.ID), cmp.Compare(a.out.Index, b.out.Index))
	})
	slices.SortStableFunc(mw.Jobs, func(a, b sim.Job) int { return cmp.Compare(a.Index, b.Index) })
	newRef := make([][]sim.Ref, len(p.Partitions))
	for k := range newRef {
		newRef[k] = make([]sim.Ref, pl.Runs[k].Simulated)
	}
	merged.Jobs = make([]sim.Outcome, len(pieces))
	for n, pc := range pieces {
		merged.Jobs[n] = pc.out
		newRef[pc.part][pc.ref] = sim.Ref(n)
	}
	if o.RecordPredictions {
		for k, ps := range preds {
			for _, c := range ps {
				c.Job = newRef[k][c.Job]
				merged.Predictions = append(merged.Predictions, c)
			}
		}
		slices.SortStableFunc(merged.Predictions, func(a, b sim.PredictionChange) int { return cmp.Compare(a.At, b.At) })
	}
	return merged, mw, pl, nil
}
