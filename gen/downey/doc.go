// Package downey generates rigid parallel jobs from the published parts of
// Allen B. Downey's 1997 workload model of space-sharing parallel computers.
//
// Runtimes follow Downey's uniform-log lifetime distribution, the
// "conditional lifetime model" of A. B. Downey, "Predicting queue times on
// space-sharing parallel computers", 11th International Parallel Processing
// Symposium (IPPS), April 1997, section 3: the cumulative distribution of a
// job's lifetime t is linear in ln t, F(t) = β0 + β1 ln t, between
// t_min = exp(-β0/β1) and t_max = exp((1-β0)/β1). The parameters are the
// paper's least-squares fit (Figure 1) to the 24,906 batch jobs submitted to
// the 400-node Intel Paragon at SDSC during 1995: β0 = -0.18, β1 = 0.10,
// that is t_min ≈ 6 s and t_max ≈ 37 h.
//
// Sizes follow Downey's log-uniform distribution of parallelism (A. B.
// Downey, "A parallel workload model and its implications for processor
// allocation", HPDC 1997): the probability that a job uses fewer than n
// processors is proportional to ln n, between 1 and the machine size. As in
// the "pure" use of the model (Talby, User Modeling of Parallel Workloads,
// 2006, section 3), the drawn parallelism is the job's number of
// processors, rounded to the nearest integer.
//
// Arrivals are a Poisson process whose rate is either the paper's SDSC rate
// (24,906 jobs in 1995) or calibrated to a target offered load (an
// experimenter's setting, not a parameter of the model).
//
// What is not here, because its parameters could not be reached
// (docs/validation.md, "Classic models"): the HPDC model's distribution of
// total work (the bounds of its uniform-log cumulative lifetime), its
// variance of parallelism and speedup function (the model is for moldable
// jobs), the treatment of the two 12-hour halves of each day by its arrival
// process, and the IPPS
// paper's per-queue fits to the CTC SP2 (its Table 4). Runtime and size are
// therefore drawn independently: the IPPS model of lifetimes does not depend
// on the size.
package downey
