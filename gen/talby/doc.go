// Package talby is the generative model of parallel workloads of Talby's
// thesis (D. Talby, User Modeling of Parallel Workloads, PhD thesis, Hebrew
// University, 2006, chapters 11-13): a workload is made of users, each of
// one of four classes, who are active or not in each week and, when
// active, have a number of sessions, each of one of five classes; the jobs
// of a session depend only on its class.
//
//   - User layer (chapter 11): new users per week (log-logistic), users
//     active at start-up (Eq. 13), the user class from the median CPU work
//     and the CPU load (Table 30) with a repeat of the previous user's class
//     (Table 31).
//   - Session layer (chapter 12): the probability of a week without
//     sessions (Eq. 14, Table 32), the number of sessions of an active week
//     (generalized Pareto, Tables 33 and 34), the week of activity of
//     start-up users (Eqs. 16-17), the session class from the previous one,
//     the user class and the week of activity (Tables 35 and 36, Eq. 18),
//     and the weekly placement of sessions at least 20 minutes apart by
//     rejection (Listing 5).
//   - Job layer (chapter 13): the thesis fits but does not publish it;
//     DefaultJobs derives one from Table 21 and FitJobClass fits one per
//     session class from a log.
//
// Fitted parameters select two extensions of ours that the published
// ones do not: the activity of start-up users fitted to a log's
// (StartupUsers.Activity) and placement that redraws only session starts
// (Placement.Redraw); with them a log's fit gives the log back
// (self-consistency, docs/validation.md). Generated SWF carries users,
// and in fields 17-18 the job order within sessions; Workload.Labels gives
// the generated classes to package extswf's extended formats.
//
// DefaultParams holds the published parameters, Fit estimates them all
// from one log, Generate draws a workload, Instances draws several and
// Average summarizes them (section 14.1). The same parameters, weeks and
// seed give the same workload.
package talby
