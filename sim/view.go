package sim

// View is the read-only state of a running simulation that schedulers,
// sources and predictors see. Its methods never change the simulation.
type View struct {
	e *engine
}

// Now returns the current simulated time.
func (v *View) Now() Time { return v.e.now }

// Procs returns the machine size P.
func (v *View) Procs() int { return v.e.procs }

// Free returns the number of idle processors.
func (v *View) Free() int { return v.e.free }

// NumWaiting returns the number of waiting jobs.
func (v *View) NumWaiting() int { return v.e.nWaiting }

// NumRunning returns the number of running jobs.
func (v *View) NumRunning() int { return v.e.nRunning }

// NumJobs returns the number of jobs submitted so far; refs run from 0 to
// NumJobs()-1.
func (v *View) NumJobs() int { return len(v.e.jobs) }

// Job returns job r as submitted, without its Runtime (schedulers must not
// know it; the field is 0).
func (v *View) Job(r Ref) Job {
	j := v.e.jobs[r].Job
	j.Runtime = 0
	return j
}

// ID returns the job number of r.
func (v *View) ID(r Ref) int64 { return v.e.jobs[r].ID }

// Size returns the number of processors job r needs.
func (v *View) Size(r Ref) int { return int(v.e.jobs[r].Procs) }

// Submit returns job r's arrival time.
func (v *View) Submit(r Ref) Time { return v.e.jobs[r].Submit }

// Estimate returns job r's requested time (its kill limit).
func (v *View) Estimate(r Ref) Time { return v.e.jobs[r].Estimate }

// User returns job r's user ID (-1 if unknown).
func (v *View) User(r Ref) int32 { return v.e.jobs[r].User }

// Prediction returns job r's current runtime prediction.
func (v *View) Prediction(r Ref) Time { return v.e.jobs[r].Prediction }

// Start returns job r's start time, or -1 if it has not started.
func (v *View) Start(r Ref) Time { return v.e.jobs[r].Start }

// End returns job r's end time, or -1 if it has not ended.
func (v *View) End(r Ref) Time {
	if v.e.state[r] != stDone {
		return -1
	}
	return v.e.jobs[r].End
}

// PredictedEnd returns start + prediction for a running job, never before
// now; for a waiting job it returns now + prediction.
func (v *View) PredictedEnd(r Ref) Time {
	s := v.e.jobs[r].Start
	if s < 0 {
		s = v.e.now
	}
	return max(v.e.now, s+v.e.jobs[r].Prediction)
}

// Waiting reports whether job r is waiting.
func (v *View) Waiting(r Ref) bool { return v.e.state[r] == stWaiting }

// Running reports whether job r is running.
func (v *View) Running(r Ref) bool { return v.e.state[r] == stRunning }

// Done reports whether job r has terminated.
func (v *View) Done(r Ref) bool { return v.e.state[r] == stDone }

// FirstLive returns a ref before which every job has terminated: the jobs
// a scheduler must look at to take over the simulation ([Restorer]) are
// among FirstLive() .. NumJobs()-1.
func (v *View) FirstLive() Ref {
	e := v.e
	for int(e.live) < len(e.jobs) && e.state[e.live] == stDone {
		e.live++
	}
	return e.live
}

// StartedWaits returns the number of jobs started so far and the sum of
// their waits, in seconds.
func (v *View) StartedWaits() (int, Time) { return v.e.started, v.e.waitSum }
