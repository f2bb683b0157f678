// Package stats provides the goodness-of-fit tests, descriptive summaries
// and time-series estimators that hpcwl's workload characterisation uses,
// built on gonum's stat package.
//
// Goodness of fit: Kolmogorov-Smirnov one- and two-sample tests with
// asymptotic p-values, the sub-sample KS procedure of Lublin and Feitelson
// (lublin-feitelson-rigid-jobs-model.md §3.3: full logs fail the test, random
// sub-samples of 500-1000 jobs pass), chi-square tests (against expected
// counts, against a simulated sample, and the 48-slot daily-cycle metric)
// and Anderson-Darling.
//
// Time series: the autocorrelation function (talby-user-session-modeling.md
// §9.2) with a pairwise-complete variant for series with missing bins, and
// three Hurst-parameter estimators (§9.5): rescaled range with the pox-plot
// points, variance-time and periodogram.
//
// Functions take plain float64 slices so they can be used on any series;
// trace-level helpers live with the models that need them.
package stats
