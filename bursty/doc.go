// Package bursty implements the bursty bag-of-tasks workload model of T. N.
// Minh, L. Wolters and D. Epema, "A realistic integrated model of parallel
// system workloads", CCGrid 2010: detection of bags of tasks (BoTs), the
// entropy-based measures of temporal and spatial burstiness, and the
// runtime/parallelism correlation of a log.
//
// A bag of tasks with time parameter Δ is a maximal run of jobs, contiguous in
// arrival order, in which successive jobs arrive at most Δ apart and all jobs
// agree on user, group, queue, executable, requested time and requested
// processors (section II-C). [Analyze] finds the bags with either the literal
// global contiguity (a job of another user in between ends a bag) or per-user
// contiguity, and summarises them as in Tables II and III of the paper; it
// also computes the normalised entropies of section V with their Poisson and
// uniform baselines and the Pearson correlation of Table VI.
package bursty
