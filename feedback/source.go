package feedback

import (
	"context"
	"fmt"

	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// Source is a feedback job source: it implements [sim.JobSource] and
// records when each job of the log was submitted.
type Source struct {
	sim.JobSource
	c *core
	z *zakaySource
	// Options are the options used, with the session partitioning filled in.
	Options Options
	// Partition and Graph are the sessions and the dependency graph (of
	// sessions for Madon, of batches for the Zakay models). For Madon's
	// replay the partition has no batches ([session.IdentifySessions]).
	Partition *session.Partition
	Graph     *session.Graph
}

// Plan is the part of a feedback replay that depends only on the log and
// the session options: the sessions (with batches for the Zakay models) and
// the dependency graph. It is most of the set-up of a run; build it once
// with [NewPlan] to run the same log under many schedulers, machines or
// seeds. A Plan is read-only once built: any number of runs, concurrent
// ones included, may share it.
type Plan struct {
	// Trace is the log.
	Trace *trace.Trace
	// Options are the options of the runs, with the session partitioning
	// filled in. A copy of the Plan with other Seed, Fluid or StartRule
	// values runs with those; Model, Sessions and Reduction must stay.
	Options Options
	// Partition and Graph are the sessions and the dependency graph (of
	// sessions for Madon, of batches for the Zakay models). For Madon's
	// replay the partition has no batches ([session.IdentifySessions]).
	Partition *session.Partition
	Graph     *session.Graph
}

// NewPlan identifies the sessions of t and builds their dependency graph
// per opt. It fails with [ErrNoUsers] when t has no user IDs.
func NewPlan(t *trace.Trace, opt Options) (*Plan, error) {
	if int(opt.Model) >= len(modelNames) {
		return nil, fmt.Errorf("feedback: unknown model %d", opt.Model)
	}
	if !hasUsers(t) {
		return nil, ErrNoUsers
	}
	so := opt.SessionOptions()
	opt.Sessions, opt.SessionsSet = so, true
	if opt.Model == Madon {
		// Madon's replay has no use for batches.
		p, err := session.IdentifySessions(t, so)
		if err != nil {
			return nil, err
		}
		return &Plan{Trace: t, Options: opt, Partition: p, Graph: session.SessionGraph(p, opt.Reduction)}, nil
	}
	p, err := session.Identify(t, so)
	if err != nil {
		return nil, err
	}
	return &Plan{Trace: t, Options: opt, Partition: p, Graph: session.BatchGraph(p, opt.Reduction)}, nil
}

// NewSource builds the feedback source of trace t, whose jobs w holds as
// [sim.Prepare] made them; jobs of t missing from w (dropped there) are
// rejected when they arrive. It fails with [ErrNoUsers] when t has no user
// IDs. It is [NewPlan] followed by [Plan.NewSource].
func NewSource(t *trace.Trace, w *sim.Workload, opt Options) (*Source, error) {
	pl, err := NewPlan(t, opt)
	if err != nil {
		return nil, err
	}
	return pl.NewSource(w)
}

// NewSource builds a feedback source of the plan's log, whose jobs w holds
// as [sim.Prepare] made them from it.
func (pl *Plan) NewSource(w *sim.Workload) (*Source, error) {
	opt, p, g := pl.Options, pl.Partition, pl.Graph
	if (opt.Model == Madon) == g.Batches || opt.Sessions != p.Options || opt.Reduction != g.Reduction {
		return nil, fmt.Errorf("feedback: the plan was built for other sessions, edge reduction or model")
	}
	c := newCore(p, w)
	s := &Source{c: c, Options: opt, Partition: p, Graph: g}
	if opt.Model == Madon {
		s.JobSource = newMadon(c, g, opt.StartRule)
		return s, nil
	}
	z := newZakay(c, g, nil)
	switch opt.Model {
	case Adjusted:
		z.model = adjusted{}
	case Distribution:
		z.model = newDistribution(z, newBatchDelays(g), pl.Trace.Clock(), opt.Seed)
	case Fluid:
		z.model = newFluid(z, newBatchDelays(g), pl.Trace.Clock(), opt.Fluid, opt.Seed)
	}
	z.start()
	s.z, s.JobSource = z, z
	return s, nil
}

// Submitted returns each job's simulated submit time, indexed like the
// trace's jobs (-1 for a job never submitted). The slice is the source's.
func (s *Source) Submitted() []sim.Time { return s.c.submitted }

// Ends returns each job's simulated end, indexed like the trace's jobs;
// rejected jobs end when they arrive. The slice is the source's.
func (s *Source) Ends() []sim.Time { return s.c.ends }

// Rejected returns the number of jobs rejected on arrival.
func (s *Source) Rejected() int { return s.c.rejected }

// Unsubmitted returns the number of jobs never submitted (0 after a
// complete run).
func (s *Source) Unsubmitted() int { return s.c.left }

// Releases returns how many batches were released initially, by the follows
// relation and by a dependency (zero for Madon's replay).
func (s *Source) Releases() (initial, follows, dependency int) {
	if s.z == nil {
		return 0, 0, 0
	}
	return s.z.releases[Initial], s.z.releases[Follows], s.z.releases[Dependency]
}

// Run is the outcome of a simulation, rigid or with feedback.
type Run struct {
	// Result holds every simulated job; Outcome.Index is its index in
	// Trace.Jobs.
	Result *sim.Result
	// Workload holds the prepared jobs and the counts Prepare reports.
	Workload *sim.Workload
	// Trace is the simulated log.
	Trace *trace.Trace
	// Source is the feedback source, nil for a rigid replay.
	Source *Source
}

// Simulate runs trace t on the machine of so under scheduler s with user
// feedback per fo. Jobs that [sim.Prepare] drops (so.Oversize set to
// drop, unknown runtimes) are rejected on arrival. It is [sim.Simulate]
// with a [Source] in place of the rigid replay, and [NewPlan] followed by
// [Plan.Simulate].
func Simulate(ctx context.Context, t *trace.Trace, s sim.Scheduler, so sim.Options, fo Options) (*Run, error) {
	pl, err := NewPlan(t, fo)
	if err != nil {
		return nil, err
	}
	return pl.Simulate(ctx, s, so)
}

// Simulate runs the plan's log on the machine of so under scheduler s, as
// the package-level [Simulate] does.
func (pl *Plan) Simulate(ctx context.Context, s sim.Scheduler, so sim.Options) (*Run, error) {
	w, err := sim.Prepare(pl.Trace, so.PrepareOptions)
	if err != nil {
		return nil, err
	}
	src, err := pl.NewSource(w)
	if err != nil {
		return nil, err
	}
	res, err := sim.Run(ctx, src, s, sim.Config{
		Procs: w.Procs, Predictor: so.Predictor, Kill: so.Kill,
		Progress: so.Progress, CheckEvery: so.CheckEvery, SizeHint: len(w.Jobs),
		RecordPredictions: so.RecordPredictions, RecordRevisions: so.RecordRevisions, PassEveryEvent: so.PassEveryEvent,
	})
	if err != nil {
		return nil, err
	}
	if n := src.Unsubmitted(); n > 0 {
		return nil, fmt.Errorf("feedback: %d jobs were never submitted (a dependency never ended)", n)
	}
	return &Run{Result: res, Workload: w, Trace: pl.Trace, Source: src}, nil
}

// Rigid runs the rigid replay of t (recorded arrivals) and returns it in
// the same form as [Simulate].
func Rigid(ctx context.Context, t *trace.Trace, s sim.Scheduler, so sim.Options) (*Run, error) {
	res, w, err := sim.Simulate(ctx, t, s, so)
	if err != nil {
		return nil, err
	}
	return &Run{Result: res, Workload: w, Trace: t}, nil
}

// hasUsers reports whether any job of t has a user ID.
func hasUsers(t *trace.Trace) bool {
	for i := range t.Jobs {
		if t.Jobs[i].User >= 0 {
			return true
		}
	}
	return false
}
