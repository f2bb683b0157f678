package dist

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestEdgesByHand pins values at the edges of each family's support, the
// moments of the mixtures and the quantiles of the two-stage uniform,
// worked out by hand.
func TestEdgesByHand(t *testing.T) {
	inf := math.Inf(1)
	e := math.Exp
	he := HyperExponential{Weights: []float64{0.8, 0.2}, Rates: []float64{1, 0.05}}
	herl := HyperErlang{Weights: []float64{0.6, 0.4}, Orders: []int{2, 5}, Scales: []float64{1, 3}}
	hg := HyperGamma{Shape1: 2, Scale1: 1, Shape2: 1, Scale2: 2, P: 0.5}
	tsu := TwoStageUniform{Low: 0.8, Med: 4.5, High: 7, P: 0.86}
	gmm := GaussianMixture{Weights: []float64{0.3, 0.7}, Means: []float64{-1, 3}, StdDevs: []float64{0.5, 1.5}}
	ll := LogLogistic{Alpha: 10, Beta: 2}
	// A mixture with a component of weight 0: its quantiles are those of
	// the other component alone.
	he0 := HyperExponential{Weights: []float64{1, 0}, Rates: []float64{1, 0.001}}
	herl0 := HyperErlang{Weights: []float64{0, 1}, Orders: []int{1, 1}, Scales: []float64{1000, 1}}
	// The variance of a mixture of uniforms: Σ p_i ((b-a)²/12 + ((a+b)/2)²) - mean².
	tsuMean := 0.86*(0.8+4.5)/2 + 0.14*(4.5+7)/2
	tsuVar := 0.86*(3.7*3.7/12+2.65*2.65) + 0.14*(2.5*2.5/12+5.75*5.75) - tsuMean*tsuMean
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		// Hyperexponential: f(0) = Σ w λ; mean Σ w/λ; E[X²] = Σ 2w/λ².
		{"hyperexponential density at 0", he.Prob(0), 0.81},
		{"hyperexponential density below 0", he.Prob(-1), 0},
		{"hyperexponential log density at 0", he.LogProb(0), math.Log(0.81)},
		{"hyperexponential log density below 0", he.LogProb(-1), math.Inf(-1)},
		{"hyperexponential CDF at 0", he.CDF(0), 0},
		{"hyperexponential CDF at 1", he.CDF(1), 1 - 0.8*e(-1) - 0.2*e(-0.05)},
		{"hyperexponential mean", he.Mean(), 4.8},
		{"hyperexponential variance", he.Variance(), 1.6 + 160 - 4.8*4.8},
		{"hyperexponential quantile 0", he.Quantile(0), 0},
		{"hyperexponential quantile 1", he.Quantile(1), inf},
		{"hyperexponential, weight 0, median", he0.Quantile(0.5), math.Ln2},
		// Hyper-Erlang: Erlang-k of scale s has density x^(k-1) e^(-x/s) / (s^k (k-1)!).
		{"hyper-Erlang density at 1", herl.Prob(1), 0.6*e(-1) + 0.4*e(-1.0/3)/(243*24)},
		{"hyper-Erlang log density at 1", herl.LogProb(1), math.Log(0.6*e(-1) + 0.4*e(-1.0/3)/(243*24))},
		{"hyper-Erlang CDF at 3", herl.CDF(3), 1 - 0.6*e(-3)*4 - 0.4*e(-1)*(1+1+0.5+1.0/6+1.0/24)},
		{"hyper-Erlang mean", herl.Mean(), 7.2},
		{"hyper-Erlang variance", herl.Variance(), 0.6*2*1*3 + 0.4*5*9*6 - 7.2*7.2},
		{"hyper-Erlang quantile 0", herl.Quantile(0), 0},
		{"hyper-Erlang quantile 1", herl.Quantile(1), inf},
		{"hyper-Erlang, weight 0, median", herl0.Quantile(0.5), math.Ln2},
		// Hyper-gamma of Gamma(2, 1) and Gamma(1, 2), p = 0.5.
		{"hypergamma density at 2", hg.Prob(2), e(-2) + 0.25*e(-1)},
		{"hypergamma log density at 2", hg.LogProb(2), math.Log(e(-2) + 0.25*e(-1))},
		{"hypergamma CDF at 2", hg.CDF(2), 1 - 0.5*e(-2)*3 - 0.5*e(-1)},
		{"hypergamma mean", hg.Mean(), 2},
		{"hypergamma variance", hg.Variance(), 0.5*(2+4) + 0.5*(4+4) - 4},
		{"hypergamma quantile 0", hg.Quantile(0), 0},
		{"hypergamma quantile 1", hg.Quantile(1), inf},
		// Two-stage uniform: density p/(m-l) on [l, m), (1-p)/(h-m) on [m, h].
		{"two-stage uniform density at l", tsu.Prob(0.8), 0.86 / 3.7},
		{"two-stage uniform density below l", tsu.Prob(0.79), 0},
		{"two-stage uniform density at m", tsu.Prob(4.5), 0.14 / 2.5},
		{"two-stage uniform density at h", tsu.Prob(7), 0.14 / 2.5},
		{"two-stage uniform density above h", tsu.Prob(7.01), 0},
		{"two-stage uniform, m = h, density at h", TwoStageUniform{Low: 0, Med: 1, High: 1, P: 1}.Prob(1), 0},
		{"two-stage uniform, m = h, density inside", TwoStageUniform{Low: 0, Med: 1, High: 1, P: 1}.Prob(0.5), 1},
		{"two-stage uniform, l = m, CDF at m", TwoStageUniform{Low: 1, Med: 1, High: 3, P: 0.3}.CDF(1), 0.3},
		{"two-stage uniform, l = m, CDF at 2", TwoStageUniform{Low: 1, Med: 1, High: 3, P: 0.3}.CDF(2), 0.65},
		{"two-stage uniform CDF at 2", tsu.CDF(2), 0.86 * 1.2 / 3.7},
		{"two-stage uniform CDF at 6", tsu.CDF(6), 0.86 + 0.14*1.5/2.5},
		{"two-stage uniform quantile 0.43", tsu.Quantile(0.43), 2.65},
		{"two-stage uniform quantile p", tsu.Quantile(0.86), 4.5},
		{"two-stage uniform quantile 0.93", tsu.Quantile(0.93), 5.75},
		{"two-stage uniform quantile 0", tsu.Quantile(0), 0.8},
		{"two-stage uniform quantile 1", tsu.Quantile(1), 7},
		{"two-stage uniform, p 1, quantile 1", TwoStageUniform{Low: 0, Med: 1, High: 2, P: 1}.Quantile(1), 1},
		{"two-stage uniform, p 0, quantile 0", TwoStageUniform{Low: 0, Med: 1, High: 2, P: 0}.Quantile(0), 1},
		{"two-stage uniform, p 0, median", TwoStageUniform{Low: 0, Med: 1, High: 2, P: 0}.Quantile(0.5), 1.5},
		{"two-stage uniform log density", tsu.LogProb(6), math.Log(0.056)},
		{"two-stage uniform mean", tsu.Mean(), tsuMean},
		{"two-stage uniform variance", tsu.Variance(), tsuVar},
		// Gaussian mixture: mean Σ w μ, variance Σ w (σ² + μ²) - mean².
		{"Gaussian mixture mean", gmm.Mean(), -0.3 + 2.1},
		{"Gaussian mixture variance", gmm.Variance(), 0.3*(0.25+1) + 0.7*(2.25+9) - 1.8*1.8},
		{"Gaussian mixture CDF at 3", gmm.CDF(3), 1 - (0.3*0.5*math.Erfc(8/math.Sqrt2) + 0.35)},
		{"Gaussian mixture density at 3", gmm.Prob(3), 0.3*e(-32)/(0.5*math.Sqrt(2*math.Pi)) + 0.7/(1.5*math.Sqrt(2*math.Pi))},
		{"Gaussian mixture log density at 3", gmm.LogProb(3), math.Log(0.3*e(-32)/(0.5*math.Sqrt(2*math.Pi)) + 0.7/(1.5*math.Sqrt(2*math.Pi)))},
		{"Gaussian mixture quantile 0", gmm.Quantile(0), math.Inf(-1)},
		{"Gaussian mixture quantile 1", gmm.Quantile(1), inf},
		// Log-logistic at and below 0, and its quantiles at the ends.
		{"log-logistic survival below 0", ll.Survival(-1), 1},
		{"log-logistic CDF below 0", ll.CDF(-1), 0},
		{"log-logistic density below 0", ll.Prob(-1), 0},
		{"log-logistic quantile 0", ll.Quantile(0), 0},
		{"log-logistic quantile 1", ll.Quantile(1), inf},
		{"log-logistic median", ll.Quantile(0.5), 10},
		// Softplus near its switch: ln(1 + e^x) at 30 and just above.
		{"softplus 30", softplus(30), math.Log1p(e(30))},
		{"softplus 31", softplus(31), 31 + e(-31)},
		// Generalized Pareto at its lower end and, for ξ < 0, at its upper end 5.
		{"GPD CDF at μ", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: 0.5}.CDF(1), 0},
		// At the end 1 + ξz = 0 and the exponent -1/ξ - 1 = 1: density 0.
		{"GPD ξ -0.5 log density at the end", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: -0.5}.LogProb(5), math.Inf(-1)},
		{"GPD log density at μ", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: 0.5}.LogProb(1), -math.Log(2)},
		{"GPD density ξ 0.5 at 3", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: 0.5}.Prob(3), 0.5 / (1.5 * 1.5 * 1.5)},
		{"GPD quantile 0", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: 0.5}.Quantile(0), 1},
		{"GPD ξ -0.5 quantile 1", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: -0.5}.Quantile(1), 5},
		{"GPD ξ 0.4 variance", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: 0.4}.Variance(), 4 / (0.36 * 0.2)},
		{"GPD ξ 0.9 mean", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: 0.9}.Mean(), 21},
	} {
		if !agrees(c.got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestZipfByHand pins the Zipf law of α = 1 on 1..3 (masses 6/11, 3/11,
// 2/11) and of α = 2 on 1..∞ (mass 1/(k² ζ(2))), with and without the
// table NewZipf builds.
func TestZipfByHand(t *testing.T) {
	zeta2 := math.Pi * math.Pi / 6
	lit := Zipf{Alpha: 1, Max: 3}
	tab := NewZipf(1, 3, nil)
	zeta := Zipf{Alpha: 2}
	for _, z := range []Zipf{lit, tab} {
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"P(1)", z.Prob(1), 6.0 / 11},
			{"P(2)", z.Prob(2), 3.0 / 11},
			{"P(3)", z.Prob(3), 2.0 / 11},
			{"P(4)", z.Prob(4), 0},
			{"P(0)", z.Prob(0), 0},
			{"CDF(0.5)", z.CDF(0.5), 0},
			{"CDF(1)", z.CDF(1), 6.0 / 11},
			{"CDF(2.5)", z.CDF(2.5), 9.0 / 11},
			{"CDF(3)", z.CDF(3), 1},
			{"CDF(7)", z.CDF(7), 1},
			{"quantile 0", z.Quantile(0), 1},
			{"quantile 6/11", z.Quantile(6.0 / 11), 1},
			{"quantile 0.55", z.Quantile(0.55), 2},
			{"quantile 0.82", z.Quantile(0.82), 3},
			{"quantile 1", z.Quantile(1), 3},
			{"mean", z.Mean(), (6 + 6 + 6) / 11.0},
			{"variance", z.Variance(), (6+12+18)/11.0 - (18/11.0)*(18/11.0)},
			{"log normalizer", z.LogNorm(), math.Log(11.0 / 6)},
		} {
			if !(math.Abs(c.got-c.want) <= 1e-12) {
				t.Errorf("Zipf(1, 3) %s (table %v): %v, want %v", c.name, z.cum != nil, c.got, c.want)
			}
		}
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"P(1)", zeta.Prob(1), 1 / zeta2},
		{"P(3)", zeta.Prob(3), 1 / (9 * zeta2)},
		{"CDF(2)", zeta.CDF(2), 1.25 / zeta2},
		{"CDF(0)", zeta.CDF(0), 0},
		{"survival(2)", zeta.Survival(2), 1 - 1.25/zeta2},
		{"survival(0.5)", zeta.Survival(0.5), 1},
		{"quantile 0", zeta.Quantile(0), 1},
		{"quantile 1", zeta.Quantile(1), math.Inf(1)},
		{"quantile just below 1/ζ(2)", zeta.Quantile(1/zeta2 - 1e-9), 1},
		{"quantile just above 1/ζ(2)", zeta.Quantile(1/zeta2 + 1e-9), 2},
		{"quantile 1.25/ζ(2)", zeta.Quantile(1.25 / zeta2), 2},
		{"quantile 0.9", zeta.Quantile(0.9), 6}, // CDF(5) = 0.8898, CDF(6) = 0.9067
		{"mean, α 2", zeta.Mean(), math.Inf(1)},
		{"variance, α 3", Zipf{Alpha: 3}.Variance(), math.Inf(1)},
		{"log normalizer", zeta.LogNorm(), math.Log(zeta2)},
		// α = 4: mean ζ(3)/ζ(4), E[X²] = ζ(2)/ζ(4), ζ(4) = π⁴/90.
		{"mean, α 4", Zipf{Alpha: 4}.Mean(), 1.2020569031595942 / (math.Pow(math.Pi, 4) / 90)},
		{"variance, α 4", Zipf{Alpha: 4}.Variance(), zeta2/(math.Pow(math.Pi, 4)/90) - math.Pow(1.2020569031595942/(math.Pow(math.Pi, 4)/90), 2)},
	} {
		if !agrees(c.got, c.want) {
			t.Errorf("Zipf(2) %s: %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestMalformedPanics: malformed parameters and quantile arguments
// outside [0, 1] panic, as gonum's distributions do.
func TestMalformedPanics(t *testing.T) {
	one := []float64{1}
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"hyperexponential without phases", func() { HyperExponential{}.Mean() }},
		{"hyperexponential, lengths differ", func() { HyperExponential{Weights: one, Rates: []float64{1, 2}}.Mean() }},
		{"hyper-Erlang without phases", func() { HyperErlang{}.Mean() }},
		{"hyper-Erlang, orders' length differs", func() { HyperErlang{Weights: one, Orders: []int{1, 2}, Scales: one}.Mean() }},
		{"hyper-Erlang, scales' length differs", func() { HyperErlang{Weights: one, Orders: []int{1}, Scales: []float64{1, 2}}.Mean() }},
		{"Gaussian mixture without components", func() { GaussianMixture{}.Mean() }},
		{"Gaussian mixture, means' length differs", func() { GaussianMixture{Weights: one, Means: []float64{1, 2}, StdDevs: one}.Mean() }},
		{"Gaussian mixture, deviations' length differs", func() { GaussianMixture{Weights: one, Means: one, StdDevs: []float64{1, 2}}.Mean() }},
		{"hypergamma component 2", func() { HyperGamma{}.Component(2) }},
		{"Zipf of negative size", func() { NewZipf(2, -1, nil) }},
		{"Zipf untruncated with α 1", func() { NewZipf(1, 0, nil) }},
		{"Zipf with α 0", func() { NewZipf(0, 5, nil) }},
		{"quantile below 0", func() { LogLogistic{Alpha: 1, Beta: 1}.Quantile(-0.1) }},
		{"quantile above 1", func() { TwoStageUniform{Low: 0, Med: 1, High: 2, P: 0.5}.Quantile(1.1) }},
		{"quantile NaN", func() { GeneralizedPareto{Sigma: 1}.Quantile(math.NaN()) }},
		{"Rand without a source: hyperexponential", func() { HyperExponential{Weights: one, Rates: one}.Rand() }},
		{"Rand without a source: hyper-Erlang", func() { HyperErlang{Weights: one, Orders: []int{1}, Scales: one}.Rand() }},
		{"Rand without a source: Gaussian mixture", func() { GaussianMixture{Weights: one, Means: one, StdDevs: one}.Rand() }},
		{"RandComponent without a source", func() { GaussianMixture{Weights: one, Means: one, StdDevs: one}.RandComponent() }},
		{"Rand without a source: two-stage uniform", func() { TwoStageUniform{Low: 0, Med: 1, High: 2, P: 0.5}.Rand() }},
		{"Rand without a source: Zipf", func() { Zipf{Alpha: 2}.Rand() }},
		{"Rand without a source: log-logistic", func() { LogLogistic{Alpha: 1, Beta: 1}.Rand() }},
		{"Rand without a source: generalized Pareto", func() { GeneralizedPareto{Sigma: 1}.Rand() }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", c.name)
				}
			}()
			c.f()
		}()
	}
	for _, p := range []float64{0, 1} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("quantile %v: panic %v", p, r)
				}
			}()
			checkQuantileArg(p)
		}()
	}
	// Well-formed ones do not panic.
	HyperErlang{Weights: one, Orders: []int{1}, Scales: one}.Mean()
	GaussianMixture{Weights: one, Means: one, StdDevs: one}.Mean()
	NewZipf(0.5, 5, nil)
}

// TestRandComponent: RandComponent draws as Rand does from the same
// source, and names the component drawn: with the components 100
// standard deviations apart, every sample lies near its component's mean,
// and component 1 comes up with its weight 0.3 (within four binomial
// standard errors over 20,000 draws, 0.013).
func TestRandComponent(t *testing.T) {
	g := GaussianMixture{Weights: []float64{0.7, 0.3}, Means: []float64{0, 100}, StdDevs: []float64{1, 1}}
	a, b := g, g
	a.Src, b.Src = rand.New(rand.NewPCG(5, 5)), rand.New(rand.NewPCG(5, 5))
	n, ones := 20000, 0
	for range n {
		x, k := a.RandComponent()
		if y := b.Rand(); x != y {
			t.Fatalf("RandComponent %v, Rand %v from the same source", x, y)
		}
		if !(math.Abs(x-g.Means[k]) <= 10) {
			t.Fatalf("sample %v from component %d of mean %v", x, k, g.Means[k])
		}
		ones += k
	}
	if f := float64(ones) / float64(n); !(math.Abs(f-0.3) <= 4*math.Sqrt(0.3*0.7/float64(n))) {
		t.Errorf("component 1 drawn %.4f of the time, want 0.3", f)
	}
}

// TestPickByWeight: pick never returns a component of weight 0, and
// returns each other one with its share of the weights (tolerance four
// binomial standard errors over 40,000 draws).
func TestPickByWeight(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	w := []float64{0, 2, 0, 6, 0}
	n := 40000
	var got [5]int
	for range n {
		got[pick(r, w)]++
	}
	if got[0]+got[2]+got[4] != 0 {
		t.Fatalf("components of weight 0 drawn: %v", got)
	}
	if f := float64(got[1]) / float64(n); !(math.Abs(f-0.25) <= 4*math.Sqrt(0.25*0.75/float64(n))) {
		t.Errorf("component 1 drawn %.4f of the time, want 0.25", f)
	}
	if k := pick(r, []float64{0, 0, 0}); k != 2 {
		t.Errorf("all weights 0: component %d, want the last", k)
	}
}
