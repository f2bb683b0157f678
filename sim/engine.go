package sim

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// job states
const (
	stWaiting uint8 = iota
	stRunning
	stDone
)

// Progress receives reports from a running simulation. The library never
// prints; a command line passes a terminal or JSON implementation.
type Progress interface {
	// Report is called every Config.CheckEvery events and once at the end
	// with the number of jobs submitted and terminated so far and the
	// simulated time.
	Report(submitted, ended int, now Time)
}

// Config sets up one engine run. The zero value of each optional field
// means its documented default.
type Config struct {
	// Procs is the machine size P, > 0 (required).
	Procs int
	// Predictor gives runtime predictions; nil means [Requested] with
	// [Gradual] deadline misses.
	Predictor Predictor
	// Kill stops a job at its Estimate when its Runtime is longer (the
	// job's Killed flag is set). Default false: jobs run their full Runtime.
	Kill bool
	// Progress receives periodic reports; nil means none.
	Progress Progress
	// CheckEvery is how many events pass between context checks and
	// progress reports; default 4096.
	CheckEvery int
	// OnPass, when set, is called after every scheduling pass with the
	// jobs it started (tests use it to check invariants).
	OnPass func(v *View, started []Ref)
	// SizeHint is the expected number of jobs, to size buffers; optional.
	SizeHint int
	// RecordPredictions keeps every prediction each job had, with the time
	// it was given, in Result.Predictions (for time-weighted prediction
	// accuracy, Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, section 8.3.2, Eq. 12). Default false.
	RecordPredictions bool
	// RecordRevisions is RecordPredictions without the arrival entries:
	// Result.Predictions keeps only the predictions a job got after its
	// arrival (after deadline misses and revisions), and Result.Revisions
	// is set. A job's arrival prediction is its Outcome.Initial, given at
	// its Submit time, so nothing is lost, and a run whose predictions
	// never change keeps no log at all (24 bytes per job less). It has no
	// effect with RecordPredictions.
	RecordRevisions bool
	// PassEveryEvent runs a scheduling pass after every single event
	// (each termination, deadline miss, arrival and wake-up, in that order
	// at equal times, arrivals by job id) instead of once per instant after
	// all of its events, as event-by-event simulators such as pyss do.
	// Default false: one pass per instant.
	PassEveryEvent bool
}

// Result is the outcome of a run.
type Result struct {
	// Jobs holds every submitted job in arrival order: Jobs[r] is job r.
	Jobs []Outcome
	// Procs is the machine size.
	Procs int
	// Kill records whether jobs were killed at their requested time.
	Kill bool
	// Events counts processed events (arrivals, terminations, misses,
	// wake-ups); Passes counts scheduling passes.
	Events, Passes int64
	// Predictions holds, with Config.RecordPredictions, every prediction
	// given to a job, in the order given: the arrival prediction, the new
	// predictions after deadline misses and the revisions of a
	// [LearningPredictor]. It is nil otherwise. With Config.RecordRevisions
	// it holds only the predictions after arrival (see Revisions).
	Predictions []PredictionChange
	// Revisions reports that Predictions leaves out the arrival entries
	// (Config.RecordRevisions): each job r also had prediction
	// Jobs[r].Initial from Jobs[r].Submit, before any entry of its own.
	Revisions bool
}

// PredictionChange records that job Job got prediction Prediction at time
// At.
type PredictionChange struct {
	Job        Ref
	At         Time
	Prediction Time
}

// ErrStalled is returned when jobs are still waiting but nothing can
// happen any more: the machine is idle, no event is pending and the
// scheduler starts nothing.
var ErrStalled = errors.New("sim: simulation stalled")

type engine struct {
	cfg      Config
	procs    int
	free     int
	now      Time
	nWaiting int
	nRunning int
	jobs     []Outcome
	missInit map[Ref]Time // running jobs that missed: their prediction at the first miss
	state    []uint8
	oldest   Ref // oldest possibly waiting job
	q        eventQueue
	src      JobSource
	sch      Scheduler
	failer   Failer // sch, when it can fail
	pr       Predictor
	learn    LearningPredictor
	view     View
	arrBuf   []Job
	startBuf []Ref
	updBuf   []Update
	log      []PredictionChange
	events   int64
	passes   int64
	ended    int
	onEnd    func(Ref) // shadows: called for every termination
	live     Ref       // no job before it is live (waiting or running)
	started  int       // jobs started so far
	waitSum  Time      // their total wait
	gen      int       // shadows: how often this engine was forked into
}

// Run simulates the jobs of src under scheduler s until every submitted job
// has terminated and the source has nothing more to submit. It returns
// ctx's error if ctx is cancelled (checked every Config.CheckEvery events).
func Run(ctx context.Context, src JobSource, s Scheduler, cfg Config) (*Result, error) {
	if cfg.Procs <= 0 {
		return nil, fmt.Errorf("sim: machine size %d: must be > 0", cfg.Procs)
	}
	if src == nil || s == nil {
		panic("sim: nil source or scheduler")
	}
	if cfg.CheckEvery <= 0 {
		cfg.CheckEvery = 4096
	}
	e := &engine{cfg: cfg, procs: cfg.Procs, free: cfg.Procs, src: src, sch: s, pr: cfg.Predictor}
	if e.pr == nil {
		e.pr = Requested{}
	}
	e.learn, _ = e.pr.(LearningPredictor)
	e.failer, _ = s.(Failer)
	e.view.e = e
	if cfg.SizeHint > 0 {
		e.jobs = make([]Outcome, 0, cfg.SizeHint)
		e.state = make([]uint8, 0, cfg.SizeHint)
	}
	if err := e.loop(ctx); err != nil {
		return nil, err
	}
	if cfg.Progress != nil {
		cfg.Progress.Report(len(e.jobs), e.ended, e.now)
	}
	res := &Result{Jobs: e.jobs, Procs: e.procs, Kill: cfg.Kill, Events: e.events, Passes: e.passes, Predictions: e.log}
	if cfg.RecordRevisions && !cfg.RecordPredictions {
		res.Revisions = true
		if res.Predictions == nil {
			res.Predictions = []PredictionChange{} // a log, though empty
		}
	}
	return res, nil
}

func (e *engine) loop(ctx context.Context) error {
	waker, _ := e.sch.(Waker)
	nextCheck := int64(e.cfg.CheckEvery)
	for {
		t, ok := e.src.Next()
		if e.q.len() > 0 && (!ok || e.q.top().t <= t) {
			t, ok = e.q.top().t, true
		}
		if !ok {
			break
		}
		if t < e.now {
			return fmt.Errorf("sim: job source submits a job at %d, before the current time %d", t, e.now)
		}
		e.now = t
		if e.events >= nextCheck {
			nextCheck = e.events + int64(e.cfg.CheckEvery)
			if err := ctx.Err(); err != nil {
				return err
			}
			if e.cfg.Progress != nil {
				e.cfg.Progress.Report(len(e.jobs), e.ended, e.now)
			}
		}
		if err := e.step(); err != nil {
			return err
		}
		if !e.cfg.PassEveryEvent {
			if err := e.pass(); err != nil {
				return err
			}
		}
		if waker != nil {
			if w := waker.NextWake(&e.view); w > e.now {
				e.q.push(event{t: w, kind: evWake, id: -1, ref: -1})
			}
		}
	}
	if e.nWaiting > 0 {
		var r Ref
		for r = e.oldest; e.state[r] != stWaiting; r++ {
		}
		return fmt.Errorf("%w: %d jobs wait on an idle machine and the scheduler starts none (first: job %d needs %d of %d processors)",
			ErrStalled, e.nWaiting, e.jobs[r].ID, e.jobs[r].Procs, e.procs)
	}
	return nil
}

// step handles every event at e.now before the scheduling pass.
func (e *engine) step() error {
	for e.q.len() > 0 && e.q.top().t == e.now && e.q.top().kind == evEnd {
		ev := e.q.pop()
		e.events++
		e.terminate(ev.ref)
		if err := e.eachEvent(); err != nil {
			return err
		}
	}
	for e.q.len() > 0 && e.q.top().t == e.now && e.q.top().kind == evMiss {
		ev := e.q.pop()
		e.events++
		if err := e.miss(ev.ref, ev.t); err != nil {
			return err
		}
		if err := e.eachEvent(); err != nil {
			return err
		}
	}
	if t, ok := e.src.Next(); ok && t == e.now {
		e.arrBuf = e.src.Pop(e.now, e.arrBuf[:0])
		if len(e.arrBuf) > 1 && !slices.IsSortedFunc(e.arrBuf, cmpID) {
			slices.SortStableFunc(e.arrBuf, cmpID)
		}
		for i := range e.arrBuf {
			if err := e.arrive(&e.arrBuf[i]); err != nil {
				return err
			}
			if err := e.eachEvent(); err != nil {
				return err
			}
		}
	}
	for e.q.len() > 0 && e.q.top().t == e.now && e.q.top().kind == evWake {
		e.q.pop()
		e.events++
		if err := e.eachEvent(); err != nil {
			return err
		}
	}
	return nil
}

// eachEvent runs the pass that follows every event with
// Config.PassEveryEvent.
func (e *engine) eachEvent() error {
	if !e.cfg.PassEveryEvent {
		return nil
	}
	return e.pass()
}

func cmpID(a, b Job) int {
	switch {
	case a.ID < b.ID:
		return -1
	case a.ID > b.ID:
		return 1
	}
	return 0
}

func (e *engine) arrive(j *Job) error {
	if j.Submit != e.now {
		return fmt.Errorf("sim: job %d popped at %d but submitted at %d", j.ID, e.now, j.Submit)
	}
	if j.Procs <= 0 || int(j.Procs) > e.procs {
		return fmt.Errorf("sim: job %d needs %d processors; the machine has %d", j.ID, j.Procs, e.procs)
	}
	if j.Runtime < 0 || j.Estimate <= 0 {
		return fmt.Errorf("sim: job %d: runtime %d and requested time %d must be >= 0 and > 0", j.ID, j.Runtime, j.Estimate)
	}
	e.events++
	r := Ref(len(e.jobs))
	p := max(e.pr.Predict(j), 0)
	e.jobs = append(e.jobs, Outcome{Job: *j, Start: -1, End: -1, Initial: p, Prediction: p})
	e.state = append(e.state, stWaiting)
	if !e.cfg.RecordRevisions || e.cfg.RecordPredictions {
		e.record(r, p)
	}
	e.nWaiting++
	e.sch.Notify(&e.view, Notice{Kind: Arrived, Job: r})
	if e.learn != nil {
		e.updBuf = e.learn.Arrived(&e.view, r, e.updBuf[:0])
		e.applyUpdates()
	}
	return nil
}

func (e *engine) terminate(r Ref) {
	o := &e.jobs[r]
	e.state[r] = stDone
	if o.Misses > 0 {
		delete(e.missInit, r)
	}
	e.nRunning--
	e.free += int(o.Procs)
	e.ended++
	e.sch.Notify(&e.view, Notice{Kind: Ended, Job: r})
	if e.onEnd != nil {
		e.onEnd(r)
	}
	e.src.Ended(&e.view, r)
	if e.learn != nil {
		e.updBuf = e.learn.Ended(&e.view, r, e.updBuf[:0])
		e.applyUpdates()
	}
}

// miss handles a deadline miss of running job r at deadline t.
func (e *engine) miss(r Ref, t Time) error {
	o := &e.jobs[r]
	if e.state[r] != stRunning || o.Start+o.Prediction != t {
		return nil // stale
	}
	return e.remiss(r)
}

func (e *engine) remiss(r Ref) error {
	o := &e.jobs[r]
	o.Misses++
	if o.Misses == 1 {
		if e.missInit == nil {
			e.missInit = map[Ref]Time{}
		}
		e.missInit[r] = o.Prediction
	}
	el := e.now - o.Start
	np := e.pr.Missed(&o.Job, MissInfo{Current: o.Prediction, Initial: e.missInit[r], Elapsed: el, N: int(o.Misses)})
	if np <= el {
		return fmt.Errorf("sim: predictor gave job %d a new prediction %d s not beyond its elapsed %d s", o.ID, np, el)
	}
	o.Prediction = np
	e.record(r, np)
	e.scheduleMiss(r)
	e.sch.Notify(&e.view, Notice{Kind: PredictionChanged, Job: r})
	return nil
}

// record logs a new prediction p of job r, with Config.RecordPredictions.
func (e *engine) record(r Ref, p Time) {
	if e.cfg.RecordPredictions || e.cfg.RecordRevisions {
		e.log = append(e.log, PredictionChange{Job: r, At: e.now, Prediction: p})
	}
}

func (e *engine) scheduleMiss(r Ref) {
	o := &e.jobs[r]
	if d := o.Start + o.Prediction; d < o.End {
		e.q.push(event{t: d, kind: evMiss, id: o.ID, ref: r})
	}
}

func (e *engine) applyUpdates() {
	for _, u := range e.updBuf {
		r := u.Job
		if e.state[r] == stDone || u.Prediction == e.jobs[r].Prediction {
			continue
		}
		if e.state[r] == stRunning && u.Prediction <= e.now-e.jobs[r].Start {
			_ = e.remiss(r) // a revision into the past counts as a miss
			continue
		}
		e.jobs[r].Prediction = max(u.Prediction, 0)
		e.record(r, e.jobs[r].Prediction)
		if e.state[r] == stRunning {
			e.scheduleMiss(r)
		}
		e.sch.Notify(&e.view, Notice{Kind: PredictionChanged, Job: r})
	}
}

// pass runs one scheduling pass and starts the jobs it chose.
func (e *engine) pass() error {
	e.passes++
	if e.nWaiting == 0 {
		return nil
	}
	e.startBuf = e.sch.Schedule(&e.view, e.startBuf[:0])
	if e.failer != nil {
		if err := e.failer.Err(); err != nil {
			return err
		}
	}
	for _, r := range e.startBuf {
		if int(r) < 0 || int(r) >= len(e.jobs) || e.state[r] != stWaiting {
			return fmt.Errorf("sim: scheduler started job ref %d, which is not waiting", r)
		}
		o := &e.jobs[r]
		if int(o.Procs) > e.free {
			return fmt.Errorf("sim: scheduler started job %d needing %d processors with %d free", o.ID, o.Procs, e.free)
		}
		e.free -= int(o.Procs)
		e.state[r] = stRunning
		e.nWaiting--
		e.nRunning++
		o.Start = e.now
		e.started++
		e.waitSum += e.now - o.Submit
		run := o.Runtime
		if e.cfg.Kill && run > o.Estimate {
			run = o.Estimate
			o.Killed = true
		}
		o.End = e.now + run
		e.q.push(event{t: o.End, kind: evEnd, id: o.ID, ref: r})
		e.scheduleMiss(r)
	}
	for int(e.oldest) < len(e.jobs) && e.state[e.oldest] != stWaiting {
		e.oldest++
	}
	for _, r := range e.startBuf {
		if r > e.oldest {
			e.jobs[r].Backfilled = true
		}
		e.src.Started(&e.view, r)
		if e.learn != nil {
			e.updBuf = e.learn.Started(&e.view, r, e.updBuf[:0])
			e.applyUpdates()
		}
	}
	if e.cfg.OnPass != nil {
		e.cfg.OnPass(&e.view, e.startBuf)
	}
	return nil
}
