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

// NewSource builds the feedback source of trace t, whose jobs w holds as
// [sim.Prepare] made them; jobs of t missing from w (dropped there) are
// rejected when they arrive. It fails with [ErrNoUsers] when t has no user
// IDs.
func NewSource(t *trace.Trace, w *sim.Workload, opt Options) (*Source, error) {
	if int(opt.Model) >= len(modelNames) {
		return nil, fmt.Errorf("feedback: unknown model %d", opt.Model)
	}
	if !hasUsers(t) {
		return nil, ErrNoUsers
	}
	so := opt.SessionOptions()
	opt.Sessions, opt.SessionsSet = so, true
	identify := session.Identify
	if opt.Model == Madon {
		identify = session.IdentifySessions // Madon's replay has no use for batches
	}
	p, err := identify(t, so)
	if err != nil {
		return nil, err
	}
	c := newCore(p, w)
	s := &Source{c: c, Options: opt, Partition: p}
	if opt.Model == Madon {
		s.Graph = session.SessionGraph(p, opt.Reduction)
		s.JobSource = newMadon(c, s.Graph, opt.StartRule)
		return s, nil
	}
	s.Graph = session.BatchGraph(p, opt.Reduction)
	z := newZakay(c, s.Graph, nil)
	switch opt.Model {
	case Adjusted:
		z.model = adjusted{s.Graph}
	case Distribution:
		z.model = newDistribution(z, newBatchDelays(s.Graph), t.Clock(), opt.Seed)
	case Fluid:
		z.model = newFluid(z, newBatchDelays(s.Graph), t.Clock(), opt.Fluid, opt.Seed)
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
// with a [Source] in place of the rigid replay.
func Simulate(ctx context.Context, t *trace.Trace, s sim.Scheduler, so sim.Options, fo Options) (*Run, error) {
	w, err := sim.Prepare(t, so.PrepareOptions)
	if err != nil {
		return nil, err
	}
	src, err := NewSource(t, w, fo)
	if err != nil {
		return nil, err
	}
	res, err := sim.Run(ctx, src, s, sim.Config{
		Procs: w.Procs, Predictor: so.Predictor, Kill: so.Kill,
		Progress: so.Progress, CheckEvery: so.CheckEvery, SizeHint: len(w.Jobs),
	})
	if err != nil {
		return nil, err
	}
	if n := src.Unsubmitted(); n > 0 {
		return nil, fmt.Errorf("feedback: %d jobs were never submitted (a dependency never ended)", n)
	}
	return &Run{Result: res, Workload: w, Trace: t, Source: src}, nil
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
