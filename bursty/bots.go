package bursty

import (
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/trace"
)

// Attribute is one of the six job attributes two jobs of the same bag of tasks
// must share (T. N. Minh, L. Wolters and D. Epema, "A realistic integrated
// model of parallel system workloads", CCGrid 2010, section II-C).
type Attribute int

const (
	// User is the user ID (SWF field 12).
	User Attribute = iota
	// Group is the group ID (field 13).
	Group
	// Queue is the queue number (field 15).
	Queue
	// Executable is the executable number (field 14), standing for the job
	// name, which SWF does not record.
	Executable
	// RequestedTime is the user's runtime estimate (field 9).
	RequestedTime
	// RequestedProcs is the requested number of processors (field 8, or the
	// allocated count of field 5 when the request is unknown).
	RequestedProcs
	numAttributes
)

var attributeNames = [numAttributes]string{"user", "group", "queue", "executable", "requested_time", "requested_procs"}

// String returns the attribute's name, e.g. "requested_time".
func (a Attribute) String() string {
	if a < 0 || a >= numAttributes {
		return "unknown"
	}
	return attributeNames[a]
}

// MarshalText encodes the attribute as its name.
func (a Attribute) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// Attributes lists the six similarity attributes in the paper's order.
func Attributes() []Attribute {
	out := make([]Attribute, numAttributes)
	for i := range out {
		out[i] = Attribute(i)
	}
	return out
}

// value returns the job's value of attribute a (-1 when unknown).
func value(j *trace.Job, a Attribute) int64 {
	switch a {
	case User:
		return int64(j.User)
	case Group:
		return int64(j.Group)
	case Queue:
		return int64(j.Queue)
	case Executable:
		return int64(j.App)
	case RequestedTime:
		return j.ReqTime
	default:
		if j.ReqProcs > 0 {
			return int64(j.ReqProcs)
		}
		return int64(j.Procs)
	}
}

// KnownAttributes splits the six attributes into those some job of jobs
// records and those unknown (-1) in every job. BoT detection compares only
// the known ones.
func KnownAttributes(jobs []trace.Job) (known, unknown []Attribute) {
	for _, a := range Attributes() {
		found := false
		for i := range jobs {
			if value(&jobs[i], a) >= 0 {
				found = true
				break
			}
		}
		if found {
			known = append(known, a)
		} else {
			unknown = append(unknown, a)
		}
	}
	return known, unknown
}

// Similar reports whether two jobs agree on every attribute in attrs. Values
// are compared literally: two unknown (-1) values are equal.
func Similar(a, b *trace.Job, attrs []Attribute) bool {
	for _, at := range attrs {
		if value(a, at) != value(b, at) {
			return false
		}
	}
	return true
}

// Contiguity says which arrival order a bag of tasks must be contiguous in.
type Contiguity int

const (
	// Global is the paper's literal definition: a bag is contiguous in the
	// arrival order of the whole log, so a job of another user in between
	// ends it.
	Global Contiguity = iota
	// PerUser requires contiguity only within the user's own jobs.
	PerUser
)

// String returns "global" or "per-user".
func (c Contiguity) String() string {
	if c == PerUser {
		return "per-user"
	}
	return "global"
}

// MarshalText encodes the contiguity as its name.
func (c Contiguity) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// SortByArrival returns the jobs sorted by submit time, then job number
// (a copy; jobs is not changed).
func SortByArrival(jobs []trace.Job) []trace.Job {
	out := slices.Clone(jobs)
	slices.SortStableFunc(out, func(a, b trace.Job) int {
		if a.Submit != b.Submit {
			if a.Submit < b.Submit {
				return -1
			}
			return 1
		}
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
	return out
}

// streams returns the index lists in which contiguity is required: one list
// of all jobs (Global) or one per user in order of first appearance
// (PerUser). jobs must be sorted by arrival.
func streams(jobs []trace.Job, c Contiguity) [][]int {
	if c == Global {
		all := make([]int, len(jobs))
		for i := range all {
			all[i] = i
		}
		return [][]int{all}
	}
	pos := map[int32]int{}
	var out [][]int
	for i := range jobs {
		k, ok := pos[jobs[i].User]
		if !ok {
			k = len(out)
			pos[jobs[i].User] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], i)
	}
	return out
}

// DetectBoTs splits jobs, which must be sorted by arrival ([SortByArrival]),
// into bags of tasks with time parameter delta (seconds): maximal runs,
// contiguous in the order c selects, of jobs similar on attrs whose successive
// arrivals are at most delta apart (Minh, Wolters and Epema (2010), section
// IV). Every job is in exactly one bag; bags of one job are included. Each bag
// lists indices into jobs in arrival order; bags are ordered by their first
// job.
func DetectBoTs(jobs []trace.Job, delta int64, attrs []Attribute, c Contiguity) [][]int {
	var bots [][]int
	for _, s := range streams(jobs, c) {
		cur := []int{s[0]}
		for _, i := range s[1:] {
			p := cur[len(cur)-1]
			if jobs[i].Submit <= jobs[p].Submit+delta && Similar(&jobs[p], &jobs[i], attrs) {
				cur = append(cur, i)
				continue
			}
			bots = append(bots, cur)
			cur = []int{i}
		}
		bots = append(bots, cur)
	}
	if c == PerUser {
		slices.SortFunc(bots, func(a, b []int) int { return a[0] - b[0] })
	}
	return bots
}

// BIA returns the BoT inter-arrival times (Minh, Wolters and Epema (2010),
// section IV): the arrival gaps between successive jobs (in the order c
// selects) that are similar on attrs, whatever the gap. jobs must be sorted by
// arrival.
func BIA(jobs []trace.Job, attrs []Attribute, c Contiguity) []float64 {
	var out []float64
	for _, s := range streams(jobs, c) {
		for k := 1; k < len(s); k++ {
			a, b := &jobs[s[k-1]], &jobs[s[k]]
			if Similar(a, b, attrs) {
				out = append(out, float64(b.Submit-a.Submit))
			}
		}
	}
	return out
}

// meanSD returns the mean and the sample standard deviation (n−1 denominator,
// our choice; 0 for one value) of the jobs' runtimes.
func meanSD(jobs []trace.Job, idx []int) (mean, sd float64) {
	for _, i := range idx {
		mean += float64(jobs[i].Runtime)
	}
	mean /= float64(len(idx))
	if len(idx) < 2 {
		return mean, 0
	}
	var ss float64
	for _, i := range idx {
		d := float64(jobs[i].Runtime) - mean
		ss += d * d
	}
	return mean, math.Sqrt(ss / float64(len(idx)-1))
}
