package semiopen

import (
	"slices"

	"gonum.org/v1/gonum/stat"
)

// Runtimes summarizes a sample of job service times.
type Runtimes struct {
	// N is the sample size.
	N int `json:"n"`
	// Mean, Median and P90 are the sample's mean, lower median and 90th
	// percentile (rank ceil(p n)); 0 for an empty sample.
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
}

func runtimesOf(sorted []float64) Runtimes {
	r := Runtimes{N: len(sorted)}
	if len(sorted) == 0 {
		return r
	}
	r.Mean = stat.Mean(sorted, nil)
	r.Median = stat.Quantile(0.5, stat.Empirical, sorted, nil)
	r.P90 = stat.Quantile(0.9, stat.Empirical, sorted, nil)
	return r
}

// Bias is the runtime bias of the re-open model (Zakay's thesis, chapter 6,
// section IV-C, Fig. 8): when the continuation probability falls with the
// response time, which includes the job's own runtime, users tend to leave
// after long jobs, so the service times of "break" jobs (the last of a user)
// are stochastically larger than those of "continue" jobs, whatever the
// system's performance. With a constant p both samples come from the same
// distribution.
type Bias struct {
	// Continue and Break summarize the service times of the jobs after
	// which the user submitted another job, and of the last jobs.
	Continue Runtimes `json:"continue"`
	Break    Runtimes `json:"break"`
	// KS is the two-sample Kolmogorov-Smirnov distance between the two
	// empirical distributions, max |F_break - F_continue|.
	KS float64 `json:"ks"`
	// Reverse is the largest amount by which the break jobs' CDF exceeds
	// the continue jobs' CDF, max(F_break - F_continue, 0): 0 when break
	// jobs are stochastically larger in the sample.
	Reverse float64 `json:"reverse"`
	// Dominance is the probability that a random break job ran longer than
	// a random continue job (ties count half; the Mann-Whitney statistic
	// divided by the pairs): 0.5 without bias.
	Dominance float64 `json:"dominance"`
}

// biasOf compares the two samples; it sorts them in place. The one-sided
// distance and the dominance come from one merge of the sorted samples;
// gonum's stat.KolmogorovSmirnov gives the two-sided distance, used for KS.
func biasOf(cont, brk []float64) Bias {
	slices.Sort(cont)
	slices.Sort(brk)
	b := Bias{Continue: runtimesOf(cont), Break: runtimesOf(brk)}
	if len(cont) == 0 || len(brk) == 0 {
		return b
	}
	b.KS = stat.KolmogorovSmirnov(cont, nil, brk, nil)
	nc, nb := float64(len(cont)), float64(len(brk))
	var i, j int
	var wins float64 // pairs (break, continue) with break longer, ties half
	for i < len(cont) || j < len(brk) {
		// The next distinct value and how many of each sample hold it.
		var v float64
		switch {
		case j == len(brk) || i < len(cont) && cont[i] < brk[j]:
			v = cont[i]
		default:
			v = brk[j]
		}
		ci, bj := i, j
		for i < len(cont) && cont[i] == v {
			i++
		}
		for j < len(brk) && brk[j] == v {
			j++
		}
		tc, tb := float64(i-ci), float64(j-bj)
		wins += tb*float64(ci) + 0.5*tb*tc
		if d := float64(j)/nb - float64(i)/nc; d > b.Reverse {
			b.Reverse = d
		}
	}
	b.Dominance = wins / (nc * nb)
	return b
}
