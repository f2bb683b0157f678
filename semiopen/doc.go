// Package semiopen holds the semi-open models of throughput of Zakay and
// Feitelson (Zakay, Improved Realism and Representativeness of Workloads to
// Improve Reliability of Performance Evaluations, PhD thesis, chapter 6,
// "Models for evaluating throughput"). In an open model the throughput is an
// input; in these models users react to the response time, so the throughput
// becomes a result that a system design can change.
//
//   - The mixed model ([Mixed], chapter 6 section III): an open class of
//     users who arrive at rate λ, submit one job and leave, and a closed class
//     of N users who submit a job, wait for it, think for Z and submit again.
//     It is solved by exact mean value analysis with the service time of the
//     closed class inflated by the open load ([Mixed.MVA]), and bounded by the
//     operational laws of its two phases ([Mixed.FullUtilizationResponse],
//     [Mixed.Phase]).
//   - The re-open model ([Reopen], chapter 6 section IV): users arrive at rate
//     λ and after each job submit another with a probability p that is
//     constant or depends on the job's response time r: e^-r, or Shmueli and
//     Feitelson's 0.8/(0.05 r + 1) with r scaled by 10 ([Continuation]). It is
//     simulated on one FCFS server with exponential times ([Reopen.Simulate]);
//     with a constant p it is an M/M/1 queue ([Reopen.Analytic]). The
//     simulation also records the runtime bias of section IV-C: the runtimes
//     of jobs after which users left ("break") against those after which
//     they continued ([Bias]).
//
// The mixed model's predictions can be checked against hpcwl's own
// simulator: [MixedWorkload] writes the model as a log (closed users with
// chains of jobs separated by think times, open users with one job each),
// and [SimulateMixed] replays it on a one-processor machine with Zakay's
// Adjusted feedback, which turns the recorded chains back into closed users,
// and measures throughput and response times per class.
package semiopen
