package fit

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/hpcwl/hpcwl/dist"
)

// The recovery tests draw n values from gonum's distributions (never from
// the fitter itself) with a fixed seed and require each estimate within a
// relative tolerance. With n = 20,000 the asymptotic relative standard
// error of the two-parameter estimates here is about 1 % (e.g. 1/√n = 0.7 %
// for an exponential rate, √(2/n)·… for shapes), so 4-5 % is about four
// standard errors: loose enough to hold for any seed in practice, tight
// enough to catch a wrong formula (a factor error or swapped parameter).
const nRecover = 20000

func sample(n int, f func() float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = f()
	}
	return x
}

func near(t *testing.T, name string, got, want, relTol float64) {
	t.Helper()
	// Written so that a NaN fails, and an infinite want needs the same
	// infinity (relTol·|want| is infinite there).
	if got != want && !(math.Abs(got-want) <= relTol*math.Abs(want) && !math.IsInf(want, 0)) {
		t.Errorf("%s = %.5g, want %.5g ± %.1f %%", name, got, want, 100*relTol)
	}
}

func TestRecoverSimple(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 1))
	cases := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"exponential", func(t *testing.T) {
			x := sample(nRecover, distuv.Exponential{Rate: 0.01, Src: r}.Rand)
			d, res, err := Exponential(x, nil)
			if err != nil || res.Status != Converged {
				t.Fatal(err)
			}
			near(t, "rate", d.Rate, 0.01, 0.03)
		}},
		{"gamma", func(t *testing.T) {
			x := sample(nRecover, distuv.Gamma{Alpha: 2.5, Beta: 1.0 / 3, Src: r}.Rand)
			d, _, err := Gamma(x, nil)
			if err != nil {
				t.Fatal(err)
			}
			near(t, "shape", d.Alpha, 2.5, 0.04)
			near(t, "scale", 1/d.Beta, 3, 0.04)
		}},
		{"gamma-small-shape", func(t *testing.T) {
			x := sample(nRecover, distuv.Gamma{Alpha: 0.3, Beta: 2, Src: r}.Rand)
			d, _, err := Gamma(x, nil)
			if err != nil {
				t.Fatal(err)
			}
			near(t, "shape", d.Alpha, 0.3, 0.04)
			near(t, "rate", d.Beta, 2, 0.06)
		}},
		{"lognormal", func(t *testing.T) {
			x := sample(nRecover, distuv.LogNormal{Mu: 5, Sigma: 1.5, Src: r}.Rand)
			d, _, err := LogNormal(x, nil)
			if err != nil {
				t.Fatal(err)
			}
			near(t, "mu", d.Mu, 5, 0.01)
			near(t, "sigma", d.Sigma, 1.5, 0.02)
		}},
		{"weibull", func(t *testing.T) {
			x := sample(nRecover, distuv.Weibull{K: 0.7, Lambda: 1000, Src: r}.Rand)
			d, _, err := Weibull(x, nil)
			if err != nil {
				t.Fatal(err)
			}
			near(t, "shape", d.K, 0.7, 0.03)
			near(t, "scale", d.Lambda, 1000, 0.04)
		}},
		{"loglogistic", func(t *testing.T) {
			// ln X is logistic(ln α, 1/β); gonum's Logistic has no sampler,
			// so invert its CDF: ln X = ln α + ln(u/(1−u))/β.
			x := sample(nRecover, func() float64 {
				u := r.Float64()
				return 100 * math.Exp(math.Log(u/(1-u))/2.5)
			})
			d, _, err := LogLogistic(x, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			near(t, "scale", d.Alpha, 100, 0.04)
			near(t, "shape", d.Beta, 2.5, 0.04)
		}},
		{"gpd", func(t *testing.T) {
			// If Y ~ Pareto(1, 1/ξ) then σ(Y−1)/ξ ~ GPD(0, σ, ξ).
			const sigma, xi = 50.0, 0.25
			p := distuv.Pareto{Xm: 1, Alpha: 1 / xi, Src: r}
			x := sample(nRecover, func() float64 { return sigma * (p.Rand() - 1) / xi })
			d, _, err := GeneralizedPareto(x, nil, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			near(t, "sigma", d.Sigma, sigma, 0.04)
			near(t, "xi", d.Xi, xi, 0.1) // shape s.e. ≈ (1+ξ)/√n = 0.9 %·… relative ≈ 3.5 %
		}},
		{"zipf", func(t *testing.T) {
			z := dist.NewZipf(1.8, 500, r)
			x := sample(nRecover, z.Rand)
			d, _, err := Zipf(x, 500)
			if err != nil {
				t.Fatal(err)
			}
			near(t, "alpha", d.Alpha, 1.8, 0.02)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, c.run)
	}
}

func TestRecoverHyperGamma(t *testing.T) {
	// Table 2's KTH parameters (ln runtime): the upper component has a large
	// shape that is weakly identified (α2 and β2 trade off along a ridge of
	// equal mean α2β2), so α2 and β2 get 20 % while the component means,
	// which determine the runtime distribution, get 2 % and p gets 0.02.
	want := dist.HyperGamma{Shape1: 5.76, Scale1: 0.82, Shape2: 159.5, Scale2: 0.05, P: 0.61}
	r := rand.New(rand.NewPCG(11, 1))
	g1 := distuv.Gamma{Alpha: want.Shape1, Beta: 1 / want.Scale1, Src: r}
	g2 := distuv.Gamma{Alpha: want.Shape2, Beta: 1 / want.Scale2, Src: r}
	x := sample(nRecover, func() float64 {
		if r.Float64() < want.P {
			return g1.Rand()
		}
		return g2.Rand()
	})
	got, res, err := HyperGamma(x, nil)
	if err != nil {
		t.Fatalf("%v (%+v)", err, res)
	}
	near(t, "mean1", got.Shape1*got.Scale1, want.Shape1*want.Scale1, 0.02)
	near(t, "mean2", got.Shape2*got.Scale2, want.Shape2*want.Scale2, 0.02)
	near(t, "shape1", got.Shape1, want.Shape1, 0.1)
	near(t, "shape2", got.Shape2, want.Shape2, 0.2)
	if !(math.Abs(got.P-want.P) <= 0.02) {
		t.Errorf("p = %v, want %v", got.P, want.P)
	}
	// The weight-only fit recovers p with the components held fixed.
	p, _, err := HyperGammaWeight(x, want, nil)
	if err != nil || !(math.Abs(p-want.P) <= 0.015) {
		t.Errorf("HyperGammaWeight = %v, %v", p, err)
	}
}

func TestMiddleMinimumSplitsAtValley(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 1))
	g1 := distuv.Gamma{Alpha: 20, Beta: 10, Src: r}  // mean 2
	g2 := distuv.Gamma{Alpha: 200, Beta: 25, Src: r} // mean 8
	x := sample(5000, func() float64 {
		if r.Float64() < 0.3 {
			return g1.Rand()
		}
		return g2.Rand()
	})
	h, err := MiddleMinimum(x)
	if err != nil {
		t.Fatal(err)
	}
	if !(math.Abs(h.P-0.3) <= 0.02) {
		t.Errorf("initial p = %v, want ≈ 0.3 (split in the valley)", h.P)
	}
}

func TestRecoverMixtures(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 1))
	t.Run("hyperexponential", func(t *testing.T) {
		e1, e2 := distuv.Exponential{Rate: 1, Src: r}, distuv.Exponential{Rate: 0.02, Src: r}
		x := sample(nRecover, func() float64 {
			if r.Float64() < 0.8 {
				return e1.Rand()
			}
			return e2.Rand()
		})
		d, _, err := HyperExponential(x, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		near(t, "rate1", d.Rates[0], 1, 0.05) // phases ordered by mean: short first
		near(t, "rate2", d.Rates[1], 0.02, 0.05)
		near(t, "p", d.Weights[0], 0.8, 0.02)
	})
	t.Run("hypererlang", func(t *testing.T) {
		g1, g2 := distuv.Gamma{Alpha: 3, Beta: 1, Src: r}, distuv.Gamma{Alpha: 3, Beta: 0.05, Src: r}
		x := sample(nRecover, func() float64 {
			if r.Float64() < 0.6 {
				return g1.Rand()
			}
			return g2.Rand()
		})
		d, _, err := HyperErlang(x, 2, 6, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d.Orders[0] != 3 {
			t.Errorf("order = %d, want 3", d.Orders[0])
		}
		near(t, "scale1", d.Scales[0], 1, 0.05)
		near(t, "scale2", d.Scales[1], 20, 0.05)
		near(t, "p", d.Weights[0], 0.6, 0.03)
	})
	t.Run("gmm-bic", func(t *testing.T) {
		comps := []distuv.Normal{{Mu: 0, Sigma: 1, Src: r}, {Mu: 8, Sigma: 2, Src: r}, {Mu: 20, Sigma: 0.5, Src: r}}
		w := []float64{0.5, 0.3, 0.2}
		x := sample(6000, func() float64 {
			u := r.Float64()
			switch {
			case u < w[0]:
				return comps[0].Rand()
			case u < w[0]+w[1]:
				return comps[1].Rand()
			}
			return comps[2].Rand()
		})
		best, all, err := SelectGaussianMixture(x, 5, &Settings{Tolerance: 1e-8})
		if err != nil {
			t.Fatal(err)
		}
		if best.G != 3 || best.Model != Unequal {
			t.Fatalf("selected G=%d %v, want 3 V (%d candidates)", best.G, best.Model, len(all))
		}
		for k, c := range comps {
			if !(math.Abs(best.Dist.Means[k]-c.Mu) <= 0.05*c.Sigma*math.Sqrt(1/w[k])) {
				t.Errorf("mean %d = %v, want %v", k, best.Dist.Means[k], c.Mu)
			}
			near(t, "sd", best.Dist.StdDevs[k], c.Sigma, 0.05)
			if !(math.Abs(best.Dist.Weights[k]-w[k]) <= 0.02) {
				t.Errorf("weight %d = %v, want %v", k, best.Dist.Weights[k], w[k])
			}
		}
	})
}

func TestRecoverTwoStageUniform(t *testing.T) {
	// KTH's Table 1 fit (log2 size): l 0.70, m 4.00, h 6.64, p 0.84. The KS
	// fit of a continuous sample recovers the knots to about 0.05 in log2
	// units with n = 5000 (a 0.05 shift of a knot moves the CDF by ≈ 0.013,
	// about the KS noise level 1/√n). h gets 0.1: only 16 % of the mass lies
	// above m, so moving h by 0.1 changes the CDF by at most 0.006).
	r := rand.New(rand.NewPCG(14, 1))
	u1, u2 := distuv.Uniform{Min: 0.7, Max: 4, Src: r}, distuv.Uniform{Min: 4, Max: 6.64, Src: r}
	x := sample(5000, func() float64 {
		if r.Float64() < 0.84 {
			return u1.Rand()
		}
		return u2.Rand()
	})
	d, ks, _, err := TwoStageUniform(x, FreeTSU(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][3]float64{{d.Low, 0.7, 0.05}, {d.Med, 4, 0.05}, {d.High, 6.64, 0.1}, {d.P, 0.84, 0.01}} {
		if !(math.Abs(c[0]-c[1]) <= c[2]) {
			t.Errorf("got %v, want %v ± %v (fit %+v, D %v)", c[0], c[1], c[2], d, ks)
		}
	}
	d2, _, _, err := TwoStageUniform(x, TwoStageUniformOptions{Low: math.NaN(), High: 6.64}, nil)
	if err != nil || d2.High != 6.64 {
		t.Errorf("fixed High: %+v %v", d2, err)
	}
}

func TestErrors(t *testing.T) {
	if _, _, err := Gamma([]float64{1}, nil); !errors.Is(err, ErrTooFew) {
		t.Errorf("Gamma of one value: %v", err)
	}
	if _, _, err := Gamma([]float64{1, 0, 2}, nil); !errors.Is(err, ErrDomain) {
		t.Errorf("Gamma with 0: %v", err)
	}
	if _, _, err := HyperGamma([]float64{1, 2}, nil); !errors.Is(err, ErrTooFew) {
		t.Errorf("HyperGamma of two values: %v", err)
	}
	if _, _, err := Zipf([]float64{1, 2.5}, 0); !errors.Is(err, ErrDomain) {
		t.Errorf("Zipf of 2.5: %v", err)
	}
	if s := IterationLimit; s.Err() != ErrIterationLimit || s.String() != "iteration limit" {
		t.Errorf("status %v", s)
	}
}

func TestRank(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 1))
	x := sample(5000, distuv.LogNormal{Mu: 3, Sigma: 1, Src: r}.Rand)
	cands, err := Rank(x, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cands[0].Name != "lognormal" && cands[0].Name != "hypergamma" && cands[0].Name != "loglogistic" {
		t.Errorf("best = %s (D %v)", cands[0].Name, cands[0].KS.D)
	}
	for _, c := range cands {
		if c.Name == "exponential" && c.KS.D < cands[0].KS.D {
			t.Error("not sorted")
		}
	}
	if _, err := Rank(x, []string{"nope"}, nil); err == nil {
		t.Error("unknown name accepted")
	}
}

func BenchmarkHyperGammaEM(b *testing.B) {
	r := rand.New(rand.NewPCG(16, 1))
	h := dist.HyperGamma{Shape1: 4.2, Scale1: 0.94, Shape2: 312, Scale2: 0.03, P: 0.7, Src: r}
	x := sample(50000, h.Rand)
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := HyperGamma(x, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestHyperGammaDuplicates checks that fitting a sample in which every
// value appears k times gives the fit of the sample itself: the EM works
// on distinct values weighted by their counts, and the log-likelihood of
// the repeated sample is k times the original's. The middle-minimum
// histogram has more bins for the larger sample, so EM starts elsewhere and
// stops (at relative tolerance 1e-10 on the log-likelihood) a few 1e-6
// away: parameters agree to 1e-4.
func TestHyperGammaDuplicates(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	g1 := distuv.Gamma{Alpha: 4, Beta: 1, Src: r}
	g2 := distuv.Gamma{Alpha: 300, Beta: 1 / 0.03, Src: r}
	base := sample(2000, func() float64 {
		if r.Float64() < 0.6 {
			return g1.Rand()
		}
		return g2.Rand()
	})
	h0, r0, err := HyperGamma(base, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{2, 5} {
		var rep []float64
		for range k {
			rep = append(rep, base...)
		}
		h, res, err := HyperGamma(rep, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range [][2]float64{{h.Shape1, h0.Shape1}, {h.Scale1, h0.Scale1}, {h.Shape2, h0.Shape2}, {h.Scale2, h0.Scale2}, {h.P, h0.P}} {
			if !(math.Abs(c[0]-c[1]) <= 1e-4*math.Abs(c[1])) {
				t.Errorf("k = %d: %+v, want %+v", k, h, h0)
				break
			}
		}
		if !(math.Abs(res.LogLikelihood-float64(k)*r0.LogLikelihood) <= 1e-6*math.Abs(res.LogLikelihood)) {
			t.Errorf("k = %d: log-likelihood %v, want %v", k, res.LogLikelihood, float64(k)*r0.LogLikelihood)
		}
	}
}

// TestRankGoodnessOfFit checks the chi-square and Anderson-Darling results
// of Rank: a sample from a Gamma passes both tests for the Gamma fit and
// fails them for the exponential.
func TestRankGoodnessOfFit(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	g := distuv.Gamma{Alpha: 3, Beta: 0.5, Src: r}
	x := sample(5000, g.Rand)
	cs, err := Rank(x, []string{"gamma", "exponential"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cand Candidate
		pass bool
	}{{cs[0], true}, {cs[1], false}} {
		k := ChiSquareBins(len(x))
		if c.cand.ChiSquare.DF != k-1-c.cand.Result.NumParameters {
			t.Errorf("%s: chi-square df %d, want %d", c.cand.Name, c.cand.ChiSquare.DF, k-1-c.cand.Result.NumParameters)
		}
		if got := c.cand.ChiSquare.PValue > 0.01 && c.cand.AD.PValue > 0.01; got != c.pass {
			t.Errorf("%s: chi-square p %.3g, AD p %.3g; want pass = %v", c.cand.Name, c.cand.ChiSquare.PValue, c.cand.AD.PValue, c.pass)
		}
	}
}
