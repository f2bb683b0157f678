// Package lublin implements the Lublin-Feitelson model of rigid parallel jobs
// (U. Lublin and D. G. Feitelson, "The workload on parallel supercomputers:
// modeling the characteristics of rigid jobs", JPDC 63(11), 2003).
//
// The generator behaves as the reference program lublin99.c, which the authors
// publish with the paper in the Parallel Workloads Archive: job sizes from a
// serial probability, a two-stage uniform on log2(size) and power-of-two
// rounding (its calc_number_of_nodes); runtimes from a hyper-Gamma on
// ln(runtime) whose first-component weight is linear in the size, clipped to
// [0, 1] and truncated at ln 12 (time_from_nodes); arrivals from a Gamma on
// ln(interarrival) interpreted in "virtual seconds" through the 48-slot daily
// cycle, with the ARAR correction and truncation at ln 13 (arrive_init,
// arrive). The program's batch/interactive ("typed") and whole-sample
// parameter sets are the defaults. Output is a slice of swf.Job plus an
// swf.Header recording the model, parameters, seed and generator version; the
// same configuration and seed always produce the same jobs.
//
// Differences from the C program, all distribution-preserving: random numbers
// come from math/rand/v2's PCG instead of drand48, and Gamma variates from
// gonum's Marsaglia-Tsang sampler instead of Jöhnk's method (our choice, for
// speed), so individual jobs differ from the program's stream while the
// statistics agree (docs/validation.md).
//
// [FitLog] estimates the model's parameters from a log (sizes, runtimes per
// size group with the linear weight, peak-hour interarrivals and the daily
// cycle) and reports the goodness of fit of each part. [FitTyped] fits the
// whole log and its batch and interactive jobs (split by queue number) in
// one call, giving a typed parameter set. [FitSizeGroups] fits a free
// hyper-Gamma per size group (the paper's Table 4), and [Average] combines
// the fits of several logs into a representative set as the paper's
// "Model" rows do.
package lublin
