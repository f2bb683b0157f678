package bursty

import (
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/hpcwl/hpcwl/summary"
	"github.com/hpcwl/hpcwl/trace"
)

// Brief is the short form of [Report] that `hpcwl info` prints: the
// successful jobs' fraction in bags of tasks (Δ = 100 s, global
// contiguity), the runtime/processor correlation and the spatial entropy.
type Brief struct {
	Jobs           int           `json:"jobs"`
	FractionInBoTs float64       `json:"fraction_in_bots"`
	Unknown        []Attribute   `json:"unknown_attributes"`
	Correlation    summary.Float `json:"correlation"`
	SpatialNE      summary.Float `json:"spatial_ne"`
	SpatialN       int           `json:"spatial_n"`
}

// Summarize computes the [Brief] of t with the default options; nil when
// the log has no successful job with runtime and processors.
func Summarize(t *trace.Trace) *Brief {
	sel, _, _ := Select(t.Jobs, false)
	if len(sel) == 0 {
		return nil
	}
	jobs := SortByArrival(sel)
	b := &Brief{Jobs: len(jobs), Unknown: []Attribute{}}
	var known []Attribute
	known, unknown := KnownAttributes(jobs)
	b.Unknown = append(b.Unknown, unknown...)
	in := 0
	for _, bag := range DetectBoTs(jobs, 100, known, Global) {
		if len(bag) > 1 {
			in += len(bag)
		}
	}
	b.FractionInBoTs = float64(in) / float64(len(jobs))
	run := make([]float64, len(jobs))
	pf := make([]float64, len(jobs))
	procs := make([]int, len(jobs))
	for i := range jobs {
		run[i] = float64(jobs[i].Runtime)
		procs[i] = int(value(&jobs[i], RequestedProcs))
		pf[i] = float64(procs[i])
	}
	b.Correlation = summary.Float(stat.Correlation(run, pf, nil))
	b.SpatialN = slices.Max(procs)
	b.SpatialNE = summary.Float(SpatialNE(run, procs, b.SpatialN))
	return b
}
