package dist

import (
	"math"
	"math/rand/v2"
	"testing"
)

// topSource always gives the largest 64-bit value, so that Float64 is
// 1 - 2^-53, the largest uniform a generator can give.
type topSource struct{}

func (topSource) Uint64() uint64 { return ^uint64(0) }

// TestPickRoundingFallback: with weights 0.3, 0.7 and 0 and the largest
// uniform, u = (1 - 2^-53) · 1 survives both subtractions by rounding
// (0.3 + 0.7 leaves a remainder of 2^-54 after them), so pick reaches its
// fallback, which must still return a component of positive weight: the
// last one, 1, not the empty 2.
func TestPickRoundingFallback(t *testing.T) {
	r := rand.New(topSource{})
	if k := pick(r, []float64{0.3, 0.7, 0}); k != 1 {
		t.Errorf("pick at the top of the uniform range: component %d, want 1", k)
	}
}

// TestClassifyTies: two identical components tie at every x, and the
// first listed wins, so labels are stable from run to run.
func TestClassifyTies(t *testing.T) {
	g := GaussianMixture{Weights: []float64{0.5, 0.5}, Means: []float64{2, 2}, StdDevs: []float64{1, 1}}
	for _, x := range []float64{-3, 2, 7} {
		if k := g.Classify(x); k != 0 {
			t.Errorf("Classify(%v) = %d with identical components, want 0", x, k)
		}
	}
}

// TestGPDUniformEnd: with ξ = -1 the generalized Pareto law is uniform on
// [μ, μ + σ], its support closed: the density is 1/σ at both ends.
func TestGPDUniformEnd(t *testing.T) {
	g := GeneralizedPareto{Mu: 0, Sigma: 2, Xi: -1}
	for _, x := range []float64{0, 1, 2} {
		if got := g.Prob(x); !agrees(got, 0.5) {
			t.Errorf("Prob(%v) = %v, want 0.5", x, got)
		}
	}
	if got := g.Prob(2.001); got != 0 {
		t.Errorf("Prob past the end = %v, want 0", got)
	}
}

// TestSameSeedSameSample: the mixtures draw their components from the
// source they are given, so two copies seeded alike give the same samples
// (drawing from the package-wide generator instead would not).
func TestSameSeedSameSample(t *testing.T) {
	seeded := func() *rand.Rand { return rand.New(rand.NewPCG(11, 12)) }
	for _, c := range []struct {
		name string
		a, b interface{ Rand() float64 }
	}{
		{"hyper-gamma",
			HyperGamma{Shape1: 2, Scale1: 1, Shape2: 5, Scale2: 3, P: 0.4, Src: seeded()},
			HyperGamma{Shape1: 2, Scale1: 1, Shape2: 5, Scale2: 3, P: 0.4, Src: seeded()}},
		{"hyper-Erlang",
			HyperErlang{Weights: []float64{0.6, 0.4}, Orders: []int{2, 5}, Scales: []float64{1, 3}, Src: seeded()},
			HyperErlang{Weights: []float64{0.6, 0.4}, Orders: []int{2, 5}, Scales: []float64{1, 3}, Src: seeded()}},
		{"Gaussian mixture",
			GaussianMixture{Weights: []float64{0.3, 0.7}, Means: []float64{-1, 3}, StdDevs: []float64{0.5, 1.5}, Src: seeded()},
			GaussianMixture{Weights: []float64{0.3, 0.7}, Means: []float64{-1, 3}, StdDevs: []float64{0.5, 1.5}, Src: seeded()}},
	} {
		for i := range 50 {
			if x, y := c.a.Rand(), c.b.Rand(); x != y {
				t.Fatalf("%s: draw %d is %v and %v from the same seed", c.name, i, x, y)
			}
		}
	}
}

// TestTwoStageEmptyUpperStage: with m = h the upper stage is a point at h
// holding 1 - P, so P(X <= h) is 1, not P.
func TestTwoStageEmptyUpperStage(t *testing.T) {
	u := TwoStageUniform{Low: 0, Med: 1, High: 1, P: 0.7}
	if got := u.CDF(1); got != 1 {
		t.Errorf("CDF(h) = %v with m = h, want 1", got)
	}
	if got := u.CDF(0.5); !agrees(got, 0.35) {
		t.Errorf("CDF(0.5) = %v, want 0.35", got)
	}
}

// TestLogDensityOutsideSupport: below 0 every component of a hyper-Erlang
// or hyper-gamma law has log density -Inf, and so has the mixture (not
// NaN: the log-sum-exp of -Inf terms is -Inf).
func TestLogDensityOutsideSupport(t *testing.T) {
	herl := HyperErlang{Weights: []float64{0.6, 0.4}, Orders: []int{2, 5}, Scales: []float64{1, 3}}
	hg := HyperGamma{Shape1: 2, Scale1: 1, Shape2: 1, Scale2: 2, P: 0.5}
	for name, got := range map[string]float64{"hyper-Erlang": herl.LogProb(-1), "hyper-gamma": hg.LogProb(-1)} {
		if !math.IsInf(got, -1) {
			t.Errorf("%s: LogProb(-1) = %v, want -Inf", name, got)
		}
	}
}

// TestZetaTail: the zeta law's survival deep in its tail keeps its
// relative precision. For α = 2, Σ_{k>n} k^-2 = 1/n - 1/(2n²) + O(1/n³),
// so P(X > 10^8) = (10^-8 - 5·10^-17)/ζ(2) to about 10^-17 relative; 1 -
// CDF would lose 2·10^-9 of it to cancellation. Below 1 the survival is 1.
func TestZetaTail(t *testing.T) {
	z := Zipf{Alpha: 2}
	n := 1e8
	want := (1/n - 1/(2*n*n)) / (math.Pi * math.Pi / 6)
	if got := z.Survival(n); !(math.Abs(got-want) <= 1e-12*want) {
		t.Errorf("Survival(1e8) = %v, want %v", got, want)
	}
	for _, x := range []float64{-1, 0, 0.5} {
		if got := z.Survival(x); got != 1 {
			t.Errorf("Survival(%v) = %v, want 1", x, got)
		}
	}
}
