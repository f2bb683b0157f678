package dist

import (
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mathext"
)

// Zipf is the discrete power-law (Zipf) distribution on the positive integers,
// P(X = k) ∝ k^(−Alpha). With Max > 0 it is truncated to {1, …, Max} (the
// bag-of-tasks size model of T. N. Minh, L. Wolters and D. Epema, "A realistic
// integrated model of parallel system workloads", CCGrid 2010, section VI-C);
// with Max == 0 it is the untruncated zeta distribution, normalised by the
// Riemann zeta function ζ(Alpha), which requires Alpha > 1.
//
// Build truncated distributions with [NewZipf], which tabulates the CDF once
// so that CDF, Quantile and Rand cost O(log Max); a literal Zipf works too but
// recomputes the normalising sum on every call.
type Zipf struct {
	// Alpha is the exponent; Alpha > 0 when truncated, Alpha > 1 otherwise.
	Alpha float64
	// Max is the largest value (the truncation point), or 0 for none.
	Max int
	// Src is the source of randomness for Rand; Rand panics if it is nil.
	Src *rand.Rand

	cum []float64 // cum[k-1] = P(X <= k), tabulated by NewZipf
}

// NewZipf returns a Zipf distribution with a tabulated CDF when max > 0.
// It panics if alpha or max are out of range.
func NewZipf(alpha float64, max int, src *rand.Rand) Zipf {
	z := Zipf{Alpha: alpha, Max: max, Src: src}
	z.check()
	if max > 0 {
		z.cum = z.table()
	}
	return z
}

func (z Zipf) check() {
	if z.Max < 0 || (z.Max == 0 && !(z.Alpha > 1)) || !(z.Alpha > 0) {
		panic("dist: Zipf needs Alpha > 0 with Max > 0, or Alpha > 1 with Max == 0")
	}
}

// table returns the cumulative probabilities for k = 1..Max.
func (z Zipf) table() []float64 {
	c := make([]float64, z.Max)
	s := 0.0
	for k := 1; k <= z.Max; k++ {
		s += math.Pow(float64(k), -z.Alpha)
		c[k-1] = s
	}
	for i := range c {
		c[i] /= s
	}
	c[z.Max-1] = 1
	return c
}

func (z Zipf) cdfTable() []float64 {
	if z.cum != nil {
		return z.cum
	}
	return z.table()
}

// LogNorm returns the logarithm of the normalising constant,
// ln Σ_{k=1}^{Max} k^(−Alpha) (or ln ζ(Alpha) when Max == 0).
func (z Zipf) LogNorm() float64 {
	z.check()
	if z.Max == 0 {
		return math.Log(mathext.Zeta(z.Alpha, 1))
	}
	s := 0.0
	for k := 1; k <= z.Max; k++ {
		s += math.Pow(float64(k), -z.Alpha)
	}
	return math.Log(s)
}

// Prob returns P(X = x); it is 0 unless x is an integer in the support.
func (z Zipf) Prob(x float64) float64 { return math.Exp(z.LogProb(x)) }

// LogProb returns ln P(X = x).
func (z Zipf) LogProb(x float64) float64 {
	if x < 1 || x != math.Floor(x) || (z.Max > 0 && x > float64(z.Max)) {
		return math.Inf(-1)
	}
	if z.cum != nil {
		k := int(x)
		p := z.cum[k-1]
		if k > 1 {
			p -= z.cum[k-2]
		}
		return math.Log(p)
	}
	return -z.Alpha*math.Log(x) - z.LogNorm()
}

// CDF returns P(X <= x).
func (z Zipf) CDF(x float64) float64 {
	if x < 1 {
		return 0
	}
	k := math.Floor(x)
	if z.Max == 0 {
		z.check()
		return 1 - mathext.Zeta(z.Alpha, k+1)/mathext.Zeta(z.Alpha, 1)
	}
	if k >= float64(z.Max) {
		return 1
	}
	return z.cdfTable()[int(k)-1]
}

// Survival returns P(X > x).
func (z Zipf) Survival(x float64) float64 {
	if z.Max == 0 && x >= 1 {
		z.check()
		return mathext.Zeta(z.Alpha, math.Floor(x)+1) / mathext.Zeta(z.Alpha, 1)
	}
	return 1 - z.CDF(x)
}

// Quantile returns the smallest k with P(X <= k) >= p. It panics if p is
// outside [0, 1]; for the untruncated distribution Quantile(1) is +Inf.
func (z Zipf) Quantile(p float64) float64 {
	checkQuantileArg(p)
	if p == 0 {
		return 1
	}
	if z.Max > 0 {
		c := z.cdfTable()
		return float64(sort.SearchFloat64s(c, p) + 1)
	}
	if p == 1 {
		return math.Inf(1)
	}
	// Exponential search then bisection on the zeta CDF.
	hi := 1.0
	for z.CDF(hi) < p {
		hi *= 2
		if hi > 1<<53 {
			return math.Inf(1)
		}
	}
	lo := math.Floor(hi / 2)
	for hi-lo > 1 {
		mid := math.Floor((lo + hi) / 2)
		if z.CDF(mid) >= p {
			hi = mid
		} else {
			lo = mid
		}
	}
	if z.CDF(lo) >= p {
		return lo
	}
	return hi
}

// Rand returns a random sample: by inversion of the tabulated CDF when
// truncated, and by Devroye's rejection algorithm for the zeta distribution
// (Non-Uniform Random Variate Generation, 1986, §X.6) otherwise.
func (z Zipf) Rand() float64 {
	if z.Src == nil {
		panic(errNilSrc)
	}
	if z.Max > 0 {
		u := z.Src.Float64()
		return float64(sort.SearchFloat64s(z.cdfTable(), u) + 1)
	}
	z.check()
	a1 := z.Alpha - 1
	b := math.Pow(2, a1)
	for {
		u := 1 - z.Src.Float64() // (0, 1]
		v := z.Src.Float64()
		x := math.Floor(math.Pow(u, -1/a1))
		if x < 1 || math.IsInf(x, 1) {
			continue
		}
		t := math.Pow(1+1/x, a1)
		if v*x*(t-1)/(b-1) <= t/b {
			return x
		}
	}
}

// Mean returns E[X]; +Inf for the zeta distribution with Alpha <= 2.
func (z Zipf) Mean() float64 {
	if z.Max == 0 {
		z.check()
		if z.Alpha <= 2 {
			return math.Inf(1)
		}
		return mathext.Zeta(z.Alpha-1, 1) / mathext.Zeta(z.Alpha, 1)
	}
	return z.moment(1)
}

// Variance returns Var[X]; +Inf for the zeta distribution with Alpha <= 3.
func (z Zipf) Variance() float64 {
	m := z.Mean()
	if z.Max == 0 {
		if z.Alpha <= 3 {
			return math.Inf(1)
		}
		return mathext.Zeta(z.Alpha-2, 1)/mathext.Zeta(z.Alpha, 1) - m*m
	}
	return z.moment(2) - m*m
}

func (z Zipf) moment(r float64) float64 {
	s, n := 0.0, 0.0
	for k := 1; k <= z.Max; k++ {
		w := math.Pow(float64(k), -z.Alpha)
		s += w * math.Pow(float64(k), r)
		n += w
	}
	return s / n
}

// NumParameters returns 1 (Max is a fixed support bound, not a parameter).
func (Zipf) NumParameters() int { return 1 }
