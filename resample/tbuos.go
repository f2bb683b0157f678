package resample

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"

	"github.com/hpcwl/hpcwl/feedback"
	"github.com/hpcwl/hpcwl/internal/heap"
	"github.com/hpcwl/hpcwl/internal/version"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// TBUOSOptions configure [Pools.TBUOS].
type TBUOSOptions struct {
	// Options are the generator's options (duration, load factor, rare
	// behaviours, seed and stream).
	Options
	// Feedback configures each copy's feedback source; the zero value
	// means Zakay's Fluid model, variant V2, with Arrival sessions at 60
	// min (our choice where the thesis leaves it open). Its Seed is replaced by one derived from
	// Options.Seed, Options.Stream and the copy.
	Feedback *feedback.Options
	// Procs is the machine size; 0 means the log's.
	Procs int
	// Predictor and Kill are passed to the simulator.
	Predictor sim.Predictor
	Kill      bool
	// Regen is the regeneration rule for long-term copies; the zero value
	// is the thesis's (see [Regeneration]).
	Regen Regeneration
	// Progress receives the simulator's reports; nil means none.
	Progress sim.Progress
}

// Regeneration is when a TBUOS long-term copy whose jobs have all ended
// comes back (our choice where the thesis leaves it open).
type Regeneration int

const (
	// RegenGap, the default, waits out the user's original off-activity
	// gap, (first - T0) + (Tend - last), after the predecessor's last job
	// ended, then aligns the user's first job to the next whole week. This
	// is the thesis's rule: TBUOS keeps every element of resampling "as
	// it was", and resampling regenerates a user after "the sum of the
	// intervals between the user's period of activity and the full
	// logging period"; feedback only moves the point from which the gap
	// counts (the last job's end instead of its traced submission).
	RegenGap Regeneration = iota
	// RegenImmediate starts the new copy at the first week-aligned time of the
	// user's first job after the predecessor's last job ended (our reading of
	// "regenerated after the termination of their last job", N. Zakay,
	// Improved Realism and Representativeness of Workloads to Improve
	// Reliability of Performance Evaluations, PhD thesis, Hebrew University,
	// chapter 5). A user active for only part of the log is then active all
	// the time, which raises the offered load.
	RegenImmediate
)

// String returns "gap" or "immediate".
func (r Regeneration) String() string {
	if r == RegenImmediate {
		return "immediate"
	}
	return "gap"
}

// ParseRegeneration parses "gap" or "immediate".
func ParseRegeneration(s string) (Regeneration, error) {
	switch s {
	case "gap", "":
		return RegenGap, nil
	case "immediate":
		return RegenImmediate, nil
	}
	return 0, fmt.Errorf("regeneration %q: want gap or immediate", s)
}

// TBUOSRun is the outcome of a TBUOS simulation.
type TBUOSRun struct {
	// Result holds every simulated job. A job's User is its copy's
	// simulated user (long-term slot s is user s+1, other copies follow);
	// [TBUOSRun.Copy] gives its copy.
	Result *sim.Result
	// Params are the generator's parameters.
	Params Params
	// Copies are the copies that were started, in start order; a job's
	// copy is Copies[ID >> 24].
	Copies []Copy
	// Regenerated counts the long-term copies started when a predecessor
	// ended.
	Regenerated int
	// Rejected counts jobs the simulator could not run (wider than the
	// machine), ended on arrival.
	Rejected int
}

// Copy returns the copy of simulated job r.
func (r *TBUOSRun) Copy(ref int) *Copy { return &r.Copies[r.Result.Jobs[ref].ID>>idShift] }

// idShift places the copy number in the high bits of a simulated job ID.
const idShift = 24

// TBUOS runs the Trace-Based User-Oriented Simulation (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 5):
// copies of the users are drawn as by [Pools.Generate], but each copy's
// batches are released by feedback through a user model (Fluid by
// default) instead of at fixed times. Temporary copies arrive at their
// weeks and leave after their last job (the open part); long-term copies
// are all present from the start and each is regenerated, aligned to the
// week, when its last job ends, by default after its original off-activity
// gap (the closed part; [TBUOSOptions.Regen]). No job is submitted at or
// after the duration; jobs submitted before it run to completion.
func (p *Pools) TBUOS(ctx context.Context, s sim.Scheduler, opt TBUOSOptions) (*TBUOSRun, error) {
	pr, err := p.params(opt.Options)
	if err != nil {
		return nil, err
	}
	if pr.CyclePhase {
		return nil, errors.New("resample: CyclePhase applies to open generation only: TBUOS regenerates a long-term user when its last job ends, so a copy must start inside its activity")
	}
	procs := opt.Procs
	if procs <= 0 {
		if procs, err = p.Trace.MachineSize(); err != nil {
			return nil, err
		}
	}
	fo := feedback.Options{Model: feedback.Fluid, Fluid: feedback.FluidV2}
	if opt.Feedback != nil {
		fo = *opt.Feedback
	}
	g := newGen(p, pr, opt.Options)
	g.once = true
	g.longTerm()
	g.initialTemporary()
	g.weekly()
	m := &mux{p: p, pr: pr, opt: opt, fo: fo, procs: procs, nextUser: int32(pr.LongTerm) + 1}
	for _, c := range g.insts {
		m.plan(c)
	}
	res, err := sim.Run(ctx, m, s, sim.Config{Procs: procs, Predictor: opt.Predictor, Kill: opt.Kill, Progress: opt.Progress})
	if err != nil {
		return nil, err
	}
	if m.err != nil {
		return nil, m.err
	}
	run := &TBUOSRun{Result: res, Params: pr, Regenerated: m.regen}
	for _, in := range m.insts {
		run.Copies = append(run.Copies, in.c)
		if in.src != nil {
			run.Rejected += in.src.Rejected()
		}
	}
	return run, nil
}

// instance is one copy in a TBUOS run.
type instance struct {
	c      Copy
	user   int32 // simulated user ID
	start  sim.Time
	key    sim.Time // current heap key; -1 when finished
	src    *feedback.Source
	popped int
	ended  int
	done   bool
}

// mux is the TBUOS job source: it starts copies at their times and hands
// the engine the jobs their feedback sources submit.
type mux struct {
	p        *Pools
	pr       Params
	opt      TBUOSOptions
	fo       feedback.Options
	procs    int
	insts    []*instance
	heap     heap.Heap[struct{}] // (time, instance); stale entries are dropped by top
	nextUser int32
	regen    int
	err      error
}

// plan adds a copy to start at the time of its first job.
func (m *mux) plan(c Copy) {
	sh := int64(c.Shift) * Week
	var start int64 = -1
	for k := c.From; k < len(c.u.Jobs); k++ {
		if t := m.p.cal.fromLocal(m.p.local[c.u.Jobs[k]] + sh); t >= 0 {
			start = t
			break
		}
	}
	if start < 0 || start >= m.pr.Duration {
		return
	}
	user := c.Slot + 1
	if c.Slot < 0 {
		user = m.nextUser
		m.nextUser++
	}
	in := &instance{c: c, user: user, start: sim.Time(start), key: sim.Time(start)}
	m.insts = append(m.insts, in)
	m.heap.Push(heap.Key{T: int64(in.key), A: int64(len(m.insts) - 1)}, struct{}{})
}

// build makes the feedback source of instance i: the copy's jobs from time
// 0 on, shifted, as a one-user trace.
func (m *mux) build(i int32) error {
	in := m.insts[i]
	c := &in.c
	src := m.p.Trace
	sh := int64(c.Shift) * Week
	jobs := make([]trace.Job, 0, len(c.u.Jobs)-c.From)
	prev := int64(0)
	for k := c.From; k < len(c.u.Jobs); k++ {
		t := m.p.cal.fromLocal(m.p.local[c.u.Jobs[k]] + sh)
		if t < 0 {
			continue
		}
		t = max(t, prev)
		prev = t
		j := src.Jobs[c.u.Jobs[k]]
		j.ID = int64(i)<<idShift | int64(k)
		j.Submit = t
		j.User = in.user
		j.Preceding = -1
		jobs = append(jobs, j)
	}
	sub := trace.New(src.Header, jobs, trace.Options{Procs: m.procs})
	w, err := sim.Prepare(sub, sim.PrepareOptions{Machine: sim.Machine{Procs: m.procs}, Oversize: sim.OversizeDrop})
	if err != nil {
		return err
	}
	fo := m.fo
	fo.Seed = mix(m.opt.Seed, m.opt.Stream, uint64(i))
	fs, err := feedback.NewSource(sub, w, fo)
	if err != nil {
		return fmt.Errorf("resample: copy of user %d: %w", c.User, err)
	}
	in.src = fs
	return nil
}

// mix derives a copy's seed from the run's seed, stream and copy number
// (the SplitMix64 finalizer over their combination).
func mix(seed, stream, i uint64) uint64 {
	z := seed ^ stream*0x9e3779b97f4a7c15 ^ (i+1)*0xbf58476d1ce4e5b9
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// rekey updates instance i's heap key after its source may have changed.
func (m *mux) rekey(i int32) {
	in := m.insts[i]
	t, ok := in.src.Next()
	if !ok {
		in.key = -1
		return
	}
	if t != in.key {
		in.key = t
		m.heap.Push(heap.Key{T: int64(t), A: int64(i)}, struct{}{})
	}
}

// top drops stale heap entries and returns the live top.
func (m *mux) top() (keyed, bool) {
	for m.heap.Len() > 0 {
		top := m.heap.Top()
		e := keyed{key: sim.Time(top.T), ref: int32(top.A)}
		if in := m.insts[e.ref]; in.key == e.key {
			return e, true
		}
		m.heap.Pop()
	}
	return keyed{}, false
}

// Next implements [sim.JobSource]: no job is submitted at or after the
// duration.
func (m *mux) Next() (sim.Time, bool) {
	e, ok := m.top()
	if !ok || int64(e.key) >= m.pr.Duration {
		return 0, false
	}
	return e.key, true
}

// Pop implements [sim.JobSource].
func (m *mux) Pop(now sim.Time, dst []sim.Job) []sim.Job {
	for {
		e, ok := m.top()
		if !ok || e.key != now {
			return dst
		}
		m.heap.Pop()
		in := m.insts[e.ref]
		if in.src == nil {
			if err := m.build(e.ref); err != nil {
				m.err = err
				in.key = -1
				continue
			}
		}
		n := len(dst)
		if t, ok := in.src.Next(); ok && t == now {
			dst = in.src.Pop(now, dst)
		}
		in.popped += len(dst) - n
		in.key = -2 // force a push
		m.rekey(e.ref)
		m.checkDone(e.ref, now)
	}
}

// Started implements [sim.JobSource].
func (m *mux) Started(v *sim.View, r sim.Ref) {
	m.insts[v.ID(r)>>idShift].src.Started(v, r)
}

// Ended implements [sim.JobSource].
func (m *mux) Ended(v *sim.View, r sim.Ref) {
	i := int32(v.ID(r) >> idShift)
	in := m.insts[i]
	in.src.Ended(v, r)
	in.ended++
	m.rekey(i)
	m.checkDone(i, v.Now())
}

// checkDone regenerates a long-term copy whose jobs have all ended.
func (m *mux) checkDone(i int32, now sim.Time) {
	in := m.insts[i]
	if in.done || in.src.Unsubmitted() > 0 || in.ended < in.popped {
		return
	}
	in.done = true
	if in.c.Class != LongTerm {
		return
	}
	u := in.c.u
	after := int64(now)
	if m.opt.Regen == RegenGap {
		after += (u.First - m.p.Start) + (m.p.End - u.Last)
	}
	// The smallest whole-week shift that puts the user's first job at or
	// after the predecessor's end.
	lf := m.p.local[u.Jobs[0]]
	shift := weekOfLocal(m.p.cal.local(after) - lf + Week - 1)
	for m.p.cal.fromLocal(lf+int64(shift)*Week) < after {
		shift++
	}
	c := Copy{User: u.ID, Class: LongTerm, Slot: in.c.Slot, Shift: shift, u: u}
	nb := len(m.insts)
	m.plan(c)
	if len(m.insts) > nb {
		m.regen++
	}
}

// keyed is a heap entry: an instance and the time it was queued for.
type keyed struct {
	key sim.Time
	ref int32
}

// Trace returns the run as a log of its simulated schedule, for the
// analyses that take a log (weekly cycles, sessions, compare): one record
// per job that started, in order of simulated submit time and numbered
// from 1, with the simulated submit time, wait and runtime (field 2, 3
// and 4), processors, requested time, status (0 for a job killed at its
// requested time, else 1) and the simulated user (field 12). The header is
// the source's with the job counts updated, the source's name and SHA-256,
// the hpcwl version, the seed and stream, the generator's parameters and
// the note given (the scheduler and feedback options, say). The recorded
// log describes one schedule: replaying it rigidly reproduces it only
// under the same scheduler.
func (r *TBUOSRun) Trace(p *Pools, note string) *trace.Trace {
	src := p.Trace
	jobs := make([]trace.Job, 0, len(r.Result.Jobs))
	for i := range r.Result.Jobs {
		o := &r.Result.Jobs[i]
		if o.Start < 0 {
			continue
		}
		status := int32(1)
		if o.Killed {
			status = 0
		}
		jobs = append(jobs, trace.Job{ID: int64(i), Submit: int64(o.Submit), Wait: int64(o.Wait()), Runtime: int64(o.Ran()),
			Procs: o.Procs, AvgCPU: -1, UsedMem: -1, ReqProcs: o.Procs, ReqTime: int64(o.Estimate), ReqMem: -1,
			Status: status, User: o.User, Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1})
	}
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].Submit < jobs[b].Submit })
	for i := range jobs {
		jobs[i].ID = int64(i + 1)
	}
	h := src.Header.Clone()
	n := strconv.Itoa(len(jobs))
	h.Set("MaxJobs", n)
	h.Set("MaxRecords", n)
	clk := src.Clock()
	if _, ok := h.Get("EndTime"); ok {
		h.Set("EndTime", clk.Time(r.Params.Duration).Format("Mon Jan 02 15:04:05 MST 2006"))
	}
	h.AddNote("recorded TBUOS run (Zakay & Feitelson): copies of the users of the source released by feedback; " +
		"fields 2-4 are the simulated submit time, wait and runtime, field 12 the simulated user")
	if note != "" {
		h.AddNote(note)
	}
	h.Add(KeyVersion, "hpcwl "+version.String())
	h.Add(KeySource, src.Name)
	if src.SHA256 != "" {
		h.Add(KeySHA256, src.SHA256)
	}
	h.Add(KeySeed, fmt.Sprintf("%d stream %d", r.Params.Seed, r.Params.Stream))
	h.Add(KeyParams, fmt.Sprintf("duration=%d load=%s n_lt=%d n_t0=%.4g r_t=%.4g rb_npw=%s regenerated=%d rejected=%d",
		r.Params.Duration, fmtFloat(r.Params.LoadFactor), r.Params.LongTerm, r.Params.InitialTemporary, r.Params.WeeklyRate,
		fmtFloat(r.Params.RBNPW), r.Regenerated, r.Rejected))
	return trace.New(h, jobs, trace.Options{Procs: r.Result.Procs})
}
