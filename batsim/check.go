package batsim

import (
	"fmt"
	"strings"

	"github.com/hpcwl/hpcwl/trace"
)

// Doubtful counts the jobs that [Write] exports with values a Batsim
// simulation cannot use as they are: "res": 0 (the processor count is 0 or
// unknown) and "subtime": -1 (the submit time is unknown). Write keeps such
// jobs, so that the workload holds every record of the log; Batsim refuses
// a job needing no resource and would submit one at time -1.
type Doubtful struct {
	NoResources int `json:"res_0"`
	NoSubmit    int `json:"subtime_unknown"`
	// First holds the job numbers of up to 5 such jobs.
	First []int64 `json:"first,omitempty"`
}

// Check returns the jobs of t that Write would export with "res": 0 or
// "subtime": -1.
func Check(t *trace.Trace) Doubtful {
	var d Doubtful
	for i := range t.Jobs {
		d.Add(&t.Jobs[i])
	}
	return d
}

// Add counts j if it is doubtful, for a trace checked job by job.
func (d *Doubtful) Add(j *trace.Job) {
	bad := false
	if j.Processors() <= 0 {
		d.NoResources++
		bad = true
	}
	if j.Submit < 0 {
		d.NoSubmit++
		bad = true
	}
	if bad && len(d.First) < 5 {
		d.First = append(d.First, j.ID)
	}
}

// Any reports whether some job is doubtful.
func (d Doubtful) Any() bool { return d.NoResources > 0 || d.NoSubmit > 0 }

// String describes the doubtful jobs in a sentence, "" when there are none.
func (d Doubtful) String() string {
	var parts []string
	if d.NoResources > 0 {
		parts = append(parts, fmt.Sprintf(`%d job(s) with "res": 0 (processor count 0 or unknown)`, d.NoResources))
	}
	if d.NoSubmit > 0 {
		parts = append(parts, fmt.Sprintf(`%d job(s) with "subtime": -1 (submit time unknown)`, d.NoSubmit))
	}
	if len(parts) == 0 {
		return ""
	}
	ids := make([]string, len(d.First))
	for i, id := range d.First {
		ids[i] = fmt.Sprint(id)
	}
	return strings.Join(parts, " and ") + " exported as they are (jobs " + strings.Join(ids, ", ") +
		"); Batsim cannot run them: remove them first (hpcwl clean) or expect Batsim to reject the workload"
}
