// Package scale changes the offered load of a log by the three naive
// methods of the literature: dividing the inter-arrival times, multiplying
// the runtimes, or multiplying the job sizes by a factor.
//
// Each method changes one property of the workload besides its load, and
// Talby (Talby, User Modeling of Parallel Workloads, PhD thesis, Hebrew
// University, 2006, sections 4.3 and 10.4) shows with Co-Plot that real
// systems of higher load differ from lower-load ones in the opposite
// direction: they have somewhat longer inter-arrival times, shorter
// runtimes and only weakly larger jobs. [Apply] therefore returns, beside
// the scaled log, the [Warning]s that apply to the method and factor used:
// which property of the log the method breaks, by how much, and when the
// resulting load lies where such workloads are questionable. Load changes
// that keep the log's structure are user-level resampling (package
// resample, Zakay and Feitelson) and the Lublin-Feitelson model's arrival
// rate (package gen/lublin).
package scale
