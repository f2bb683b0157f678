package resample

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/hpcwl/hpcwl/metrics"
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// ShakeUnit is what one perturbation of shaking moves.
type ShakeUnit uint8

// The units of shaking.
const (
	// ShakeUser shifts a whole user sub-trace in time, every job of the
	// user by the same amount.
	ShakeUser ShakeUnit = iota
	// ShakeSession shifts a whole session (Zakay's Arrival rule: a gap
	// over 60 minutes between a user's submits starts a new one).
	ShakeSession
	// ShakeRuntime changes one job's runtime, the job-level perturbation
	// of Zakay's motivating example (kept for comparison: it is not the
	// proposal, and moving runtimes does not keep a job's order with
	// respect to its user's next job).
	ShakeRuntime
)

var shakeUnitNames = [...]string{"user", "session", "runtime"}

// String returns "user", "session" or "runtime".
func (u ShakeUnit) String() string {
	if int(u) < len(shakeUnitNames) {
		return shakeUnitNames[u]
	}
	return fmt.Sprintf("ShakeUnit(%d)", u)
}

// ParseShakeUnit reads the names String returns.
func ParseShakeUnit(s string) (ShakeUnit, error) {
	for i, n := range shakeUnitNames {
		if s == n {
			return ShakeUnit(i), nil
		}
	}
	return 0, fmt.Errorf("unknown shaking unit %q; valid: user, session, runtime", s)
}

// SessionGap is the session threshold of ShakeSession, s: Zakay's
// Arrival rule with its published 60 minutes.
const SessionGap = 3600

// ShakeOptions control [Shake].
type ShakeOptions struct {
	// Unit is what a perturbation moves.
	Unit ShakeUnit
	// MaxShift bounds each move, s: a unit is shifted (a runtime changed)
	// by an integer drawn uniformly from [-MaxShift, MaxShift] without 0.
	// Valid: 1 to SessionGap/2 for ShakeSession (so that no session can
	// pass its user's next or previous one), 1 to 30 days otherwise.
	MaxShift int64
	// Count is the number of units moved; 0 moves every unit.
	Count int
	// Seed and Stream select the random stream; shaking run i uses
	// stream Stream+i.
	Seed, Stream uint64
}

// MaxShakeShift bounds ShakeOptions.MaxShift, s.
const MaxShakeShift = 30 * 86400

// ShakeUnits counts the units of t that shaking with unit u can move:
// users, sessions or jobs (jobs with a user, a submit time and a runtime).
func ShakeUnits(t *trace.Trace, u ShakeUnit) (int, error) {
	us, err := shakeUnits(t, u)
	return len(us), err
}

// shakeUnits returns the jobs of every unit.
func shakeUnits(t *trace.Trace, u ShakeUnit) ([][]int32, error) {
	var out [][]int32
	switch u {
	case ShakeUser:
		for _, tu := range t.Users() {
			if tu.ID < 0 {
				continue
			}
			var jobs []int32
			for _, i := range tu.Jobs {
				if t.Jobs[i].Submit >= 0 {
					jobs = append(jobs, int32(i))
				}
			}
			if len(jobs) > 0 {
				out = append(out, jobs)
			}
		}
	case ShakeSession:
		p, err := session.IdentifySessions(t, session.Options{Method: session.Arrival, Threshold: SessionGap})
		if err != nil {
			return nil, err
		}
		for _, s := range p.Sessions {
			if p.Users[s.User].ID < 0 {
				continue
			}
			jobs := slices.DeleteFunc(slices.Clone(p.Order[s.Lo:s.Hi]), func(i int32) bool { return t.Jobs[i].Submit < 0 })
			if len(jobs) > 0 {
				out = append(out, jobs)
			}
		}
	case ShakeRuntime:
		for i := range t.Jobs {
			if j := &t.Jobs[i]; j.User >= 0 && j.Submit >= 0 && j.Runtime >= 0 {
				out = append(out, []int32{int32(i)})
			}
		}
	default:
		return nil, fmt.Errorf("resample: unknown shaking unit %d", u)
	}
	return out, nil
}

// Shake returns a shaken copy of t: Count units (or all) chosen uniformly
// without replacement, each shifted in time (or, for ShakeRuntime, its
// runtime changed) by its own uniform draw from [-MaxShift, MaxShift]
// without 0; a shift that would put a job before time 0 is made positive,
// a runtime that would go below 0 becomes 0. The jobs are re-sorted by
// submit time (stably) and keep their numbers; every other field is kept, so a
// unit's inside is untouched. Shaking, small random perturbations of the
// input followed by re-evaluation, is the method of D. Tsafrir, K.
// Ouaknine and D. G. Feitelson (Reducing performance evaluation
// sensitivity and variability by input shaking, MASCOTS 2007); moving
// whole sessions or whole user sub-traces, which unlike moving single
// jobs cannot reorder a user's jobs, is the "shaking at a higher level"
// that Zakay proposes (N. Zakay, Improved Realism and Representativeness
// of Workloads to Improve Reliability of Performance Evaluations, PhD
// thesis, Hebrew University, chapter 3, section 6, "proposed
// applications").
// The second result lists the moves.
func Shake(t *trace.Trace, opt ShakeOptions) (*trace.Trace, []ShakeMove, error) {
	if err := opt.Validate(); err != nil {
		return nil, nil, err
	}
	units, err := shakeUnits(t, opt.Unit)
	if err != nil {
		return nil, nil, err
	}
	return shake(t, units, opt)
}

// ShakeMove is one unit's change: the index of its first job in the
// input trace, the number of its jobs and the change in seconds.
type ShakeMove struct {
	FirstJob int32 `json:"first_job"`
	Jobs     int   `json:"jobs"`
	Delta    int64 `json:"delta"`
}

// Validate checks the options' ranges.
func (o ShakeOptions) Validate() error {
	hi := int64(MaxShakeShift)
	if o.Unit == ShakeSession {
		hi = SessionGap / 2
	}
	if o.MaxShift < 1 || o.MaxShift > hi {
		return &RangeError{Name: "shift", Value: fmt.Sprintf("%d s", o.MaxShift), Min: "1 s", Max: fmt.Sprintf("%d s for %s shaking", hi, o.Unit)}
	}
	if o.Count < 0 {
		return &RangeError{Name: "count", Value: fmt.Sprint(o.Count), Min: "0 (all)", Max: "the number of units"}
	}
	return nil
}

func shake(t *trace.Trace, units [][]int32, opt ShakeOptions) (*trace.Trace, []ShakeMove, error) {
	if len(units) == 0 {
		return nil, nil, fmt.Errorf("resample: %s has no %s to shake (no job with a user and a submit time)", t.Name, opt.Unit)
	}
	if opt.Count > len(units) {
		return nil, nil, &RangeError{Name: "count", Value: fmt.Sprint(opt.Count), Min: "0 (all)", Max: fmt.Sprintf("%d (the %s units of %s)", len(units), opt.Unit, t.Name)}
	}
	rng := rand.New(rand.NewPCG(opt.Seed, opt.Stream))
	pick := make([]int, len(units))
	for i := range pick {
		pick[i] = i
	}
	if opt.Count > 0 {
		// A partial Fisher-Yates shuffle: the first Count are a uniform
		// sample without replacement.
		for i := 0; i < opt.Count; i++ {
			k := i + rng.IntN(len(pick)-i)
			pick[i], pick[k] = pick[k], pick[i]
		}
		pick = pick[:opt.Count]
		slices.Sort(pick)
	}
	jobs := slices.Clone(t.Jobs)
	moves := make([]ShakeMove, 0, len(pick))
	for _, ui := range pick {
		u := units[ui]
		d := rng.Int64N(opt.MaxShift) + 1
		if rng.IntN(2) == 0 {
			d = -d
		}
		if opt.Unit == ShakeRuntime {
			j := &jobs[u[0]]
			j.Runtime = max(0, j.Runtime+d)
		} else {
			first := jobs[u[0]].Submit
			for _, i := range u {
				first = min(first, jobs[i].Submit)
			}
			if first+d < 0 {
				d = -d
			}
			for _, i := range u {
				jobs[i].Submit += d
			}
		}
		moves = append(moves, ShakeMove{FirstJob: u[0], Jobs: len(u), Delta: d})
	}
	slices.SortStableFunc(jobs, func(a, b trace.Job) int { return compare(a.Submit, b.Submit) })
	h := t.Header.Clone()
	h.AddNote(fmt.Sprintf("shaken: %d %s units moved by up to %d s each (seed %d stream %d)", len(moves), opt.Unit, opt.MaxShift, opt.Seed, opt.Stream))
	out := trace.New(h, jobs, trace.Options{Procs: t.Procs})
	out.Name = t.Name
	return out, moves, nil
}

// ShakeConfig sets up [ShakeRuns].
type ShakeConfig struct {
	// Shake are the shaking options; run i uses Stream + i.
	Shake ShakeOptions
	// Runs is the number of shaken variants, > 0.
	Runs int
	// Scheduler builds a fresh scheduler per simulation (required).
	Scheduler func() sim.Scheduler
	// Procs is the machine size; 0 means the log's.
	Procs int
	// Tau is the bounded-slowdown threshold, s; 0 means 10.
	Tau sim.Time
}

// ShakeResult holds the metrics of the original log and of every shaken
// variant, all measured alike over all jobs (metrics.Compute).
type ShakeResult struct {
	Original ShakeMetrics   `json:"original"`
	Variants []ShakeMetrics `json:"variants"`
	// Units is the number of units the log has; Moved the number each
	// variant moved.
	Units int `json:"units"`
	Moved int `json:"moved"`
}

// ShakeMetrics are one simulation's means.
type ShakeMetrics struct {
	Wait            float64 `json:"wait"`
	Slowdown        float64 `json:"slowdown"`
	BoundedSlowdown float64 `json:"bounded_slowdown"`
	Utilization     float64 `json:"utilization"`
	Jobs            int     `json:"jobs"`
}

// ShakeRuns simulates t and cfg.Runs shaken variants of it with the same
// scheduler, one after the other, and returns their metrics: the
// distribution of a metric under small perturbations that Zakay proposes
// to report instead of one value (thesis, chapter 3, section 6). Jobs
// wider than the machine are dropped, as replicate does.
func ShakeRuns(ctx context.Context, t *trace.Trace, cfg ShakeConfig) (*ShakeResult, error) {
	if cfg.Runs <= 0 {
		return nil, &RangeError{Name: "runs", Value: fmt.Sprint(cfg.Runs), Min: "1", Max: "any"}
	}
	if err := cfg.Shake.Validate(); err != nil {
		return nil, err
	}
	if cfg.Scheduler == nil {
		return nil, errors.New("resample: shaking runs need a scheduler")
	}
	units, err := shakeUnits(t, cfg.Shake.Unit)
	if err != nil {
		return nil, err
	}
	res := &ShakeResult{Units: len(units), Moved: cfg.Shake.Count}
	if res.Moved == 0 {
		res.Moved = len(units)
	}
	run := func(tr *trace.Trace) (ShakeMetrics, error) {
		r, _, err := sim.Simulate(ctx, tr, cfg.Scheduler(), sim.Options{PrepareOptions: sim.PrepareOptions{
			Machine: sim.Machine{Procs: cfg.Procs}, Oversize: sim.OversizeDrop}})
		if err != nil {
			return ShakeMetrics{}, err
		}
		s, err := metrics.Compute(r, metrics.Options{Tau: cfg.Tau, NoGroups: true})
		if err != nil {
			return ShakeMetrics{}, err
		}
		return ShakeMetrics{Wait: s.Wait.Mean, Slowdown: s.Slowdown.Mean, BoundedSlowdown: s.BoundedSlowdown.Mean,
			Utilization: s.Utilization, Jobs: len(r.Jobs)}, nil
	}
	if res.Original, err = run(t); err != nil {
		return nil, fmt.Errorf("original log: %w", err)
	}
	for i := 0; i < cfg.Runs; i++ {
		o := cfg.Shake
		o.Stream += uint64(i)
		st, _, err := shake(t, units, o)
		if err != nil {
			return nil, err
		}
		m, err := run(st)
		if err != nil {
			return nil, fmt.Errorf("shaken variant %d: %w", i, err)
		}
		res.Variants = append(res.Variants, m)
	}
	return res, nil
}
