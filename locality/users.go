package locality

import (
	"slices"

	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/trace"
)

// UserMetrics lists the per-user metrics of [Users] (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 3, section 5), in
// report order.
var UserMetrics = []string{"jobs", "sessions", "session_length", "work", "first_arrival", "last_departure", "activity", "weeks_active"}

// Users returns, for each metric of UserMetrics, one value per user (per
// user copy in a generated log), sorted: jobs; sessions (Arrival at 60
// min); average session length (last - first arrival, s); total work
// (processors x runtime, processor-seconds); first arrival and final
// departure (last end, s from the log's start); activity (departure - first
// arrival, s); and weeks active (distinct local weeks with a job). Users
// without an ID (-1) are left out.
func Users(t *trace.Trace) (map[string][]float64, error) {
	p, err := session.Identify(t, session.Default(session.Arrival))
	if err != nil {
		return nil, err
	}
	clk := t.Clock()
	out := map[string][]float64{}
	for ui := range p.Users {
		u := &p.Users[ui]
		if u.ID < 0 || u.SessionLo == u.SessionHi {
			continue
		}
		jobs, work, lenSum := 0, 0.0, 0.0
		first, dep := int64(1<<62), int64(-1<<62)
		weeks := map[int]bool{}
		for s := u.SessionLo; s < u.SessionHi; s++ {
			ss := &p.Sessions[s]
			lenSum += float64(ss.Last - ss.First)
			for _, i := range p.Jobs(int(s)) {
				j := &t.Jobs[i]
				jobs++
				work += j.Area()
				first = min(first, j.Submit)
				dep = max(dep, p.End[i])
				weeks[clk.Week(j.Submit)] = true
			}
		}
		ns := float64(u.SessionHi - u.SessionLo)
		for k, v := range map[string]float64{"jobs": float64(jobs), "sessions": ns, "session_length": lenSum / ns, "work": work,
			"first_arrival": float64(first), "last_departure": float64(dep), "activity": float64(dep - first), "weeks_active": float64(len(weeks))} {
			out[k] = append(out[k], v)
		}
	}
	for _, v := range out {
		slices.Sort(v)
	}
	return out, nil
}
