// Package dist provides the probability distributions that hpcwl's workload
// models use and that gonum's stat/distuv does not have: the hyper-Gamma and
// two-stage uniform of the Lublin-Feitelson model, hyper-exponential and
// hyper-Erlang mixtures, the 1-D Gaussian mixture of the Minh-Wolters model,
// the truncated Zipf (power-law) distribution, the log-logistic and the
// generalized Pareto distributions.
//
// Every type has gonum's shape: a struct whose exported fields are the
// parameters, value-receiver queries (Prob, LogProb, CDF, Survival,
// Quantile, Rand, Mean, Variance, NumParameters) and, where it makes sense,
// it satisfies distuv.Rander, distuv.Quantiler and distuv.LogProber so it
// composes with gonum's samplers. Distributions gonum already has (Gamma,
// LogNormal, Weibull, Exponential, Normal, ...) are used from gonum directly.
//
// Randomness is always explicit: the Src field is a *rand.Rand from
// math/rand/v2 and Rand panics when it is nil. Unlike gonum there is no
// fallback to the global source, so every sample can be reproduced from a
// recorded seed.
//
// Parametrisation: the Lublin-Feitelson model (Lublin and Feitelson, The
// workload on parallel supercomputers, JPDC 63(11), 2003, section 3.1) uses
// the Gamma scale β (mean αβ) while gonum's distuv.Gamma uses the rate. The
// types here name the parameter they hold (Scale or Rate) to avoid that trap.
package dist
