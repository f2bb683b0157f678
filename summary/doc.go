// Package summary characterizes a trace: the figures a researcher wants
// first (jobs, users, period, machine size, offered load, utilization,
// quantiles of runtime, processors, inter-arrival time and requested time,
// estimate accuracy) and the workload variables of Talby's thesis (Tables 2
// and 3; Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, Tables 2 and 3).
package summary
