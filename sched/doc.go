// Package sched holds the job schedulers of the simulator, each a
// [sim.Scheduler] in its own file: [FCFS], [EASY] (with the estimate
// multiplier variant), [Conservative] backfilling, [SJF] and SJBF (EASY with
// predictions and shortest-first backfilling, [NewSJBF]), [UPS], [Maui] and
// [Flex] (slack-based backfilling). The adaptive schedulers [WBAS] and [PBAS]
// (also indirect PBAS, whose candidates are PBAS configurations) switch
// between candidates that can take over a running simulation
// ([sim.Restorer]); PBAS measures the inactive ones by shadow simulations
// ([sim.Fork]). [New] builds one by name; [Names] lists the names, [Params]
// a policy's named parameters ([Options.Params]).
//
// The adaptive schedulers' design: only the active candidate is driven by
// the engine; on a switch the new one rebuilds its queue, reservations and
// running set from the [sim.View] (Restore), so no scheduler needs to
// snapshot its internals. PBAS's shadows are copies of the engine's state
// forked at each decision point, fed the real arrivals and run lazily up to
// the next one, where they are measured and forked anew from the real
// state (the thesis' synchronisation).
//
// The algorithms follow Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, chapters 2, 7 and 8; all
// of them plan with the engine's runtime predictions ([sim.View.Prediction]),
// which are the users' requested times unless another [sim.Predictor] is
// chosen. The kill time is always the requested time.
package sched
