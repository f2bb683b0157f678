package metrics

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/hpcwl/hpcwl/sim"
)

// Paired is the difference of one per-job figure between two runs of the
// same jobs under different schedulers: b's value minus a's, job by job,
// over the jobs measured in both runs.
type Paired struct {
	// Metric is wait, response, slowdown or bounded_slowdown (the
	// definitions of [Summary]).
	Metric string `json:"metric"`
	// Jobs is the number of jobs paired.
	Jobs int `json:"jobs"`
	// A and B are the two runs' means over the paired jobs.
	A float64 `json:"mean_a"`
	B float64 `json:"mean_b"`
	// Diff is the mean difference B - A with its batch-means confidence
	// interval over the differences in order of submission (ties by job
	// number): consecutive jobs meet the same queue, so their differences
	// are correlated, and batch means sized by the autocorrelation time
	// account for that ([stats.BatchMeans]). Diff.Note says why there is
	// no interval when the run is too short for its autocorrelation.
	Diff Interval `json:"difference"`
	// Lower and Higher count the jobs whose value is lower or higher in b.
	Lower  int `json:"lower"`
	Higher int `json:"higher"`
}

// ErrNotPaired is returned by [PairedDiffs] for runs of different jobs.
var ErrNotPaired = errors.New("metrics: the runs are not of the same jobs")

// PairedDiffs compares two runs of the same jobs (the same log under two
// schedulers), job by job: for wait, response, slowdown and bounded
// slowdown, the mean of b's value minus a's over the jobs measured in both
// (each run's window under opt's warm-up and cool-down) with a
// confidence interval of level opt.CILevel (0 means 0.95). Jobs are paired
// by job number, which must be unique in each run; a job of one run
// missing from the other is an error.
//
// Pairing removes what the two runs share: most of a job's wait comes
// from the queue it meets, which both schedulers see alike, so the
// interval of the difference is far narrower than the two runs' intervals
// side by side.
func PairedDiffs(a, b *sim.Result, opt Options) ([]Paired, error) {
	level := opt.CILevel
	if level == 0 {
		level = 0.95
	}
	if !(level > 0 && level < 1) {
		return nil, fmt.Errorf("metrics: confidence level %v is not between 0 and 1", level)
	}
	if len(a.Jobs) != len(b.Jobs) {
		return nil, fmt.Errorf("%w: %d and %d jobs", ErrNotPaired, len(a.Jobs), len(b.Jobs))
	}
	if len(a.Jobs) == 0 {
		return nil, fmt.Errorf("%w: no jobs", ErrNotPaired)
	}
	tau := opt.Tau
	if tau == 0 {
		tau = 10
	}
	wa, err := measureWindow(a.Jobs, opt)
	if err != nil {
		return nil, err
	}
	wb, err := measureWindow(b.Jobs, opt)
	if err != nil {
		return nil, err
	}
	inB := make(map[int64]int, len(b.Jobs))
	for i := range b.Jobs {
		if _, dup := inB[b.Jobs[i].ID]; dup {
			return nil, fmt.Errorf("%w: job %d appears twice", ErrNotPaired, b.Jobs[i].ID)
		}
		inB[b.Jobs[i].ID] = i
	}
	type pair struct{ ia, ib int }
	var pairs []pair
	seen := make(map[int64]bool, len(a.Jobs))
	for i := range a.Jobs {
		id := a.Jobs[i].ID
		if seen[id] {
			return nil, fmt.Errorf("%w: job %d appears twice", ErrNotPaired, id)
		}
		seen[id] = true
		j, ok := inB[id]
		if !ok {
			return nil, fmt.Errorf("%w: job %d is in one run only", ErrNotPaired, id)
		}
		if wa.measured(a.Jobs, i) && wb.measured(b.Jobs, j) {
			pairs = append(pairs, pair{i, j})
		}
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("%w: no job is measured in both runs", ErrNotPaired)
	}
	slices.SortFunc(pairs, func(x, y pair) int {
		ox, oy := &a.Jobs[x.ia], &a.Jobs[y.ia]
		return cmp.Or(cmp.Compare(ox.Submit, oy.Submit), cmp.Compare(ox.ID, oy.ID))
	})
	va, vb := newVectors(len(pairs)), newVectors(len(pairs))
	for _, p := range pairs {
		va.add(&a.Jobs[p.ia], tau)
		vb.add(&b.Jobs[p.ib], tau)
	}
	out := make([]Paired, 0, 4)
	for _, m := range []struct {
		name   string
		xa, xb []float64
	}{
		{"wait", va.wait, vb.wait},
		{"response", va.resp, vb.resp},
		{"slowdown", va.sd, vb.sd},
		{"bounded_slowdown", va.bsd, vb.bsd},
	} {
		p := Paired{Metric: m.name, Jobs: len(pairs)}
		d := make([]float64, len(pairs))
		for k := range d {
			d[k] = m.xb[k] - m.xa[k]
			p.A += m.xa[k]
			p.B += m.xb[k]
			switch {
			case d[k] < 0:
				p.Lower++
			case d[k] > 0:
				p.Higher++
			}
		}
		p.A /= float64(len(d))
		p.B /= float64(len(d))
		p.Diff = interval(d, level)
		out = append(out, p)
	}
	return out, nil
}
