// Package predict provides runtime predictors for backfilling schedulers that
// learn from the users' history (Talby, User Modeling of Parallel Workloads,
// PhD thesis, Hebrew University, 2006, chapter 8): RUH, the
// recent-user-history predictor (EASY++ of Tsafrir, Etsion and Feitelson 2006,
// and the median-of-three variant of Talby's thesis), and SBH, the
// session-based-history predictor, with and without user estimates.
//
// All predictors implement [sim.Predictor]; the history predictors also
// implement [sim.LearningPredictor]: the engine tells them when a job
// arrives (so that they learn its [sim.Ref]), starts and terminates, and
// they may revise the predictions of the same user's waiting and running
// jobs when a job terminates (propagation). A predictor holds the state of
// one run: build a new one for every run with [New].
//
// History is what the simulation produced: a job's runtime is the time it ran
// in the simulation (its end minus its start), learnt when it terminates, and
// sessions are cut online from the simulated terminations (a user's job joins
// the session of the user's previous submitted job if that job is still
// running or waiting, or ended less than the session gap before, 20 minutes by
// default; Talby (2006), sections 8.5 and 9.2.1), or, with the parameter
// sessions=recorded, taken from the log's recorded schedule by package session
// (method Last, the same 20-minute rule). The executable an SBH criterion
// compares is not part of [sim.Job]: a predictor built for a trace reads it
// from trace.Trace.Jobs[j.Index].App (-1 when unknown, and -1 equals -1).
//
// Propagation (parameter prop) recomputes, when a job terminates, the
// predictions of its user's waiting and running jobs; a job that has missed a
// deadline keeps the prediction its miss policy gave, and a running job whose
// recomputed prediction is not beyond its elapsed time is treated as missing
// its deadline. A deadline miss itself adds nothing to the history (a
// pseudo-runtime on a miss, an option the thesis does not describe, is not
// implemented), so it is not propagated.
//
// [New] builds a predictor from a specification such as "ruh",
// "ruh:n=2,stat=mean", "sbh:crit=PE/P/E/*,search=dfs" or
// "sbh-noest-balanced"; [Names] lists the valid names and [Usage] their
// parameters.
package predict
