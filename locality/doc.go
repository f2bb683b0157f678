// Package locality holds the workload-structure analyses Zakay and Feitelson
// use to check that resampling keeps a log's structure (N. Zakay, Improved
// Realism and Representativeness of Workloads to Improve Reliability of
// Performance Evaluations, PhD thesis, Hebrew University, chapter 3, section
// 5): per-user marginal distributions ([Users]), locality by the stack-depth
// algorithm ([StackDepth], Table VI), locality by daily concentration into
// quantile bins ([DailyBins], Fig. 5), and the Hurst parameter by rescaled
// range with its pox plot ([Hurst], Figs. 6 and 7, Table VII).
//
// Each analysis takes a trace.Trace, so it runs alike on an original log,
// a generated one and the record of a simulation.
package locality
