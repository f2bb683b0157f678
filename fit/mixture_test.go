package fit

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/hpcwl/hpcwl/dist"
)

func TestMixtureArgumentErrors(t *testing.T) {
	five := []float64{1, 2, 3, 4, 5}
	nine := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}
	withZero := []float64{1, 2, 3, 0, 5, 6}
	constant := []float64{3, 3, 3, 3}
	tests := []struct {
		name string
		run  func() error
		want error
		text string
	}{
		// 2g values are needed: 5 are too few for 3 components (and
		// enough for 2 + 3 or 2 / 3).
		{"gmm of 5 values, g = 3", func() error { _, _, err := GaussianMixture(five, 3, Unequal, nil); return err }, ErrTooFew, "at least 6"},
		{"hyperexponential of 5 values, k = 3", func() error { _, _, err := HyperExponential(five, 3, nil); return err }, ErrTooFew, "at least 6"},
		{"gmm of a constant", func() error { _, _, err := GaussianMixture(constant, 2, Unequal, nil); return err }, ErrDomain, "not all equal"},
		{"hyperexponential of zeros", func() error { _, _, err := HyperExponential([]float64{0, 0, 0, 0}, 2, nil); return err }, ErrDomain, "positive mean"},
		// Order 1 takes 0; a higher order does not, and says which value.
		{"hyper-Erlang order 2 with a 0", func() error { _, _, err := HyperErlang(withZero, 2, 2, nil); return err }, ErrDomain, "x[3] = 0"},
		{"HyperGammaFrom of 9 values", func() error { _, _, err := HyperGammaFrom(nine, dist.HyperGamma{}, nil); return err }, ErrTooFew, "at least 10"},
		{"HyperGammaFrom with a 0", func() error {
			_, _, err := HyperGammaFrom(append([]float64{0}, nine...), dist.HyperGamma{}, nil)
			return err
		}, ErrDomain, "x[0] = 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
				t.Errorf("error %v, want %v with %q", err, tc.want, tc.text)
			}
		})
	}
}

// TestOnePhase fits one phase: EM then is the exponential (or Erlang) MLE,
// rate 1/mean, reached by the first M-step. x has mean 2, so rate 0.5 and
// ln L = 6 ln 0.5 − Σx/2 = 6 ln 0.5 − 6; zeros are values of an
// exponential.
func TestOnePhase(t *testing.T) {
	x := []float64{0, 0, 1, 2, 3, 6}
	h, r, err := HyperExponential(x, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if h.Weights[0] != 1 || !(math.Abs(h.Rates[0]-0.5) <= 1e-15) {
		t.Errorf("fit %+v, want weight 1, rate 0.5", h)
	}
	if want := 6*math.Log(0.5) - 6; !(math.Abs(r.LogLikelihood-want) <= 1e-12) || r.NumParameters != 1 {
		t.Errorf("result %+v, want log-likelihood %v and 1 parameter", r, want)
	}
	e, _, err := HyperErlang(x[2:], 1, 1, nil) // order 1 only: 1, 2, 3, 6 of mean 3
	if err != nil || e.Orders[0] != 1 || !(math.Abs(e.Scales[0]-3) <= 1e-15) {
		t.Errorf("HyperErlang of order 1: %+v, %v", e, err)
	}
}

func TestMixtureNumParameters(t *testing.T) {
	x := twoNormals()
	for _, c := range []struct {
		g     int
		model VarianceModel
		want  int
	}{{2, Unequal, 5}, {3, Unequal, 8}, {2, Equal, 4}, {3, Equal, 6}} {
		if _, r, _ := GaussianMixture(x, c.g, c.model, nil); r.NumParameters != c.want {
			t.Errorf("gmm %d %v: %d parameters, want %d", c.g, c.model, r.NumParameters, c.want)
		}
	}
	y := twoExponentials()
	for k, want := range map[int]int{2: 3, 3: 5} {
		if _, r, _ := HyperExponential(y, k, nil); r.NumParameters != want {
			t.Errorf("hyperexponential %d: %d parameters, want %d", k, r.NumParameters, want)
		}
	}
}

// TestHyperExponentialZeroPart starts from a lower half of zeros, whose
// mean 0 is replaced by max/n = 4/8: L_1 is the likelihood of phases of
// means 0.5 and 2.5 (the upper half 1..4), weights 1/2.
func TestHyperExponentialZeroPart(t *testing.T) {
	x := []float64{0, 0, 0, 0, 1, 2, 3, 4}
	_, r, _ := HyperExponential(x, 2, &Settings{MaxIterations: 1})
	start := dist.HyperExponential{Weights: []float64{0.5, 0.5}, Rates: []float64{2, 0.4}}
	if want := sumLog(x, start.LogProb); !(math.Abs(r.LogLikelihood-want) <= 1e-12*math.Abs(want)) {
		t.Errorf("L_1 = %v, want %v", r.LogLikelihood, want)
	}
}

// TestSelectGaussianMixtureCandidates checks the candidates and the choice
// by BIC: 1 to gmax components, E skipped for one component, the smallest
// BIC chosen (for 400 values of one normal, one component), a failed fit
// listed with an infinite BIC, and fits stopped at the iteration limit still
// competing.
func TestSelectGaussianMixtureCandidates(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 1))
	x := sample(400, distuv.Normal{Mu: 10, Sigma: 2, Src: r}.Rand)
	best, all, err := SelectGaussianMixture(x, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	type gm struct {
		g int
		m VarianceModel
	}
	want := []gm{{1, Unequal}, {2, Unequal}, {2, Equal}, {3, Unequal}, {3, Equal}}
	if len(all) != len(want) {
		t.Fatalf("%d candidates, want %d", len(all), len(want))
	}
	for i, c := range all {
		if (gm{c.G, c.Model}) != want[i] || c.BIC != c.Result.BIC() || best.BIC > c.BIC {
			t.Errorf("candidate %d: G %d %v, BIC %v (result's %v), best's %v", i, c.G, c.Model, c.BIC, c.Result.BIC(), best.BIC)
		}
	}
	if best.G != 1 {
		t.Errorf("best G = %d, want 1", best.G)
	}
	if b, one, err := SelectGaussianMixture(x, 1, nil); err != nil || len(one) != 1 || b.G != 1 {
		t.Errorf("gmax 1: %d candidates, %v", len(one), err)
	}
	// Five values: g = 3 needs six and fails; two iterations leave the
	// other fits at the iteration limit.
	few := []float64{1, 2, 3, 10, 11}
	b, all, err := SelectGaussianMixture(few, 3, &Settings{MaxIterations: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range all {
		failed := c.G == 3
		if failed != errors.Is(c.Err, ErrTooFew) || failed != math.IsInf(c.BIC, 1) {
			t.Errorf("G %d %v: error %v, BIC %v", c.G, c.Model, c.Err, c.BIC)
		}
		if !failed && (c.Result.Status != IterationLimit || b.BIC > c.BIC) {
			t.Errorf("G %d %v: status %v, BIC %v, best's %v", c.G, c.Model, c.Result.Status, c.BIC, b.BIC)
		}
	}
}

// TestGaussianMixtureVarianceFloor fits 50 copies of 0 and 50 values
// spread over [10, 20): the component on the zeros has no variance and gets
// the floor 1e-6 Var(x).
func TestGaussianMixtureVarianceFloor(t *testing.T) {
	x := make([]float64, 100)
	for i := 50; i < 100; i++ {
		x[i] = 10 + float64(i-50)*0.2
	}
	d, _, err := GaussianMixture(x, 2, Unequal, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := math.Sqrt(1e-6 * stat.Variance(x, nil))
	if d.Means[0] != 0 || !(math.Abs(d.StdDevs[0]-want) <= 1e-12*want) {
		t.Errorf("component on the zeros: mean %v, sd %v, want 0, %v", d.Means[0], d.StdDevs[0], want)
	}
}

// histSample returns values from lo whose histogram over bins of width 1
// has the given counts: each bin's values evenly inside it, the first value
// exactly lo and the last exactly lo + len(counts), so that the histogram of
// len(counts) bins has width 1. equalFirst repeats the first value.
func histSample(lo float64, counts []int, equalFirst bool) []float64 {
	var x []float64
	for i, c := range counts {
		for j := range c {
			x = append(x, lo+float64(i)+(float64(j)+0.5)/float64(c))
		}
	}
	x[0] = lo
	if equalFirst {
		x[1] = lo
	}
	x[len(x)-1] = lo + float64(len(counts))
	return x
}

// TestMiddleMinimumSplit pins the split of hand-made histograms (2 n^(1/3)
// bins, at least 10, smoothed over 3 bins, 2 at the ends); P is the
// fraction of values below the centre of the deepest bin.
func TestMiddleMinimumSplit(t *testing.T) {
	tests := []struct {
		name   string
		counts []int
		equal  bool
		k      int // values in the first part
	}{
		// Smoothed: 8, 8.33, 6.67, 9, 9, 7.33, 5, 3.33, 5, 6.5. Bin 7 lies
		// 6.5 − 3.33 = 3.17 below the smaller of the highest counts on its
		// sides (9 and 6.5), bin 2 only 8.33 − 6.67: split at 108.5, below
		// it bins 0-6 (56 values) and one of bin 7's two.
		{"deepest valley", []int{14, 2, 9, 9, 9, 9, 4, 2, 4, 9}, false, 57},
		// 954 values: 20 bins. Bins 12-14 hold 30, 10, 30 (smoothed 30.7,
		// 23.3, 30.7): split at 114.5, in the middle of bin 13's 10 values:
		// 12 · 52 + 30 + 5. Ten bins would split at 114.
		{"twenty bins", []int{52, 52, 52, 52, 52, 52, 52, 52, 52, 52, 52, 52, 30, 10, 30, 52, 52, 52, 52, 52}, false, 659},
		// Two values below the valley (bins 2 and 3 tie, the first wins):
		// parts of 2 and 50 values.
		{"two values below", []int{2, 0, 0, 0, 0, 10, 10, 10, 10, 10}, false, 2},
		{"two values above", []int{10, 10, 10, 10, 10, 0, 0, 0, 0, 2}, false, 50},
		// One value above, or two equal ones below: no Gamma fits such a
		// part, so the median splits (25 of 51, 26 of 52 values).
		{"one value above", []int{10, 10, 10, 10, 10, 0, 0, 0, 0, 1}, false, 25},
		{"two equal values below", []int{2, 0, 0, 0, 0, 10, 10, 10, 10, 10}, true, 26},
		// A flat histogram has no valley: median.
		{"flat", []int{5, 5, 5, 5, 5, 5, 5, 5, 5, 5}, false, 25},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := histSample(101, tc.counts, tc.equal)
			h, err := MiddleMinimum(x)
			if err != nil {
				t.Fatal(err)
			}
			if want := float64(tc.k) / float64(len(x)); h.P != want {
				t.Errorf("P = %v (%v of %d values), want %d", h.P, h.P*float64(len(x)), len(x), tc.k)
			}
		})
	}
}

// TestHyperGammaFromEitherOrder starts the EM from the same two components
// in both orders: the fit is the same, the lower-mean component first and
// P its weight. The sample is 60 values of Gamma(100, scale 0.04) and 40 of
// Gamma(5, scale 4) (seed 25): the component of lower mean (4 against 20)
// has the larger shape/scale ratio (2,500 against 1.25), so only the mean
// orders them.
func TestHyperGammaFromEitherOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 1))
	x := append(sample(60, distuv.Gamma{Alpha: 100, Beta: 25, Src: r}.Rand), sample(40, distuv.Gamma{Alpha: 5, Beta: 0.25, Src: r}.Rand)...)
	a, b := [2]float64{64, 1.0 / 16}, [2]float64{4, 5}
	h1, r1, err1 := HyperGammaFrom(x, dist.HyperGamma{Shape1: a[0], Scale1: a[1], Shape2: b[0], Scale2: b[1], P: 0.5}, nil)
	h2, r2, err2 := HyperGammaFrom(x, dist.HyperGamma{Shape1: b[0], Scale1: b[1], Shape2: a[0], Scale2: a[1], P: 0.5}, nil)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	// P within 4 binomial standard errors, 4 sqrt(0.6 · 0.4 / 100) = 0.2.
	if !(math.Abs(h1.Shape1*h1.Scale1-4) <= 0.4) || !(math.Abs(h1.Shape2*h1.Scale2-20) <= 6) || !(math.Abs(h1.P-0.6) <= 0.2) {
		t.Errorf("fit %+v: want the component of mean 4 first, P near 0.6", h1)
	}
	for _, c := range [][2]float64{{h1.Shape1, h2.Shape1}, {h1.Scale1, h2.Scale1}, {h1.Shape2, h2.Shape2}, {h1.Scale2, h2.Scale2}, {h1.P, h2.P}, {r1.LogLikelihood, r2.LogLikelihood}} {
		if !(math.Abs(c[0]-c[1]) <= 1e-6*math.Abs(c[0])) {
			t.Errorf("from A, B: %+v; from B, A: %+v", h1, h2)
			break
		}
	}
}

// TestHyperGammaFromNegligibleComponent starts with a second component that
// explains almost nothing (weight 1e-9, mean 30 against values near 4 and
// 20): fewer than two values' worth of weight, so it keeps its parameters
// while the first component and P move.
func TestHyperGammaFromNegligibleComponent(t *testing.T) {
	x := twoGammas()
	start := dist.HyperGamma{Shape1: 3, Scale1: 3, Shape2: 900, Scale2: 1.0 / 30, P: 1 - 1e-9}
	h, _, _ := HyperGammaFrom(x, start, &Settings{MaxIterations: 3})
	if h.Shape2 != start.Shape2 || h.Scale2 != start.Scale2 || h.Shape1 == start.Shape1 {
		t.Errorf("fit %+v from %+v: want the second component unchanged", h, start)
	}
}

// weightStep is one EM step on the weight p of the first of two fixed
// Gamma components: the mean posterior probability of the first, and the
// log-likelihood at p relative to the second component alone.
func weightStep(x []float64, h dist.HyperGamma, p float64) (next, cur float64) {
	g1 := distuv.Gamma{Alpha: h.Shape1, Beta: 1 / h.Scale1}
	g2 := distuv.Gamma{Alpha: h.Shape2, Beta: 1 / h.Scale2}
	for _, v := range x {
		a, b := math.Log(p)+g1.LogProb(v), math.Log1p(-p)+g2.LogProb(v)
		m := math.Max(a, b)
		next += math.Exp(a-m) / (math.Exp(a-m) + math.Exp(b-m))
		cur += m + math.Log(math.Exp(a-m)+math.Exp(b-m)) - g2.LogProb(v)
	}
	return next / float64(len(x)), cur
}

// TestHyperGammaWeightSteps follows the weight-only EM against the
// documented steps computed here: from P (0.5 when P is 0 or 1), p' = mean
// posterior; stop when the log-likelihood changes by less than
// Tolerance·max(1, |ℓ|) or p by less than 1e-12. The values include two far
// in the tails (1e-10 and 100), where the two components' log densities
// differ by more than 709, the largest exponent a float64 holds (at 1e-10
// the first's is about 813 above the second's). Whatever
// the start, the likelihood in p is concave and the fit ends at its
// maximum.
func TestHyperGammaWeightSteps(t *testing.T) {
	x := append(twoGammas(), 1e-10, 100)
	// Components of means 4 and 20 tell most values apart and EM on p ends
	// in a few steps; with means 4 and 6 it takes up to 25, and the
	// tolerance decides when.
	apart := dist.HyperGamma{Shape1: 8, Scale1: 0.5, Shape2: 40, Scale2: 0.5}
	overlapping := dist.HyperGamma{Shape1: 8, Scale1: 0.5, Shape2: 12, Scale2: 0.5}
	for _, c := range []struct {
		h         dist.HyperGamma
		p0, start float64
		tol       float64
		maxIter   int
	}{
		{apart, 0.3, 0.3, 1e-4, 0}, {apart, 0, 0.5, 1e-4, 0}, {apart, 1, 0.5, 1e-6, 0},
		{apart, 0.3, 0.3, 1e-10, 1}, {apart, 1, 0.5, 1e-10, 2},
		{overlapping, 0.05, 0.05, 1e-2, 0}, {overlapping, 0.05, 0.05, 3e-3, 0}, {overlapping, 0.05, 0.05, 1e-3, 0},
		{overlapping, 0.3, 0.3, 3e-4, 0}, {overlapping, 0.3, 0.3, 1e-5, 0}, {overlapping, 0.9, 0.9, 1e-4, 0}, {overlapping, 0.9, 0.9, 1e-7, 0},
	} {
		h := c.h
		h.P = c.p0
		got, r, err := HyperGammaWeight(x, h, &Settings{Tolerance: c.tol, MaxIterations: c.maxIter})
		p, prev, it := c.start, math.Inf(-1), 1
		for ; ; it++ {
			next, cur := weightStep(x, h, p)
			if c.maxIter == 0 && (math.Abs(cur-prev) < c.tol*math.Max(1, math.Abs(cur)) || math.Abs(next-p) < 1e-12) {
				p = next
				break
			}
			prev, p = cur, next
			if it == c.maxIter {
				break
			}
		}
		wantStatus := Converged
		if c.maxIter > 0 {
			wantStatus = IterationLimit
		}
		if !(math.Abs(got-p) <= 1e-12) || r.Iterations != it || r.Status != wantStatus || (err == nil) != (wantStatus == Converged) {
			t.Errorf("start %v, tolerance %v, limit %d: p %v after %d iterations (%v), want %v after %d", c.p0, c.tol, c.maxIter, got, r.Iterations, r.Status, p, it)
		}
		if c.maxIter > 0 {
			continue
		}
		hp := h
		hp.P = got
		if ll := sumLog(x, hp.LogProb); !(math.Abs(r.LogLikelihood-ll) <= 1e-10*math.Abs(ll)) {
			t.Errorf("log-likelihood %v, want %v", r.LogLikelihood, ll)
		}
	}
}

// TestHyperExponentialPhaseOnZeros fits six zeros and two values near 1e6:
// the shorter phase shrinks onto the zeros until none of the large values'
// responsibility is left in it (e^(−1e6/scale) underflows), and from then on
// keeps its last scale instead of taking the mean 0 of its values. The fit
// converges with weights 6/8 and 2/8 and the longer phase's rate 1/(1e6 +
// 0.5), the reciprocal of the two large values' mean.
func TestHyperExponentialPhaseOnZeros(t *testing.T) {
	x := []float64{0, 0, 0, 0, 0, 0, 1e6, 1e6 + 1}
	h, r, err := HyperExponential(x, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !(math.Abs(h.Weights[0]-0.75) <= 1e-12) || !(math.Abs(h.Rates[1]*(1e6+0.5)-1) <= 1e-12) || math.IsInf(h.Rates[0], 0) || math.IsNaN(r.LogLikelihood) {
		t.Errorf("fit %+v (%+v), want weights 0.75 and 0.25, rate 1/(1e6 + 0.5) and a finite spike on 0", h, r)
	}
}
