package replicate

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Paired compares one metric between two runs of the same variants (two
// schedulers, say): B - A variant by variant.
type Paired struct {
	Metric string `json:"metric"`
	// N counts the variants compared: those saturated in neither run.
	N int `json:"n"`
	// MeanA and MeanB are the metric's means over those variants.
	MeanA float64 `json:"mean_a"`
	MeanB float64 `json:"mean_b"`
	// Diff is the mean of the differences B - A and SD their standard
	// deviation; CILow and CIHigh the 95% confidence interval of Diff
	// (Student's t with N-1 degrees of freedom), NaN for fewer than two
	// variants. An interval that excludes 0 says the difference is not
	// the luck of the variants.
	Diff   float64 `json:"diff"`
	SD     float64 `json:"sd"`
	CILow  float64 `json:"ci_low"`
	CIHigh float64 `json:"ci_high"`
	// Lower counts the variants where B is below A.
	Lower int `json:"b_lower"`
}

// ErrNotPaired is returned by [PairedDiffs] for runs of different variants.
var ErrNotPaired = errors.New("replicate: the runs are not of the same variants")

// PairedDiffs compares runs a and b, made with the same generator options
// (the same seed and variants) and different schedulers, metric by metric.
// Pairing removes the variation between variants, which dominates each
// run's own spread: the interval of the difference is far narrower than the
// two intervals side by side. Under conventional replication the variants
// are the same workloads, which is checked (equal job counts); under TBUOS
// the workload depends on the schedule, and the pairing is by random
// stream.
func PairedDiffs(a, b *Result) ([]Paired, error) {
	if len(a.Variants) != len(b.Variants) {
		return nil, fmt.Errorf("%w: %d and %d variants", ErrNotPaired, len(a.Variants), len(b.Variants))
	}
	if a.Mode != b.Mode {
		return nil, fmt.Errorf("%w: modes %s and %s", ErrNotPaired, a.Mode, b.Mode)
	}
	if a.Mode == Conventional.String() {
		for i := range a.Variants {
			if a.Variants[i].Jobs != b.Variants[i].Jobs {
				return nil, fmt.Errorf("%w: variant %d has %d jobs in one and %d in the other", ErrNotPaired, i, a.Variants[i].Jobs, b.Variants[i].Jobs)
			}
		}
	}
	var out []Paired
	for _, name := range MetricNames {
		if name == "jobs" {
			continue
		}
		var xa, xb, d []float64
		p := Paired{Metric: name}
		for i := range a.Variants {
			if a.Variants[i].Saturated || b.Variants[i].Saturated {
				continue
			}
			va, vb := a.Variants[i].Value(name), b.Variants[i].Value(name)
			xa, xb, d = append(xa, va), append(xb, vb), append(d, vb-va)
			if vb < va {
				p.Lower++
			}
		}
		p.N = len(d)
		p.MeanA, p.MeanB, p.Diff, p.SD = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		p.CILow, p.CIHigh = math.NaN(), math.NaN()
		if p.N > 0 {
			p.MeanA, p.MeanB = stat.Mean(xa, nil), stat.Mean(xb, nil)
			p.Diff = stat.Mean(d, nil)
			p.SD = 0
		}
		if p.N >= 2 {
			p.SD = stat.StdDev(d, nil)
			t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(p.N - 1)}.Quantile(0.975)
			h := t * p.SD / math.Sqrt(float64(p.N))
			p.CILow, p.CIHigh = p.Diff-h, p.Diff+h
		}
		out = append(out, p)
	}
	return out, nil
}
