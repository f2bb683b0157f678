package sim

// NoticeKind says what happened to a job.
type NoticeKind uint8

// The notices a [Scheduler] receives.
const (
	// Arrived: the job was submitted and is waiting.
	Arrived NoticeKind = iota
	// Ended: the running job terminated (completed or killed).
	Ended
	// PredictionChanged: the job's runtime prediction changed, after a
	// deadline miss or a predictor update. The job is waiting or running.
	PredictionChanged
)

// String returns the kind's name.
func (k NoticeKind) String() string {
	switch k {
	case Arrived:
		return "arrived"
	case Ended:
		return "ended"
	case PredictionChanged:
		return "prediction-changed"
	}
	return "unknown"
}

// Notice tells a scheduler about one job.
type Notice struct {
	Kind NoticeKind
	Job  Ref
}

// Scheduler decides which waiting jobs start. It is driven by the engine:
// Notify is called for every arrival, termination and prediction change, in
// the engine's event order, and Schedule once after all events of one time.
// A scheduler keeps whatever queues and profiles it needs, and sees the
// machine only through the read-only [View].
type Scheduler interface {
	// Notify tells the scheduler of one event, before the scheduling pass
	// of its time.
	Notify(v *View, n Notice)
	// Schedule appends to dst the waiting jobs to start now, in the order
	// they start, and returns it. Their processors must fit in v.Free();
	// the engine checks and fails the run otherwise.
	Schedule(v *View, dst []Ref) []Ref
}

// Waker is a [Scheduler] that also wants scheduling passes at times when no
// job event happens (periodic switching by adaptive schedulers, aging
// priorities). After every pass the engine asks for the next wake-up time;
// a time <= now means none.
type Waker interface {
	Scheduler
	NextWake(v *View) Time
}

// Reserver is a [Scheduler] that guarantees start times. Reservation returns
// the latest time by which waiting job r is planned to start, if it holds
// one. Tests use it to check that guarantees are kept.
type Reserver interface {
	Scheduler
	Reservation(r Ref) (Time, bool)
}

// Failer is a [Scheduler] that can fail during a run, such as a policy in
// another process that crashes or answers wrongly. The engine calls Err
// after every pass and stops the run with the error it returns.
type Failer interface {
	Scheduler
	Err() error
}

// Namer is implemented by schedulers that report a name for output.
type Namer interface {
	Name() string
}

// Restorer is a [Scheduler] that can take over a simulation in progress:
// Restore discards whatever state it holds and rebuilds it from v alone,
// treating the running jobs of v as started by it and the waiting ones as
// its queue (in arrival order). Adaptive schedulers switch between
// restorable candidates, and synchronise their shadow simulations, with it.
type Restorer interface {
	Scheduler
	Restore(v *View)
}
