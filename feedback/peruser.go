package feedback

import (
	"math"

	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// UserLateness is one user's lateness in a feedback replay (Madon, Da
// Costa and Pierson, Replay with Feedback, 2024, Figs. 4 and 5): eq. 3, 4
// and 6 applied to the user's own jobs.
type UserLateness struct {
	User int32 `json:"user" parquet:"user"`
	// Jobs counts the user's submitted jobs n.
	Jobs int `json:"jobs" parquet:"jobs"`
	// Mean is the user's mean lateness in seconds (eq. 3).
	Mean float64 `json:"mean_s" parquet:"mean_lateness_s"`
	// Relative is 1 + Mean over the span of the user's recorded submits
	// (eq. 4), NaN for a user whose jobs were all submitted at one time.
	Relative float64 `json:"relative" parquet:"relative_lateness"`
	// Additional is 2 Mean / (n - 1), in seconds (eq. 6), NaN for a user
	// of one job.
	Additional float64 `json:"additional_s" parquet:"additional_lateness_s"`
}

// PerUserLateness returns the lateness of every user with a known ID and
// at least one submitted job, by user ID, from the simulated submits sub
// (indexed like t.Jobs; negative entries are left out).
func PerUserLateness(t *trace.Trace, sub []sim.Time) []UserLateness {
	var out []UserLateness
	for _, u := range t.Users() {
		if u.ID < 0 {
			continue
		}
		var s float64
		n := 0
		first, last := int64(math.MaxInt64), int64(math.MinInt64)
		for _, ix := range u.Jobs {
			if sub[ix] < 0 {
				continue
			}
			a := t.Jobs[ix].Submit
			s += float64(int64(sub[ix]) - a)
			first, last = min(first, a), max(last, a)
			n++
		}
		if n == 0 {
			continue
		}
		l := UserLateness{User: u.ID, Jobs: n, Mean: s / float64(n), Relative: math.NaN(), Additional: math.NaN()}
		if last > first {
			l.Relative = 1 + l.Mean/float64(last-first)
		}
		if n > 1 {
			l.Additional = 2 * l.Mean / float64(n-1)
		}
		out = append(out, l)
	}
	return out
}

// SubmitDifferences returns, for every job submitted in both runs, its
// submit time in a minus its submit time in b (indexed like the log's
// jobs; negative entries mean not submitted), and their distribution: the
// figure Madon et al. (2024, Fig. 7) draw between two replays, e.g. two
// session partitionings (a60 and a0), or rigid and feedback (then the
// difference is the lateness).
func SubmitDifferences(a, b []sim.Time) ([]int64, session.Dist) {
	d := make([]int64, 0, len(a))
	for i := range a {
		if i < len(b) && a[i] >= 0 && b[i] >= 0 {
			d = append(d, int64(a[i]-b[i]))
		}
	}
	return d, session.Summarize(append([]int64(nil), d...))
}
