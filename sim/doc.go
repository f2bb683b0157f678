// Package sim is a deterministic discrete-event simulator of a parallel
// machine of P identical processors running rigid jobs without preemption
// (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, chapter 2 and appendix A).
//
// A run connects three parts through small interfaces:
//
//   - a [JobSource] submits jobs. It is told of every job start and
//     completion and may submit new jobs at or after the current time, so
//     that users who react to the schedule (feedback) plug in the same way as
//     the rigid replay of a log ([Replay]);
//   - a [Scheduler] decides which waiting jobs start. It is notified of
//     arrivals, terminations and prediction changes and sees the machine only
//     through a read-only [View];
//   - a [Predictor] gives each job a runtime prediction on arrival and a new
//     one whenever a running job outlives it (a deadline miss), with the
//     policies of Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, chapter 8 ([Gradual], [EstimateThenGradual],
//     [TimesTen]).
//
// The engine ([Run]) keeps terminations, deadline misses and scheduler
// wake-ups in one binary heap and pulls arrivals from the source; there is
// no goroutine per job. Events at the same time are handled in a documented
// total order: job terminations (by job ID), then deadline misses (by job
// ID), then arrivals (by submit time, then job ID), then scheduler wake-ups,
// then one scheduling pass. Jobs the pass starts are told to the source,
// which may submit more jobs at the same time; they are handled in another
// round at that time, followed by another pass. The same inputs always give
// the same schedule.
//
// [Simulate] runs a trace.Trace end to end: it prepares the jobs
// ([Prepare]: machine size and speed, missing requested times, jobs wider
// than the machine), replays them and returns a [Result] with every job's
// start and end. [Stream] replays a log read record by record as
// simulated time reaches each job, so that the log is never held whole.
// Package sched holds the schedulers and package metrics
// turns a Result into wait, slowdown, utilization and other figures.
package sim
