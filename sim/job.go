package sim

// Time is simulated time in whole seconds (SWF's unit), relative to the
// trace's start.
type Time int64

// Ref identifies a job within one run: its position in arrival order
// (0, 1, 2, ...). Refs index [Result.Jobs].
type Ref int32

// Job is a rigid job as the simulator sees it.
type Job struct {
	// ID is the job number, unique within a run; ties between simultaneous
	// events are broken by it.
	ID int64
	// Submit is the arrival time.
	Submit Time
	// Runtime is how long the job runs once started, unless it is killed at
	// its Estimate (Options.Kill). It is >= 0. Schedulers never see it.
	Runtime Time
	// Estimate is the requested time: the user's runtime estimate and the
	// kill limit, > 0.
	Estimate Time
	// Procs is the number of processors, 1..P.
	Procs int32
	// User is the user ID, -1 when unknown.
	User int32
	// Index is the job's position in the source's input (for a trace
	// replay, its index in trace.Trace.Jobs), or -1.
	Index int32
	// Tag belongs to the job source: the simulator carries it to the job's
	// Outcome unchanged (feedback sources keep the job's session or batch
	// there). It fits in what would otherwise be padding.
	Tag int32
}

// Outcome is a job with its simulated schedule.
type Outcome struct {
	Job
	// Start and End are the simulated start and end times; both are -1 for
	// a job that never started.
	Start, End Time
	// Killed reports that the job was stopped at its Estimate although its
	// Runtime was longer (only with Options.Kill).
	Killed bool
	// Backfilled reports that the job started while a job that arrived
	// before it was still waiting.
	Backfilled bool
	// Misses counts the job's deadline misses: how often it outlived its
	// runtime prediction.
	Misses int32
	// Prediction is the job's last runtime prediction; Initial the
	// prediction it got on arrival.
	Prediction, Initial Time
}

// Wait returns Start - Submit, in seconds.
func (o *Outcome) Wait() Time { return o.Start - o.Submit }

// Ran returns End - Start: the time the job actually ran.
func (o *Outcome) Ran() Time { return o.End - o.Start }
