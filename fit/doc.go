// Package fit estimates the parameters of the distributions hpcwl's workload
// models use, from samples.
//
// Maximum-likelihood estimators are provided for the exponential, Gamma,
// lognormal, Weibull, log-logistic, generalized Pareto and Zipf distributions;
// mixtures (hyper-Gamma, hyper-exponential, hyper-Erlang and 1-D Gaussian
// mixtures) are fitted by expectation-maximisation, the hyper-Gamma with the
// middle-minimum initialisation of Lublin and Feitelson (The workload on
// parallel supercomputers, JPDC 63(11), 2003, section 3.2.3), Gaussian
// mixtures with model selection by BIC (T. N. Minh, L. Wolters and D. Epema, A
// realistic integrated model of parallel system workloads, CCGrid 2010,
// section VI-A). The two-stage uniform is fitted by minimising the
// Kolmogorov-Smirnov distance, the criterion Lublin and Feitelson (2003)
// evaluate it by (section 4.3). [Rank] fits a set of candidates to one sample
// and orders them by goodness of fit.
//
// Every fitter returns the fitted distribution, a [Result] with a [Status]
// (Converged or IterationLimit), the log-likelihood, the number of
// parameters and iterations, and an error for data it cannot fit (too few
// values, non-positive values where the support is positive). Samples may
// carry weights in gonum's convention: a nil weights slice means all ones.
// Numerical optimisation uses gonum/optimize.
package fit
