// Package sched holds the job schedulers of the simulator, each a
// [sim.Scheduler] in its own file: [FCFS], [EASY] (with the estimate
// multiplier variant), [Conservative] backfilling, [SJF] and SJBF (EASY with
// predictions and shortest-first backfilling, [NewSJBF]). [New] builds one by
// name; [Names] lists the names.
//
// The algorithms follow spec talby-user-session-modeling.md section 11; all
// of them plan with the engine's runtime predictions ([sim.View.Prediction]),
// which are the users' requested times unless another [sim.Predictor] is
// chosen. The kill time is always the requested time.
package sched
