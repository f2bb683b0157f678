// Package bursty implements the bursty bag-of-tasks workload model of Minh
// and Wolters (minh-wolters-bursty-bot-model.md): detection of bags of tasks
// (BoTs), the entropy-based measures of temporal and spatial burstiness, and
// the runtime/parallelism correlation of a log.
//
// A bag of tasks with time parameter Δ is a maximal run of jobs, contiguous in
// arrival order, in which successive jobs arrive at most Δ apart and all jobs
// agree on user, group, queue, executable, requested time and requested
// processors (§2.3). [Analyze] finds the bags with either the literal global
// contiguity (a job of another user in between ends a bag) or per-user
// contiguity, and summarises them as in Tables II and III of the paper; it also
// computes the normalised entropies of §5 with their Poisson and uniform
// baselines and the Pearson correlation of Table VI.
package bursty
