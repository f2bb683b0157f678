package dist

import (
	"math"
	"testing"
)

// TestSurvivalByHand checks P(X > x) of every distribution against its
// closed form, worked out by hand at a few points.
func TestSurvivalByHand(t *testing.T) {
	e := math.Exp
	normalTail := func(z float64) float64 { return 0.5 * math.Erfc(z/math.Sqrt2) }
	hyperExp := HyperExponential{Weights: []float64{0.8, 0.2}, Rates: []float64{1, 0.05}}
	// Erlang-k of scale s: P(X > x) = e^{-x/s} Σ_{i<k} (x/s)^i / i!.
	hyperErl := HyperErlang{Weights: []float64{0.6, 0.4}, Orders: []int{2, 5}, Scales: []float64{1, 3}}
	hyperGam := HyperGamma{Shape1: 2, Scale1: 1, Shape2: 1, Scale2: 2, P: 0.5}
	gmm := GaussianMixture{Weights: []float64{0.3, 0.7}, Means: []float64{-1, 3}, StdDevs: []float64{0.5, 1.5}}
	tsu := TwoStageUniform{Low: 0.8, Med: 4.5, High: 7, P: 0.86}
	zeta2 := math.Pi * math.Pi / 6
	for _, c := range []struct {
		name string
		got  float64
		want float64
	}{
		{"hyperexponential at 10", hyperExp.Survival(10), 0.8*e(-10) + 0.2*e(-0.5)},
		{"hyper-Erlang at 3", hyperErl.Survival(3), 0.6*e(-3)*(1+3) + 0.4*e(-1)*(1+1+0.5+1.0/6+1.0/24)},
		{"hypergamma at 2", hyperGam.Survival(2), 0.5*e(-2)*(1+2) + 0.5*e(-1)},
		{"Gaussian mixture at -1", gmm.Survival(-1), 0.3*0.5 + 0.7*normalTail(-4/1.5)},
		{"Gaussian mixture at 3", gmm.Survival(3), 0.3*normalTail(8) + 0.7*0.5},
		{"two-stage uniform at 4.5", tsu.Survival(4.5), 0.14},
		{"two-stage uniform at 5.75", tsu.Survival(5.75), 0.14 * 1.25 / 2.5},
		{"two-stage uniform below", tsu.Survival(0), 1},
		{"two-stage uniform above", tsu.Survival(9), 0},
		// Zipf α = 2 untruncated: P(X > 1) = (ζ(2) - 1) / ζ(2).
		{"Zipf at 1", Zipf{Alpha: 2}.Survival(1), (zeta2 - 1) / zeta2},
		{"Zipf at 1.5", Zipf{Alpha: 2}.Survival(1.5), (zeta2 - 1) / zeta2},
		{"Zipf below 1", Zipf{Alpha: 2}.Survival(0.5), 1},
		// Zipf α = 1 on 1..3: masses 1, 1/2, 1/3 over 11/6.
		{"truncated Zipf at 1", Zipf{Alpha: 1, Max: 3}.Survival(1), 5.0 / 11},
		{"truncated Zipf at 2.5", Zipf{Alpha: 1, Max: 3}.Survival(2.5), 2.0 / 11},
		{"truncated Zipf at 3", Zipf{Alpha: 1, Max: 3}.Survival(3), 0},
		// Log-logistic α = 10, β = 2: 1 / (1 + (x/α)^β).
		{"log-logistic at 20", LogLogistic{Alpha: 10, Beta: 2}.Survival(20), 0.2},
		{"log-logistic at 0", LogLogistic{Alpha: 10, Beta: 2}.Survival(0), 1},
		{"log-logistic CDF at 20", LogLogistic{Alpha: 10, Beta: 2}.CDF(20), 0.8},
		{"log-logistic CDF at 0", LogLogistic{Alpha: 10, Beta: 2}.CDF(0), 0},
		// Generalized Pareto μ = 1, σ = 2: (1 + ξ z)^(-1/ξ), z = (x-μ)/σ.
		{"GPD ξ 0.5 at 3", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: 0.5}.Survival(3), 1 / 2.25},
		{"GPD ξ 0 at 3", GeneralizedPareto{Mu: 1, Sigma: 2}.Survival(3), e(-1)},
		{"GPD ξ -0.5 at 3", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: -0.5}.Survival(3), 0.25},
		{"GPD ξ -0.5 at its end 5", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: -0.5}.Survival(5), 0},
		{"GPD ξ -0.5 beyond", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: -0.5}.Survival(6), 0},
		{"GPD at μ", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: 0.5}.Survival(1), 1},
		{"GPD below μ", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: 0.5}.Survival(0), 1},
	} {
		if !(math.Abs(c.got-c.want) <= 1e-12) {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestLogLogisticAndParetoByHand pins the densities, quantiles and moments
// of the log-logistic and generalized Pareto distributions at hand-worked
// points, and the infinite moments past the shape limits.
func TestLogLogisticAndParetoByHand(t *testing.T) {
	inf := math.Inf(1)
	ll := LogLogistic{Alpha: 10, Beta: 2}
	ll4 := LogLogistic{Alpha: 10, Beta: 4}
	gp := GeneralizedPareto{Mu: 1, Sigma: 2, Xi: 0.5}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		// f(x) = (β/α)(x/α)^(β-1) / (1 + (x/α)^β)².
		{"log-logistic density at α", ll.Prob(10), 0.2 / 4},
		{"log-logistic density at 20", ll.Prob(20), 0.2 * 2 / 25},
		{"log-logistic log density at 0", ll.LogProb(0), math.Inf(-1)},
		// α 1, β 20 at x 100: (x/α)^β = 1e40, past the softplus switch.
		{"log-logistic far tail", LogLogistic{Alpha: 1, Beta: 20}.LogProb(100), math.Log(20) + 19*math.Log(100) - 2*40*math.Log(10)},
		{"log-logistic quantile 0.8", ll.Quantile(0.8), 20},
		// Mean απ/β / sin(π/β); variance α²(2b/sin 2b - b²/sin² b), b = π/β.
		{"log-logistic mean, β 2", ll.Mean(), 10 * math.Pi / 2},
		{"log-logistic mean, β 4", ll4.Mean(), 10 * (math.Pi / 4) / math.Sqrt(0.5)},
		{"log-logistic variance, β 4", ll4.Variance(), 100 * (math.Pi/2 - math.Pi*math.Pi/8)},
		{"log-logistic mean, β 1", LogLogistic{Alpha: 10, Beta: 1}.Mean(), inf},
		{"log-logistic variance, β 2", ll.Variance(), inf},
		// GPD: f = (1/σ)(1 + ξz)^(-1/ξ - 1).
		{"GPD log density ξ 0.5", gp.LogProb(3), -math.Log(2) - 3*math.Log(1.5)},
		{"GPD log density ξ 0", GeneralizedPareto{Mu: 1, Sigma: 2}.LogProb(3), -math.Log(2) - 1},
		{"GPD log density ξ -0.5", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: -0.5}.LogProb(3), -2 * math.Log(2)},
		{"GPD log density below μ", gp.LogProb(0.5), math.Inf(-1)},
		{"GPD log density past the end", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: -0.5}.LogProb(6), math.Inf(-1)},
		{"GPD quantile ξ 0.5", gp.Quantile(5.0 / 9), 3},
		{"GPD quantile ξ 0", GeneralizedPareto{Mu: 1, Sigma: 2}.Quantile(1 - math.Exp(-1)), 3},
		{"GPD mean ξ 0.5", gp.Mean(), 5},
		{"GPD mean ξ 1", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: 1}.Mean(), inf},
		{"GPD variance ξ 0.25", GeneralizedPareto{Mu: 1, Sigma: 2, Xi: 0.25}.Variance(), 4 / (0.75 * 0.75 * 0.5)},
		{"GPD variance ξ 0.5", gp.Variance(), inf},
	} {
		if !agrees(c.got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestNumParameters: the free parameters of each family, k-1 weights plus
// the components' own for the mixtures of k.
func TestNumParameters(t *testing.T) {
	two := []float64{0.5, 0.5}
	for _, c := range []struct {
		name string
		d    Continuous
		want int
	}{
		{"hyperexponential of 2", HyperExponential{Weights: two, Rates: []float64{1, 2}}, 3},
		{"hyper-Erlang of 2", HyperErlang{Weights: two, Orders: []int{1, 2}, Scales: []float64{1, 2}}, 3},
		{"hypergamma", HyperGamma{}, 5},
		{"Gaussian mixture of 2", GaussianMixture{Weights: two, Means: two, StdDevs: two}, 5},
		{"two-stage uniform", TwoStageUniform{}, 4},
		{"Zipf", Zipf{Alpha: 2}, 1},
		{"log-logistic", LogLogistic{}, 2},
		{"generalized Pareto", GeneralizedPareto{}, 3},
	} {
		if got := c.d.NumParameters(); got != c.want {
			t.Errorf("%s: %d parameters, want %d", c.name, got, c.want)
		}
	}
	if n := (GaussianMixture{Weights: two, Means: two, StdDevs: two}).Len(); n != 2 {
		t.Errorf("Gaussian mixture of 2: Len %d", n)
	}
}

// agrees reports whether got equals want to 1e-9 relative (absolute below 1).
// An infinite want is met only by the same infinity: the relative bound
// 1e-9·|want| is itself infinite there and would accept any value.
func agrees(got, want float64) bool {
	if math.IsInf(want, 0) || math.IsNaN(want) {
		return got == want || math.IsNaN(got) && math.IsNaN(want)
	}
	return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))
}
