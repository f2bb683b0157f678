// Package metrics turns a simulation result into the performance figures
// of Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, chapter 2, and
// Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 5: per job wait, response
// time, slowdown and bounded slowdown; per run their mean, median, 95th
// percentile and maximum, utilization within the measured window,
// makespan, throughput, queue length over time and the fraction of jobs
// backfilled; and the same per user and per calendar month. [Accuracy]
// judges the runtime predictions (section 4.3): absolute error and
// relative accuracy of each job's prediction on arrival and, from the
// run's prediction log, weighted over the job's life (Eq. 12).
//
// All times are in seconds. Jobs submitted during an optional warm-up at
// the start or cool-down at the end are left out of the figures.
package metrics
