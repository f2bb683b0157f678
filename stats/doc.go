// Package stats provides the goodness-of-fit tests, descriptive summaries
// and time-series estimators that hpcwl's workload characterisation uses,
// built on gonum's stat package.
//
// Goodness of fit: Kolmogorov-Smirnov one- and two-sample tests with
// asymptotic p-values, the sub-sample KS procedure of Lublin and Feitelson
// (The workload on parallel supercomputers, JPDC 63(11), 2003, sections 3.3
// and 5.1: full logs fail the test, random sub-samples of 500-1000 jobs pass),
// chi-square tests (against expected counts, against a simulated sample, and
// the 48-slot daily-cycle metric) and Anderson-Darling.
//
// Time series: the autocorrelation function (Talby, User Modeling of Parallel
// Workloads, PhD thesis, Hebrew University, 2006, chapter 5) with a
// pairwise-complete variant for series with missing bins, and three
// Hurst-parameter estimators (Talby (2006), section 5.4): rescaled range with
// the pox-plot points, variance-time and periodogram.
//
// Functions take plain float64 slices so they can be used on any series;
// trace-level helpers live with the models that need them.
package stats
