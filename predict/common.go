package predict

import (
	"slices"

	"github.com/hpcwl/hpcwl/sim"
)

// active tracks each user's waiting and running jobs, the jobs whose
// predictions propagation revises, and the jobs that missed a deadline
// (whose predictions came from the miss policy and are not revised).
type active struct {
	byUser map[int32][]sim.Ref
	missed map[int64]bool
}

func newActive() active {
	return active{byUser: map[int32][]sim.Ref{}, missed: map[int64]bool{}}
}

func (a *active) add(user int32, r sim.Ref) {
	if user < 0 {
		return
	}
	a.byUser[user] = append(a.byUser[user], r)
}

func (a *active) remove(user int32, r sim.Ref, id int64) {
	delete(a.missed, id)
	rs := a.byUser[user]
	if i := slices.Index(rs, r); i >= 0 {
		rs[i] = rs[len(rs)-1]
		rs = rs[:len(rs)-1]
	}
	if len(rs) == 0 {
		delete(a.byUser, user)
		return
	}
	a.byUser[user] = rs
}

// revise appends an update for every waiting or running job of user that
// has not missed a deadline and whose prediction by predict differs from
// its current one.
func (a *active) revise(v *sim.View, user int32, dst []sim.Update, predict func(j *sim.Job) sim.Time) []sim.Update {
	for _, q := range a.byUser[user] {
		j := v.Job(q)
		if a.missed[j.ID] {
			continue
		}
		if p := predict(&j); p != v.Prediction(q) {
			dst = append(dst, sim.Update{Job: q, Prediction: p})
		}
	}
	return dst
}

// ran returns the time terminated job r ran.
func ran(v *sim.View, r sim.Ref) sim.Time { return v.End(r) - v.Start(r) }

// median returns the median of sorted (non-empty): the middle value, or
// the mean of the two middle values rounded to the nearest second (halves
// up).
func median(sorted []sim.Time) sim.Time {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2] + 1) / 2
}

// mean returns the mean of xs (non-empty), rounded to the nearest second
// (halves up).
func mean(xs []sim.Time) sim.Time {
	var s sim.Time
	for _, x := range xs {
		s += x
	}
	n := sim.Time(len(xs))
	return (2*s + n) / (2 * n)
}

// insertSorted inserts x into the ascending slice xs.
func insertSorted(xs []sim.Time, x sim.Time) []sim.Time {
	i, _ := slices.BinarySearch(xs, x)
	return slices.Insert(xs, i, x)
}
