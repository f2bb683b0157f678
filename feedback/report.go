package feedback

import (
	"github.com/hpcwl/hpcwl/metrics"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// Figures are the figures of a feedback run beyond the classic metrics:
// the user model, lateness, activity, weekly cycle and batch releases.
type Figures struct {
	Users     string `json:"users"`
	Sessions  string `json:"sessions"`
	Reduction string `json:"reduction"`
	// StartRule is Madon's start rule ("max" or "last"); empty for the
	// other models.
	StartRule string   `json:"start_rule,omitempty"`
	Seed      uint64   `json:"seed"`
	Rejected  int      `json:"rejected"`
	Lateness  Lateness `json:"lateness"`
	Activity  Activity `json:"activity"`
	// CycleDistance is the total variation distance between the weekly
	// cycles of simulated and recorded submissions (0 = same shape).
	CycleDistance float64 `json:"weekly_cycle_distance"`
	// DayShare and RecordedDayShare are the fractions of submissions on
	// weekdays 08:00-18:00.
	DayShare         float64 `json:"day_share"`
	RecordedDayShare float64 `json:"recorded_day_share"`
	// Releases counts batch releases by reason (Zakay models).
	Releases map[string]int `json:"batch_releases,omitempty"`
	// WeeklyCycle and RecordedWeeklyCycle are the weekly cycles of
	// simulated and recorded submissions: 168 hourly bins from Monday
	// 00:00 local time, in jobs per week.
	WeeklyCycle         []float64 `json:"weekly_cycle"`
	RecordedWeeklyCycle []float64 `json:"recorded_weekly_cycle"`
}

// FiguresOf returns the figures of a feedback run, its submissions
// compared with the recorded ones.
func FiguresOf(run *Run) *Figures {
	src := run.Source
	t := run.Trace
	rec := make([]sim.Time, len(t.Jobs))
	for i := range t.Jobs {
		rec[i] = sim.Time(t.Jobs[i].Submit)
	}
	c := t.Clock()
	cs, cr := WeeklyCycle(c, src.Submitted()), WeeklyCycle(c, rec)
	f := &Figures{
		Users: src.Options.Model.String(), Sessions: src.Options.Sessions.String(),
		Reduction: src.Options.Reduction.String(), Seed: src.Options.Seed, Rejected: src.Rejected(),
		Lateness:      LatenessOf(t, src.Submitted()),
		Activity:      ActivityOf(src.Partition, src.Submitted(), src.Ends()),
		CycleDistance: cs.Distance(cr), DayShare: cs.DayShare(), RecordedDayShare: cr.DayShare(),
		WeeklyCycle: cs[:], RecordedWeeklyCycle: cr[:],
	}
	if src.Options.Model == Madon {
		f.StartRule = src.Options.StartRule.String()
	} else {
		i, fo, d := src.Releases()
		f.Releases = map[string]int{"initial": i, "follows": fo, "dependency": d}
	}
	return f
}

// evaluateColumn is one column of the comparison.
type Column struct {
	// Metrics is nil in the recorded column when the log records no
	// schedule (every wait unknown): its figures are unknown, not zero.
	Metrics *metrics.Summary `json:"metrics"`
	// LeftOut counts, in the recorded column, the jobs without a recorded
	// schedule (wait, runtime or processor count unknown), left out of its
	// metrics.
	LeftOut int `json:"left_out,omitempty"`
	// Rejected counts the jobs left out of the column: Incomplete those
	// without a runtime, processor count or submit time (in every column,
	// by the same rule), TooWide those wider than the column's machine
	// (none in the recorded column, whose machine ran them).
	Rejected   int      `json:"rejected"`
	Incomplete int      `json:"rejected_incomplete"`
	TooWide    int      `json:"rejected_too_wide"`
	Activity   Activity `json:"activity"`
	Feedback   *Figures `json:"feedback,omitempty"`
}

// Comparison sets a log's recorded schedule beside its rigid and feedback
// replays, each measured by the same rules.
type Comparison struct {
	Recorded Column `json:"recorded"`
	Rigid    Column `json:"rigid"`
	Feedback Column `json:"feedback"`
}

// Compare measures the recorded schedule of t and the runs rigid and fb
// (a rigid and a feedback replay of t): the classic metrics of each, the
// jobs each left out (by the rule of sim.Prepare), the users' activity, and
// the feedback figures of fb. The recorded column's metrics are nil when
// the log records no schedule. The metrics carry 95% confidence intervals
// of the means by batch means (metrics.Options.CILevel).
func Compare(t *trace.Trace, rigid, fb *Run) (*Comparison, error) {
	runs := [2]*Run{rigid, fb}
	mo := metrics.Options{Clock: t.Clock(), NoGroups: true, CILevel: 0.95}
	recRes := RecordedResult(t)
	var rec *metrics.Summary
	if len(recRes.Jobs) > 0 {
		var err error
		if rec, err = metrics.Compute(recRes, mo); err != nil {
			return nil, err
		}
	}
	rep := &Comparison{Recorded: Column{Metrics: rec, LeftOut: t.Len() - len(recRes.Jobs)}}
	for i := range t.Jobs {
		// The rule of sim.Prepare's Dropped, applied to the recorded log.
		if j := &t.Jobs[i]; j.Processors() <= 0 || j.Runtime < 0 || j.Submit < 0 {
			rep.Recorded.Incomplete++
		}
	}
	rep.Recorded.Rejected = rep.Recorded.Incomplete
	for k, col := range []*Column{&rep.Rigid, &rep.Feedback} {
		m, err := metrics.Compute(runs[k].Result, mo)
		if err != nil {
			return nil, err
		}
		w := runs[k].Workload
		col.Metrics, col.Rejected, col.Incomplete, col.TooWide = m, w.Dropped+w.DroppedOversize, w.Dropped, w.DroppedOversize
		if k == 1 {
			col.Feedback = FiguresOf(runs[k])
			col.Activity = col.Feedback.Activity
		}
	}
	p := runs[1].Source.Partition
	recSub := make([]sim.Time, len(t.Jobs))
	end := make([]sim.Time, len(t.Jobs))
	for i := range t.Jobs {
		recSub[i], end[i] = sim.Time(t.Jobs[i].Submit), sim.Time(p.End[i])
	}
	rep.Recorded.Activity = ActivityOf(p, recSub, end)
	for _, o := range runs[0].Result.Jobs {
		end[o.Index] = o.End
	}
	rep.Rigid.Activity = ActivityOf(p, recSub, end)
	return rep, nil
}

// recordedResult returns the log's own schedule as a simulation result, so
// that the recorded column is measured like the simulated ones. Jobs without
// a wait, runtime or processor count are left out.
func RecordedResult(t *trace.Trace) *sim.Result {
	res := &sim.Result{Procs: t.Procs, Jobs: make([]sim.Outcome, 0, len(t.Jobs))}
	for i := range t.Jobs {
		j := &t.Jobs[i]
		p := j.Processors()
		if j.Start() < 0 || j.Runtime < 0 || p <= 0 {
			continue
		}
		res.Jobs = append(res.Jobs, sim.Outcome{
			Job:   sim.Job{ID: j.ID, Submit: sim.Time(j.Submit), Runtime: sim.Time(j.Runtime), Estimate: sim.Time(max(j.ReqTime, 1)), Procs: int32(p), User: j.User, Index: int32(i)},
			Start: sim.Time(j.Start()), End: sim.Time(j.End()),
		})
	}
	if res.Procs <= 0 {
		res.Procs = 1
	}
	return res
}
