package fit

import (
	"fmt"
	"math"
	"sort"

	"github.com/hpcwl/hpcwl/dist"
)

// HyperGamma fits a two-component Gamma mixture to positive values by EM
// (Lublin and Feitelson, The workload on parallel supercomputers, JPDC 63(11),
// 2003, section 3.2.3) started from the middle-minimum initialisation
// [MiddleMinimum]: the sample is split at the deepest histogram minimum
// between two modes, each part gets its Gamma MLE, and the initial weight is
// the first part's fraction. The E-step computes z_i = p f1(x_i) / (p f1(x_i)
// + (1−p) f2(x_i)); the M-step is the weighted Gamma MLE of each component and
// p = mean z. Iteration stops when |ΔlogL| < Tolerance·|logL|.
//
// The returned distribution has the lower-mean component first (P is the
// weight of the "short" component, as in Tables 2 and 4). Its Src is nil.
// The Lublin-Feitelson model fits ln(runtime), ln(interarrival) and
// ln(total work), which the caller computes.
func HyperGamma(x []float64, s *Settings) (dist.HyperGamma, Result, error) {
	if err := needN("hyper-gamma", x, 10); err != nil {
		return dist.HyperGamma{}, Result{}, err
	}
	if err := needPositive("hyper-gamma", x); err != nil {
		return dist.HyperGamma{}, Result{}, err
	}
	h, err := MiddleMinimum(x)
	if err != nil {
		return dist.HyperGamma{}, Result{}, err
	}
	return hyperGammaEM(x, h, s)
}

// HyperGammaFrom runs the EM of [HyperGamma] from the given starting
// parameters instead of the middle-minimum initialisation.
func HyperGammaFrom(x []float64, start dist.HyperGamma, s *Settings) (dist.HyperGamma, Result, error) {
	if err := needN("hyper-gamma", x, 10); err != nil {
		return dist.HyperGamma{}, Result{}, err
	}
	if err := needPositive("hyper-gamma", x); err != nil {
		return dist.HyperGamma{}, Result{}, err
	}
	return hyperGammaEM(x, start, s)
}

// gammaLogPDF holds the constants of a Gamma log density in shape/scale form.
type gammaLogPDF struct{ a, lb, c float64 }

func newGammaLogPDF(shape, scale float64) gammaLogPDF {
	lg, _ := math.Lgamma(shape)
	return gammaLogPDF{a: shape, lb: 1 / scale, c: -shape*math.Log(scale) - lg}
}

// at returns ln f(x) given x and ln x.
func (g gammaLogPDF) at(x, lx float64) float64 { return (g.a-1)*lx - x*g.lb + g.c }

// compress returns the distinct values of x in increasing order and how
// many times each occurs. Runtimes and interarrival times are whole seconds,
// so their logarithms repeat: SDSC-BLUE's 195,582 runtimes take 20,769
// distinct values. EM on the distinct values weighted by their counts has
// exactly the likelihood of the full sample at a tenth of the cost.
func compress(x []float64) (u, c []float64) {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	for i, v := range s {
		if i > 0 && v == s[i-1] {
			c[len(c)-1]++
			continue
		}
		u = append(u, v)
		c = append(c, 1)
	}
	return u, c
}

func hyperGammaEM(x []float64, h dist.HyperGamma, s *Settings) (dist.HyperGamma, Result, error) {
	n := len(x)
	u, c := compress(x)
	lu := make([]float64, len(u))
	for i, v := range u {
		lu[i] = math.Log(v)
	}
	wz := make([]float64, len(u))  // count × responsibility of the first Gamma
	wzc := make([]float64, len(u)) // count × responsibility of the second
	prev := math.Inf(-1)
	ll := prev
	status := IterationLimit
	it := 0
	for it = 1; it <= s.maxIter(); it++ {
		// E-step.
		g1, g2 := newGammaLogPDF(h.Shape1, h.Scale1), newGammaLogPDF(h.Shape2, h.Scale2)
		lp, lq := math.Log(h.P), math.Log1p(-h.P)
		ll = 0
		p := 0.0
		for i, v := range u {
			a := lp + g1.at(v, lu[i])
			b := lq + g2.at(v, lu[i])
			// ln(e^a + e^b) and z = e^a/(e^a + e^b) with one exp and one log1p.
			d := b - a
			var z float64
			if d > 0 {
				e := math.Exp(-d)
				ll += c[i] * (b + math.Log1p(e))
				z = e / (1 + e)
			} else {
				e := math.Exp(d)
				ll += c[i] * (a + math.Log1p(e))
				z = 1 / (1 + e)
			}
			wz[i] = c[i] * z
			wzc[i] = c[i] - wz[i]
			p += wz[i]
		}
		if math.Abs(ll-prev) < s.tol()*math.Abs(ll) {
			status = Converged
			break
		}
		prev = ll
		// M-step.
		p /= float64(n)
		h.P = p
		if p*float64(n) >= 2 {
			if a, b, _, err := gammaMLELog(u, lu, wz); err == nil {
				h.Shape1, h.Scale1 = a, b
			}
		}
		if (1-p)*float64(n) >= 2 {
			if a, b, _, err := gammaMLELog(u, lu, wzc); err == nil {
				h.Shape2, h.Scale2 = a, b
			}
		}
	}
	if it > s.maxIter() {
		it = s.maxIter()
	}
	if h.Shape1*h.Scale1 > h.Shape2*h.Scale2 {
		h.Shape1, h.Scale1, h.Shape2, h.Scale2 = h.Shape2, h.Scale2, h.Shape1, h.Scale1
		h.P = 1 - h.P
	}
	r := Result{Status: status, LogLikelihood: ll, N: float64(n), NumParameters: 5, Iterations: it}
	return h, r, status.Err()
}

// MiddleMinimum returns the middle-minimum ("medium minimum estimation")
// initialisation of a two-component Gamma mixture (Lublin and Feitelson
// (2003), section 3.2.3): a histogram of x (2·n^(1/3) bins, between 10 and 60,
// smoothed by a 3-bin moving average) is split at the bin whose count lies
// deepest below the smaller of the highest counts on its two sides; each part
// gets its Gamma MLE and P is the fraction of values in the lower part. A
// unimodal histogram is split at the median. The values must be positive.
func MiddleMinimum(x []float64) (dist.HyperGamma, error) {
	sorted := append([]float64(nil), x...)
	sort.Float64s(sorted)
	split := histogramValley(sorted)
	k := sort.SearchFloat64s(sorted, split)
	if k < 2 || len(sorted)-k < 2 || sorted[0] == sorted[k-1] || sorted[k] == sorted[len(sorted)-1] {
		k = len(sorted) / 2
	}
	a1, b1, _, err1 := gammaMLE(sorted[:k], nil)
	a2, b2, _, err2 := gammaMLE(sorted[k:], nil)
	if err1 != nil || err2 != nil {
		return dist.HyperGamma{}, fmt.Errorf("%w: hyper-gamma needs two non-degenerate parts", ErrDomain)
	}
	return dist.HyperGamma{Shape1: a1, Scale1: b1, Shape2: a2, Scale2: b2, P: float64(k) / float64(len(sorted))}, nil
}

// histogramValley returns the centre of the deepest valley between two
// modes of the histogram of the sorted values, or their median when the
// histogram has no valley.
func histogramValley(sorted []float64) float64 {
	n := len(sorted)
	lo, hi := sorted[0], sorted[n-1]
	nb := int(math.Round(2 * math.Cbrt(float64(n))))
	nb = max(10, min(60, nb))
	if hi <= lo {
		return sorted[n/2]
	}
	w := (hi - lo) / float64(nb)
	h := make([]float64, nb)
	for _, v := range sorted {
		b := min(int((v-lo)/w), nb-1)
		h[b]++
	}
	sm := make([]float64, nb)
	for i := range h {
		s, c := 0.0, 0.0
		for j := max(0, i-1); j <= min(nb-1, i+1); j++ {
			s += h[j]
			c++
		}
		sm[i] = s / c
	}
	left := make([]float64, nb)  // max of sm[:i]
	right := make([]float64, nb) // max of sm[i+1:]
	for i := 1; i < nb; i++ {
		left[i] = math.Max(left[i-1], sm[i-1])
	}
	for i := nb - 2; i >= 0; i-- {
		right[i] = math.Max(right[i+1], sm[i+1])
	}
	best, depth := -1, 0.0
	for i := 1; i < nb-1; i++ {
		if d := math.Min(left[i], right[i]) - sm[i]; d > depth {
			best, depth = i, d
		}
	}
	if best < 0 {
		return sorted[n/2]
	}
	return lo + (float64(best)+0.5)*w
}

// HyperGammaWeight returns the maximum-likelihood weight p of the first
// component for values x when both Gamma components of h are held fixed (1-D
// EM on p). The Lublin-Feitelson fit uses it for the "best p" of each size
// group (Lublin and Feitelson (2003), section 6.3; the paper does not say how
// the best p is found, so the maximum-likelihood weight is our choice).
func HyperGammaWeight(x []float64, h dist.HyperGamma, s *Settings) (float64, Result, error) {
	if err := needN("hyper-gamma weight", x, 1); err != nil {
		return 0, Result{}, err
	}
	if err := needPositive("hyper-gamma weight", x); err != nil {
		return 0, Result{}, err
	}
	g1, g2 := newGammaLogPDF(h.Shape1, h.Scale1), newGammaLogPDF(h.Shape2, h.Scale2)
	// r_i = f1/f2 in log form, over the distinct values (weighted by their
	// counts); z_i = p r / (p r + 1 − p).
	u, c := compress(x)
	n := float64(len(x))
	d := make([]float64, len(u))
	for i, v := range u {
		l := math.Log(v)
		d[i] = g1.at(v, l) - g2.at(v, l)
	}
	p := 0.5
	if h.P > 0 && h.P < 1 {
		p = h.P
	}
	status := IterationLimit
	prev := math.Inf(-1)
	it := 1
	for ; it <= s.maxIter(); it++ {
		cur, sz := 0.0, 0.0
		lp, lq := math.Log(p), math.Log1p(-p)
		for i, di := range d {
			// ln(p e^{di} + 1 − p) relative to f2, with one exp and one log1p.
			a := lp + di
			e := lq - a
			var t, z float64
			if e > 0 {
				f := math.Exp(-e)
				t, z = lq+math.Log1p(f), f/(1+f)
			} else {
				f := math.Exp(e)
				t, z = a+math.Log1p(f), 1/(1+f)
			}
			cur += c[i] * t
			sz += c[i] * z
		}
		next := sz / n
		if math.Abs(cur-prev) < s.tol()*math.Max(1, math.Abs(cur)) || math.Abs(next-p) < 1e-12 {
			p = next
			status = Converged
			break
		}
		prev = cur
		p = next
	}
	h.P = p
	ll, _ := logLik(u, c, h.LogProb)
	return p, Result{Status: status, LogLikelihood: ll, N: float64(len(x)), NumParameters: 1, Iterations: min(it, s.maxIter())}, status.Err()
}
