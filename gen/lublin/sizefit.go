package lublin

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/optimize"
)

// fitDiscreteTSU fits ULow, UMed and UProb of the size model to the sizes of
// parallel jobs (counts[n] jobs of n processors, n >= 2) with UHi = hi fixed,
// by maximum likelihood under the sizes the generator actually draws (the
// discrete distribution of [TypeParams.SizeDistribution], with the log's
// serial fraction serial and power-of-two fraction pow2 of all jobs),
// subject to the model's mean size being target, the log's: UProb
// follows from ULow and UMed through that constraint. The offered load is
// proportional to the mean size, and a two-stage uniform that reaches the
// machine size (the paper's rule UHi = log2 P) fitted by likelihood alone
// puts too much mass on the widest jobs of a log with few of them (2.7
// times the mean size of SDSC-BLUE).
//
// A continuous two-stage uniform fitted to log2 of the sizes (the paper's
// procedure, Lublin and Feitelson (2003), section 4.3) sees point masses at
// the powers of two that it cannot represent; on a log whose sizes are
// multiples of 8 it put almost half the mass in a sliver below the smallest
// size, and the generator then rounded that mass to sizes the log never has.
// Fitting the discrete distribution the generator samples from avoids both.
// ULow is bounded below by log2(min − ½), min the smallest parallel size
// of the log, so that no draw rounds to a size below it. UMed is free in
// (ULow, UHi): the reference program's advice UMed in [UHi − 3.5, UHi − 1.5]
// holds for the paper's logs, not for every log. Nelder-Mead from three
// starts over logistic transforms of the constrained parameters.
func fitDiscreteTSU(counts map[int64]int, hi, serial, pow2, target float64) (TSUParams, error) {
	minPar := int64(math.MaxInt64)
	for n := range counts {
		if n >= 2 {
			minPar = min(minPar, n)
		}
	}
	if minPar == math.MaxInt64 {
		return TSUParams{}, fmt.Errorf("%w: no parallel jobs", ErrTooFewJobs)
	}
	lmin := math.Log2(float64(minPar) - 0.5)
	if !(hi > lmin) {
		return TSUParams{}, fmt.Errorf("%w: the largest size 2^%.3g is not above the smallest parallel size %d", ErrTooFewJobs, hi, minPar)
	}
	sig := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	logit := func(p float64) float64 {
		p = math.Min(math.Max(p, 1e-6), 1-1e-6)
		return math.Log(p / (1 - p))
	}
	mass := func(p TSUParams) []float64 {
		return TypeParams{SerialProb: serial, Pow2Prob: pow2, ULow: p.Low, UMed: p.Med, UHi: hi, UProb: p.P}.sizeMass()
	}
	moments := func(u []float64) (s, m float64) {
		for n, v := range u {
			s += v
			m += float64(n) * v
		}
		return s, m
	}
	// withMean sets P so that the model's mean size is target. The
	// unnormalized masses are linear in P, u = P·u1 + (1−P)·u0, so the mean
	// (P·M1 + (1−P)·M0) / (P·S1 + (1−P)·S0) = target is solved directly.
	// When no P in [0, 1] reaches it, P is the nearest bound and miss > 0
	// is the relative distance to the target.
	withMean := func(p TSUParams) (TSUParams, []float64, float64) {
		p.P = 0
		u0 := mass(p)
		p.P = 1
		u1 := mass(p)
		s0, m0 := moments(u0)
		s1, m1 := moments(u1)
		pp := 0.0
		if d := target*(s1-s0) - m1 + m0; d != 0 {
			pp = (m0 - target*s0) / d
		}
		pp = math.Min(1, math.Max(0, pp))
		pr := make([]float64, len(u0))
		sum := 0.0
		for n := range pr {
			pr[n] = pp*u1[n] + (1-pp)*u0[n]
			sum += pr[n]
		}
		mean := 0.0
		for n := range pr {
			pr[n] /= sum
			mean += float64(n) * pr[n]
		}
		p.P = pp
		return p, pr, math.Abs(mean-target) / target
	}
	decode := func(x []float64) TSUParams {
		low := lmin + (hi-lmin)*sig(x[0])*0.999
		// The logistic saturates to exactly 0 or 1 in floating point when
		// the search runs far out (sizes spread evenly up to the machine
		// size push u_med to u_hi): keep u_med strictly inside (u_low,
		// u_hi), as the model requires.
		f := math.Min(math.Max(sig(x[1]), 1e-6), 1-1e-6)
		return TSUParams{Low: low, Med: low + (hi-low)*f, High: hi}
	}
	encode := func(p TSUParams) []float64 {
		return []float64{logit((p.Low - lmin) / (0.999 * (hi - lmin))), logit((p.Med - p.Low) / (hi - p.Low))}
	}
	// The sizes in increasing order: summing over the map would add in a
	// random order, and the last bits of the likelihood, hence the
	// optimizer's path and the fitted values, would change from run to run.
	type sizeCount struct {
		n int64
		c int
	}
	var par []sizeCount
	total := 0
	for n, c := range counts {
		if n >= 2 {
			par = append(par, sizeCount{n, c})
			total += c
		}
	}
	slices.SortFunc(par, func(a, b sizeCount) int { return cmp.Compare(a.n, b.n) })
	nll := func(x []float64) float64 {
		_, pr, miss := withMean(decode(x))
		s := 0.0
		for _, sc := range par {
			n, c := sc.n, sc.c
			if n >= int64(len(pr)) {
				continue
			}
			// Parallel sizes given that the job is parallel.
			s -= float64(c) * math.Log(math.Max(pr[n]/(1-pr[1]), 1e-300))
		}
		// An unreachable mean costs as much as halving the likelihood of
		// every job per 10 % missed, which steers the search back.
		return s + float64(total)*miss*10*math.Ln2
	}
	lo := math.Max(lmin, math.Log2(float64(minPar))-0.2)
	starts := []TSUParams{
		{Low: lo, Med: lo + 0.5*(hi-lo)},
		{Low: lo, Med: lo + 0.2*(hi-lo)},
		{Low: lo, Med: lo + 0.8*(hi-lo)},
	}
	best, bestV := TSUParams{}, math.Inf(1)
	for _, s := range starts {
		res, err := optimize.Minimize(optimize.Problem{Func: nll}, encode(s), &optimize.Settings{MajorIterations: 2000}, &optimize.NelderMead{})
		if res == nil {
			if err != nil {
				return TSUParams{}, fmt.Errorf("fitting the size distribution: %w", err)
			}
			continue
		}
		if res.F < bestV {
			best, _, _ = withMean(decode(res.X))
			bestV = res.F
		}
	}
	if math.IsInf(bestV, 1) {
		return TSUParams{}, fmt.Errorf("fitting the size distribution: no start converged")
	}
	return best, nil
}

// sizeKS returns the Kolmogorov-Smirnov distance between the sizes of a log
// (counts[n] jobs of n processors) and the discrete distribution pr (pr[n] =
// P(size = n)), taken over every integer size.
func sizeKS(counts map[int64]int, pr []float64) float64 {
	total := 0
	for _, c := range counts {
		total += c
	}
	nmax := int64(len(pr) - 1)
	for n := range counts {
		nmax = max(nmax, n)
	}
	var d, fe, fm float64
	for n := int64(1); n <= nmax; n++ {
		fe += float64(counts[n]) / float64(total)
		if n < int64(len(pr)) {
			fm += pr[n]
		}
		d = math.Max(d, math.Abs(fe-fm))
	}
	return d
}
