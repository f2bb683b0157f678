// Package locality holds the workload-structure analyses Zakay and
// Feitelson use to check that resampling keeps a log's structure (spec
// zakay-resampling-sessions-feedback.md section 8): per-user marginal
// distributions ([Users]), locality by the stack-depth algorithm
// ([StackDepth], section 8.2), locality by daily concentration into
// quantile bins ([DailyBins], section 8.3), and the Hurst parameter by
// rescaled range with its pox plot ([Hurst], section 8.4).
//
// Each analysis takes a trace.Trace, so it runs alike on an original log,
// a generated one and the record of a simulation.
package locality
