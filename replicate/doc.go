// Package replicate runs many resampled variants of a log through the
// simulator in parallel and summarizes each metric's distribution next to the
// original log's value: the confidence intervals of N. Zakay, Improved Realism
// and Representativeness of Workloads to Improve Reliability of Performance
// Evaluations, PhD thesis, Hebrew University, chapter 3, section 6, and the
// TBUOS comparisons of its chapter 5.
//
// Variant i is generated from the PCG stream (Seed, i), so the results are the
// same whatever the number of workers. Each variant is simulated either
// conventionally (the resampled jobs at their fixed times) or with TBUOS (the
// resampled users driven by feedback); every metric is measured over the
// generated period [0, Duration), leaving out rare-behaviour jobs, and the
// saturation detector of the same thesis (chapter 3, section 6) flags runs
// whose outstanding jobs keep growing. The original log is replayed
// conventionally and measured over its own period.
//
// The library never prints: progress goes through the [Progress]
// interface.
package replicate
