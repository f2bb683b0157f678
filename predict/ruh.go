package predict

import (
	"slices"

	"github.com/hpcwl/hpcwl/sim"
)

// RUH is the recent-user-history predictor (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, chapter 8, Listing 3,
// Listing 3): a job's prediction is a statistic of the runtimes of the last
// N jobs of its user that terminated (in termination order), capped at the
// job's estimate with Cap; with fewer than N terminated jobs (or an
// unknown user) it is the estimate. Talby's thesis uses the median of 3;
// EASY++ (Tsafrir, Etsion and Feitelson 2006) the mean of 2, capped.
//
// With Propagate, a termination revises the predictions of the user's
// waiting and running jobs (except those that have missed a deadline); a
// running job whose revised prediction is not beyond its elapsed time gets
// a new one from the miss policy. Create it with [NewRUH].
type RUH struct {
	// N is the history length, >= 1.
	N int
	// Mean uses the mean of the N runtimes instead of their median.
	Mean bool
	// Cap limits predictions to the job's estimate.
	Cap bool
	// Propagate revises the user's other jobs on every termination.
	Propagate bool
	// Miss is the deadline-miss policy; nil means [sim.EstimateThenGradual].
	Miss sim.MissPolicy

	hist map[int32][]sim.Time // last N runtimes per user, oldest first
	act  active
	buf  []sim.Time
}

// NewRUH returns an RUH predictor with an empty history.
func NewRUH(n int, mean, capped, propagate bool, miss sim.MissPolicy) *RUH {
	return &RUH{N: n, Mean: mean, Cap: capped, Propagate: propagate, Miss: miss,
		hist: map[int32][]sim.Time{}, act: newActive()}
}

// Predict implements [sim.Predictor].
func (p *RUH) Predict(j *sim.Job) sim.Time {
	h := p.hist[j.User]
	if j.User < 0 || len(h) < p.N {
		return j.Estimate
	}
	var v sim.Time
	if p.Mean {
		v = mean(h)
	} else {
		p.buf = append(p.buf[:0], h...)
		slices.Sort(p.buf)
		v = median(p.buf)
	}
	if p.Cap && v > j.Estimate {
		v = j.Estimate
	}
	return v
}

// Missed implements [sim.Predictor].
func (p *RUH) Missed(j *sim.Job, m sim.MissInfo) sim.Time {
	p.act.missed[j.ID] = true
	return missPolicy(p.Miss, sim.EstimateThenGradual{}).Next(j, m)
}

// Arrived implements [sim.LearningPredictor].
func (p *RUH) Arrived(v *sim.View, r sim.Ref, dst []sim.Update) []sim.Update {
	p.act.add(v.User(r), r)
	return dst
}

// Started implements [sim.LearningPredictor].
func (p *RUH) Started(_ *sim.View, _ sim.Ref, dst []sim.Update) []sim.Update { return dst }

// Ended implements [sim.LearningPredictor].
func (p *RUH) Ended(v *sim.View, r sim.Ref, dst []sim.Update) []sim.Update {
	u := v.User(r)
	if u < 0 {
		return dst
	}
	p.act.remove(u, r, v.ID(r))
	h := append(p.hist[u], ran(v, r))
	if len(h) > p.N {
		copy(h, h[len(h)-p.N:])
		h = h[:p.N]
	}
	p.hist[u] = h
	if p.Propagate {
		dst = p.act.revise(v, u, dst, p.Predict)
	}
	return dst
}

func missPolicy(p, def sim.MissPolicy) sim.MissPolicy {
	if p == nil {
		return def
	}
	return p
}
