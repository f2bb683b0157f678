// Package temporal measures the temporal structure of a log the way Talby
// does to compare production logs with synthetic models (D. Talby, User
// Modeling of Parallel Workloads, PhD thesis, Hebrew University, 2006,
// chapter 5 and Appendix C, Tables 37-39): five series per time bin (number
// of jobs; mean runtime, processors, total CPU work and inter-arrival time of
// the jobs arriving in the bin) and their autocorrelation at the lags that
// show locality of sampling (15- and 150-minute bins, lag 1), the daily
// cycle (6-hour bins, lags 2 and 4) and the weekly cycle (1-day bins, lag 7).
package temporal
