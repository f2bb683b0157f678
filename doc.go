// Package hpcwl is the root of a toolkit for workloads and evaluations of HPC
// job schedulers; the command is cmd/hpcwl.
//
// Packages:
//
//	swf      streaming reader and writer of the Standard Workload Format
//	trace    a workload log in memory: jobs, header, machine size, local time
//	summary  characterization of a log (hpcwl info)
//	clean    filters and flurry detection (hpcwl clean)
//	batsim   Batsim JSON workloads (hpcwl convert)
//	builtin  logs embedded in the binary ("builtin:KTH-SP2")
//	dist     probability distributions in gonum's shape
//	fit      maximum-likelihood and EM fitting, model selection
//	stats    goodness of fit, autocorrelation, self-similarity
//	gen/lublin the Lublin-Feitelson model
//	gen/talby Talby's model of users, sessions and jobs: generation and fitting
//	metamodel Talby's parametric meta-model (hpcwl metamodel)
//	sim      the deterministic event-driven simulator
//	sched    scheduling policies for the simulator
//	metrics  per-job and per-run performance metrics
//	session  sessions, batches and dependency graphs
//	feedback job sources whose users react to the simulation
//	semiopen semi-open models of throughput: mixed open/closed, re-open
//	resample user-based resampling and TBUOS
//	locality locality of sampling and self-similarity checks
//	replicate many resampled variants with confidence intervals
package hpcwl
