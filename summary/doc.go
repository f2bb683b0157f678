// Package summary characterizes a trace: the figures a researcher wants
// first (jobs, users, period, machine size, offered load, utilization,
// quantiles of runtime, processors, inter-arrival time and requested time,
// estimate accuracy) and the workload variables of Talby's thesis (Tables 2
// and 3; ../shared/spec/talby-user-session-modeling.md section 5).
package summary
