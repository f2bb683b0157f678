// Package session cuts each user's jobs of a workload log into sessions and
// batches and builds the dependency graphs that feedback simulation replays.
//
// A session is a period of continuous work by one user; a batch is a set of
// overlapping, hence independent, jobs inside a session (N. Zakay, Improved
// Realism and Representativeness of Workloads to Improve Reliability of
// Performance Evaluations, PhD thesis, Hebrew University, chapter 2).
// [Identify] implements the methods of that chapter:
//
//   - [Arrival]: a job joins the session when it arrives at most Threshold
//     after the previous job of the user (default 60 min), and batches are
//     formed with the Max rule inside the session;
//   - [Last] and [Max]: the think time from the end of the previous job
//     (Last) or from the latest end of any earlier job (Max) decides: below
//     zero the job joins the batch, up to Threshold (default 20 min) it opens
//     a batch in the same session, beyond it a new session;
//   - [LastCut] and [MaxCut]: the same with each job's end cut at its
//     arrival plus Cut, so that long jobs do not stretch sessions;
//   - [Interarrival]: Madon's partitioning, a new session when the
//     inter-arrival time is at least Threshold (M. Madon, G. Da Costa and
//     J.-M. Pierson, "Replay with feedback", Future Generation Computer
//     Systems, 2024, section 3.1, Fig. 1): a0 puts every job in a session of
//     its own, a60 is the 60-minute variant.
//
// A [Partition] gives every job its session and batch, and [Partition.Stats]
// summarizes counts, jobs per session and batch, session lengths, think
// times and inter-arrival times.
//
// [SessionGraph] builds Madon's session graph (Definition 5: a session
// depends on every earlier one that finished before it started, with a
// fictive root for sessions without predecessors) and [BatchGraph] Zakay's
// batch dependency graph (chapter 4, Definitions 8-14). Both keep by default
// only the edges of the transitive reduction, which preserves the partial
// order and, for feedback, every start constraint; [Full] keeps them all.
package session
