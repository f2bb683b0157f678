// Package feedback replays a workload log with user feedback: instead of
// arriving at their recorded times, jobs are submitted when the work they
// depend on has finished in the simulation, plus a think time. The sources
// here plug into the simulator as a [sim.JobSource].
//
// Two families of user behaviour are implemented:
//
//   - Madon's think-time replay (Madon, Da Costa and Pierson, Replay with Feedback, 2024,
//     Definitions 5-8 and Algorithm 1): each user's sessions form a dependency graph
//     ([session.SessionGraph]); a session starts when all the sessions it
//     depends on have finished in the simulation plus the recorded think
//     times, and its jobs keep their recorded offsets inside it. Sessions
//     without a predecessor start at their recorded time.
//   - Zakay's batch feedback (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis,
//     chapter 4): each user's batches form a dependency graph
//     ([session.BatchGraph]) and are released one at a time in their
//     recorded order (the next-batch mechanism); a user model then picks
//     the arrival time of a released batch: [Adjusted] keeps the recorded
//     think time or inter-arrival time, [Distribution] draws them and
//     confines users to daily and weekly activity windows, [Fluid] lets
//     batches flow into the user's recorded session windows (variants V1
//     and V2).
//
// Jobs the simulation cannot run (wider than the machine, or without a
// runtime) are rejected: they count as finished at their arrival, so that
// the work depending on them still comes (Madon, Da Costa and Pierson, Replay with Feedback, 2024),
// and they are reported separately.
//
// With the replay scheduler of package sched, which starts each job at its recorded
// wait after arrival, the Adjusted model and Madon's replay reproduce every
// recorded arrival exactly (the identity property of Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 4).
//
// The metrics of feedback runs are here too: lateness (Madon section 8),
// throughput and activity per user, and the weekly cycle of submissions.
package feedback
