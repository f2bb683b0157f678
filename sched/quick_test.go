package sched

import "github.com/hpcwl/hpcwl/sim"

// quick is set by the mutation build tag (scripts/mutation runs sched's
// tests once per mutant, hundreds of times): the comparisons with the
// textbook schedulers then replay the first quickJobs jobs of each real
// log instead of all of it, and every property test runs quickChecks
// random cases instead of rapid's 100. The textbook comparisons keep
// their meaning (the schedule must match job for job); only their size
// shrinks.
var quick bool

const (
	quickJobs   = 3000
	quickChecks = "20"
)

// prefix returns the jobs to replay: all of them, or the first quickJobs
// under the mutation tag.
func prefix(jobs []sim.Job) []sim.Job {
	if quick && len(jobs) > quickJobs {
		return jobs[:quickJobs]
	}
	return jobs
}

// Prefix gives the external tests prefix.
var Prefix = prefix
