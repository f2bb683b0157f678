package sim

import "maps"

// WindowStats sums what happened in a window of simulated time: the jobs
// that ended in it and the processor time used. Adaptive schedulers compare
// candidate schedulers by it.
type WindowStats struct {
	// Ended counts the jobs that terminated in the window.
	Ended int
	// Wait, Response, Slowdown and BoundedSlowdown are sums over those
	// jobs (bounded slowdown with threshold [BoundedSlowdownTau]).
	Wait, Response, Slowdown, BoundedSlowdown float64
	// Busy is the processor-seconds used in the window.
	Busy float64
	// From and To delimit the window.
	From, To Time
}

// BoundedSlowdownTau is the threshold of the bounded slowdown in
// [WindowStats], in seconds.
const BoundedSlowdownTau = 10

// AddEnded adds job r of v, which has just terminated, to the sums.
func (w *WindowStats) AddEnded(v *View, r Ref) {
	o := &v.e.jobs[r]
	wait := float64(o.Start - o.Submit)
	run := float64(o.End - o.Start)
	w.Ended++
	w.Wait += wait
	w.Response += wait + run
	if run > 0 {
		w.Slowdown += (wait + run) / run
	} else {
		w.Slowdown++
	}
	w.BoundedSlowdown += max(1, (wait+run)/max(run, BoundedSlowdownTau))
}

// Shadow is a simulation forked from a running one: it starts from the
// same machine, the same running jobs (which end at the same times) and the
// same waiting jobs, under a scheduler of its own, and then receives the
// arrivals of the real simulation while its own decisions are never
// applied to the real one. PBAS (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, section 7.3) measures each
// candidate scheduler by such a shadow run over a window.
//
// Like the engine, a shadow knows the jobs' runtimes (a job it starts
// terminates at its shadow start plus its runtime); its scheduler does not.
// Each arriving job gets the prediction the real run gave it on arrival. A
// shadow never changes the real run's predictor: it asks a stateless one
// (requested, perfect, constant) for new predictions after deadline misses,
// and uses policy [EstimateThenGradual] for a learning predictor, which it
// neither trains nor consults (a learning predictor sees only the real
// run). So under a learning predictor a shadow does not see the revisions
// the real run makes to its waiting jobs' predictions after the fork.
type Shadow struct {
	e     engine
	feed  feed
	stats WindowStats
	last  Time
	err   error
	pred  shadowPredictor
	// incremental forks: the engine last forked from, its generation
	// then, and how many leading jobs had terminated in it
	src    *engine
	srcGen int
	synced int
}

// Fork returns a shadow of the simulation v belongs to, under scheduler s,
// which is first restored to v's state. It is meant to be called from a
// scheduler's Schedule, after every event of the current time: the shadow
// makes its own scheduling pass of that time at once.
func Fork(v *View, s Restorer) *Shadow {
	return ForkInto(nil, v, s)
}

// ForkInto is [Fork] reusing the buffers of sh (which may be nil).
func ForkInto(sh *Shadow, v *View, s Restorer) *Shadow {
	if sh == nil {
		sh = &Shadow{}
	}
	src := v.e
	e := &sh.e
	// The jobs before synced terminated in src before the previous fork
	// from it, so they are the same in both (terminated jobs never change)
	// unless src has itself been forked into since.
	synced := 0
	if sh.src == src && sh.srcGen == src.gen {
		synced = min(sh.synced, len(e.jobs), len(src.jobs))
	}
	q, gen := e.q, e.gen+1
	*e = engine{
		cfg:      Config{Procs: src.procs, Kill: src.cfg.Kill, CheckEvery: 1 << 30, PassEveryEvent: src.cfg.PassEveryEvent},
		procs:    src.procs,
		free:     src.free,
		now:      src.now,
		nWaiting: src.nWaiting,
		nRunning: src.nRunning,
		jobs:     append(e.jobs[:synced], src.jobs[synced:]...),
		missInit: maps.Clone(src.missInit),
		state:    append(e.state[:synced], src.state[synced:]...),
		oldest:   src.oldest,
		sch:      s,
		pr:       &sh.pred,
		arrBuf:   e.arrBuf[:0],
		startBuf: e.startBuf[:0],
		updBuf:   e.updBuf[:0],
		ended:    src.ended,
		live:     v.FirstLive(),
		started:  src.started,
		waitSum:  src.waitSum,
		gen:      gen,
	}
	sh.src, sh.srcGen, sh.synced = src, src.gen, int(e.live)
	for q.len() > 0 {
		q.pop()
	}
	e.q = q
	e.view.e = e
	for r := e.live; int(r) < len(e.jobs); r++ {
		if e.state[r] == stRunning {
			e.q.push(event{t: e.jobs[r].End, kind: evEnd, id: e.jobs[r].ID, ref: r})
			e.scheduleMiss(r)
		}
	}
	sh.feed.jobs, sh.feed.next = sh.feed.jobs[:0], 0
	real := src.pr
	if p, ok := real.(*shadowPredictor); ok {
		real = p.real // a shadow of a shadow
	}
	_, learning := real.(LearningPredictor)
	sh.pred.real, sh.pred.learning = real, learning
	clear(sh.pred.pending)
	e.src = &sh.feed
	e.onEnd = sh.ended
	sh.stats = WindowStats{From: src.now, To: src.now}
	sh.last = src.now
	sh.err = nil
	s.Restore(&e.view)
	sh.err = e.pass() // the pass of the current time, which the real run is about to make too
	if w, ok := s.(Waker); ok {
		if t := w.NextWake(&e.view); t > e.now {
			e.q.push(event{t: t, kind: evWake, id: -1, ref: -1})
		}
	}
	return sh
}

func (sh *Shadow) ended(r Ref) { sh.stats.AddEnded(&sh.e.view, r) }

// Arrive submits to the shadow job r of the real simulation v, which has
// just arrived there (same ref, same submit time).
func (sh *Shadow) Arrive(v *View, r Ref) {
	sh.feed.jobs = append(sh.feed.jobs, v.e.jobs[r].Job)
	if sh.pred.pending == nil {
		sh.pred.pending = map[int64]Time{}
	}
	sh.pred.pending[v.e.jobs[r].ID] = v.e.jobs[r].Initial
}

// AdvanceTo runs the shadow through every event at or before t, with its
// scheduling passes.
func (sh *Shadow) AdvanceTo(t Time) error {
	if sh.err != nil {
		return sh.err
	}
	e := &sh.e
	waker, _ := e.sch.(Waker)
	for {
		next, ok := e.src.Next()
		if e.q.len() > 0 && (!ok || e.q.top().t <= next) {
			next, ok = e.q.top().t, true
		}
		if !ok || next > t {
			break
		}
		sh.busy(next)
		e.now = next
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
	sh.busy(t)
	if t > e.now {
		e.now = t
	}
	return nil
}

func (sh *Shadow) busy(t Time) {
	if t > sh.last {
		sh.stats.Busy += float64(t-sh.last) * float64(sh.e.procs-sh.e.free)
		sh.last = t
	}
}

// Stats returns the sums since the fork, up to the last AdvanceTo.
func (sh *Shadow) Stats() WindowStats {
	s := sh.stats
	s.To = sh.last
	return s
}

// View returns the shadow's view.
func (sh *Shadow) View() *View { return &sh.e.view }

// feed is the job source of a shadow: the real run's arrivals, in order.
type feed struct {
	jobs []Job
	next int
}

func (f *feed) Next() (Time, bool) {
	if f.next >= len(f.jobs) {
		return 0, false
	}
	return f.jobs[f.next].Submit, true
}

func (f *feed) Pop(now Time, dst []Job) []Job {
	for f.next < len(f.jobs) && f.jobs[f.next].Submit == now {
		dst = append(dst, f.jobs[f.next])
		f.next++
	}
	return dst
}

func (f *feed) Started(*View, Ref) {}
func (f *feed) Ended(*View, Ref)   {}

// Jobs returns the shadow's jobs with their shadow schedule (Start and End
// are -1 for jobs it has not started or ended yet).
func (sh *Shadow) Jobs() []Outcome { return sh.e.jobs }

// shadowPredictor gives a shadow's arrivals the real run's predictions and
// keeps the shadow's deadline misses away from a learning predictor.
type shadowPredictor struct {
	real     Predictor
	learning bool
	pending  map[int64]Time // by job ID: predictions of fed jobs not yet arrived
}

func (p *shadowPredictor) Predict(j *Job) Time {
	if t, ok := p.pending[j.ID]; ok {
		delete(p.pending, j.ID)
		return t
	}
	if p.learning {
		return j.Estimate
	}
	return p.real.Predict(j)
}

func (p *shadowPredictor) Missed(j *Job, m MissInfo) Time {
	if p.learning {
		return EstimateThenGradual{}.Next(j, m)
	}
	return p.real.Missed(j, m)
}
