package lublin

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/hpcwl/hpcwl/dist"
)

// MachineProcs returns the machine size the parameters describe,
// round(2^UHi) of the largest UHi in use.
func (p Params) MachineProcs() int {
	uhi := p.Whole.UHi
	if p.Mode == Typed {
		uhi = math.Max(p.Batch.UHi, p.Interactive.UHi)
	}
	return int(math.Pow(2, uhi) + 0.5)
}

// expTruncMean returns ∫_0^c e^x f(x) dx for the Gamma(α, scale β) density
// f: (1−β)^(−α)·G(c; α, β/(1−β)) when β < 1 (the Gamma's moment generating
// function restricted to [0, c]), by quadrature otherwise.
func expTruncMean(a, b, c float64) float64 {
	if b < 1 {
		g := distuv.Gamma{Alpha: a, Beta: (1 - b) / b}
		return math.Exp(-a*math.Log1p(-b)) * g.CDF(c)
	}
	g := distuv.Gamma{Alpha: a, Beta: 1 / b}
	return quad.Fixed(func(x float64) float64 { return math.Exp(x) * g.Prob(x) }, 0, c, 400, nil, 0)
}

// MaxSize is the largest job size of the class, round(2^UHi): the
// machine's size.
func (t TypeParams) MaxSize() int64 { return int64(math.Pow(2, t.UHi) + 0.5) }

// SizeDistribution returns P(size = n) for n = 1..round(2^UHi) under the size
// sampler of lublin99.c (the reference program of Lublin and Feitelson, The
// workload on parallel supercomputers, JPDC 63(11), 2003), computed exactly
// from the two-stage uniform CDF: power-of-two jobs take 2^k with the mass of
// [k−½, k+½) and the others round(2^x) = n with the mass of [log2(n−½),
// log2(n+½)). The mass of powers of two above round(2^UHi), which the
// generator draws again, is spread by normalizing.
func (t TypeParams) SizeDistribution() []float64 {
	pr := t.sizeMass()
	sum := 0.0
	for _, v := range pr {
		sum += v
	}
	if sum > 0 {
		for n := range pr {
			pr[n] /= sum
		}
	}
	return pr
}

// sizeMass is [TypeParams.SizeDistribution] before normalizing: each
// size's probability under the sampler without the redraw of sizes above
// the machine. It is linear in UProb, as the two-stage uniform's CDF is.
func (t TypeParams) sizeMass() []float64 {
	tsu := dist.TwoStageUniform{Low: t.ULow, Med: t.UMed, High: t.UHi, P: t.UProb}
	nmax := int(t.MaxSize())
	pr := make([]float64, nmax+1)
	pr[1] += t.SerialProb
	for k := 0; float64(k) <= t.UHi+0.5; k++ {
		m := tsu.CDF(float64(k)+0.5) - tsu.CDF(float64(k)-0.5)
		if n := 1 << k; n <= nmax && m > 0 {
			pr[n] += t.Pow2Prob * m
		}
	}
	other := 1 - t.SerialProb - t.Pow2Prob
	for n := 1; n <= nmax; n++ {
		lo := math.Inf(-1)
		if n > 1 {
			lo = math.Log2(float64(n) - 0.5)
		}
		pr[n] += other * (tsu.CDF(math.Log2(float64(n)+0.5)) - tsu.CDF(lo))
	}
	return pr
}

// MeanRuntime returns the expected runtime in seconds of a job of n
// processors: the mean of e^X for X ~ HG(A1, B1, A2, B2, p(n)) truncated at
// 12, less ½ s for the truncation to whole seconds (as lublin99.c truncates).
func (t TypeParams) MeanRuntime(n int) float64 {
	p := math.Min(1, math.Max(0, t.PA*float64(n)+t.PB))
	i1, i2 := expTruncMean(t.A1, t.B1, maxLogRuntime), expTruncMean(t.A2, t.B2, maxLogRuntime)
	f1 := distuv.Gamma{Alpha: t.A1, Beta: 1 / t.B1}.CDF(maxLogRuntime)
	f2 := distuv.Gamma{Alpha: t.A2, Beta: 1 / t.B2}.CDF(maxLogRuntime)
	return (p*i1+(1-p)*i2)/(p*f1+(1-p)*f2) - 0.5
}

// MeanInterarrival returns the long-run mean interarrival time in seconds of
// the class's arrival stream: E[e^G | G <= 13] for G ~ Gamma(AArr·ARAR, BArr)
// (arrival times are kept exact and truncated only on output, so no rounding
// term). The daily cycle redistributes arrivals over the day but its weights
// average 1, so it leaves this mean unchanged (Lublin and Feitelson (2003),
// section 7.3, the third method).
func (t TypeParams) MeanInterarrival() float64 {
	a := t.AArr * t.ARAR
	f := distuv.Gamma{Alpha: a, Beta: 1 / t.BArr}.CDF(maxLogInterarrival)
	return expTruncMean(a, t.BArr, maxLogInterarrival) / f
}

// MeanWork returns E[runtime × size] in processor-seconds for the class.
func (t TypeParams) MeanWork() float64 {
	w := 0.0
	for n, pr := range t.SizeDistribution() {
		if pr > 0 {
			w += pr * float64(n) * t.MeanRuntime(n)
		}
	}
	return w
}

// ExpectedLoad returns the long-run offered load of the parameters on their
// machine: Σ over classes of E[runtime·size] / (P · mean interarrival), P =
// [Params.MachineProcs]. This is the exact expectation of the load formula Σ
// r_i n_i / (P · max a_i) as the run grows, without assuming runtime and size
// independent.
func ExpectedLoad(p Params) float64 {
	procs := float64(p.MachineProcs())
	if p.Mode == Whole {
		return p.Whole.MeanWork() / p.Whole.MeanInterarrival() / procs
	}
	return (p.Batch.MeanWork()/p.Batch.MeanInterarrival() +
		p.Interactive.MeanWork()/p.Interactive.MeanInterarrival()) / procs
}

// ExpectedRate returns the long-run arrival rate of the parameters, in jobs
// per second: the sum over the classes in use of 1 / mean interarrival.
func ExpectedRate(p Params) float64 {
	if p.Mode == Whole {
		return 1 / p.Whole.MeanInterarrival()
	}
	return 1/p.Batch.MeanInterarrival() + 1/p.Interactive.MeanInterarrival()
}

// CalibrateRate returns p with AArr of every class in use multiplied by a
// common factor chosen so that [ExpectedRate] equals perSecond, and the
// factor, as [CalibrateLoad] does for the load.
func CalibrateRate(p Params, perSecond float64) (Params, float64, error) {
	if !(perSecond > 0) {
		return p, 0, fmt.Errorf("%w: arrival rate %v: must be > 0", ErrInvalidParams, perSecond)
	}
	q, f, err := calibrate(p, perSecond, ExpectedRate)
	if err != nil {
		return p, 0, fmt.Errorf("%w: arrival rate %.4g jobs/day is out of reach of the arrival parameters: %v", ErrInvalidParams, perSecond*86400, err)
	}
	return q, f, nil
}

// calibrate finds the factor on AArr that makes measure(p) equal target;
// measure decreases as the factor grows (longer interarrivals).
func calibrate(p Params, target float64, measure func(Params) float64) (Params, float64, error) {
	scaled := func(f float64) Params {
		q := p
		q.Whole.AArr *= f
		q.Batch.AArr *= f
		q.Interactive.AArr *= f
		return q
	}
	lo, hi := 0.05, 1.0
	for hi < 50 && scaled(hi*1.25).Validate() == nil {
		hi *= 1.25
	}
	vmax, vmin := measure(scaled(lo)), measure(scaled(hi))
	if target > vmax || target < vmin {
		return p, 0, fmt.Errorf("reachable range [%.3g, %.3g]", vmin, vmax)
	}
	for i := 0; i < 200 && hi-lo > 1e-9*hi; i++ {
		mid := (lo + hi) / 2
		if measure(scaled(mid)) > target {
			lo = mid
		} else {
			hi = mid
		}
	}
	f := (lo + hi) / 2
	q := scaled(f)
	return q, f, q.Validate()
}

// CalibrateLoad returns p with AArr of every class in use multiplied by a
// common factor chosen so that [ExpectedLoad] equals target, and the factor
// (found by bisection to 1e-9 relative). Changing the peak interarrival shape
// lengthens or shortens interarrivals without touching the daily cycle, sizes
// or runtimes, as the program's comments advise. An unreachable target is an
// error naming the reachable range.
func CalibrateLoad(p Params, target float64) (Params, float64, error) {
	if !(target > 0) {
		return p, 0, fmt.Errorf("%w: load %v: must be > 0", ErrInvalidParams, target)
	}
	scaled := func(f float64) Params {
		q := p
		q.Whole.AArr *= f
		q.Batch.AArr *= f
		q.Interactive.AArr *= f
		return q
	}
	// Keep the truncated interarrival distributions meaningful: the factor
	// range is limited so that the Gamma keeps mass below ln 13.
	lo, hi := 0.05, 1.0
	for hi < 50 && scaled(hi*1.25).Validate() == nil {
		hi *= 1.25
	}
	lmax, lmin := ExpectedLoad(scaled(lo)), ExpectedLoad(scaled(hi))
	if target > lmax || target < lmin {
		return p, 0, fmt.Errorf("%w: load %v is out of reach of the arrival parameters: reachable range [%.3g, %.3g]", ErrInvalidParams, target, lmin, lmax)
	}
	for i := 0; i < 200 && hi-lo > 1e-9*hi; i++ {
		mid := (lo + hi) / 2
		if ExpectedLoad(scaled(mid)) > target {
			lo = mid
		} else {
			hi = mid
		}
	}
	f := (lo + hi) / 2
	q := scaled(f)
	return q, f, q.Validate()
}
