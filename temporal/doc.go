// Package temporal measures how a workload moves in time, as Talby does in
// chapter 5 and appendix C of his thesis (D. Talby, User Modeling of
// Parallel Workloads, PhD thesis, Hebrew University, 2006): the log is cut
// into bins of a fixed width aligned to local midnight, five series are made
// from the jobs arriving in each bin (number of jobs, runtime, processors,
// CPU work and inter-arrival time; [Bin]), and their autocorrelation at
// chosen widths and lags tests for locality of sampling (15 and 150 minutes,
// lag 1; Tables 4 and 37), the daily cycle (6 hours, lags 2 and 4; Tables 5
// and 38) and the weekly cycle (1 day, lag 7; Tables 6 and 39). The three
// Hurst estimators of section 5.4 (rescaled range, variance-time and
// periodogram, from package stats) and their mean measure self-similarity
// (Tables 7 and 40). [Analyze] runs them all.
package temporal
