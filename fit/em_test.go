package fit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/hpcwl/hpcwl/dist"
)

// sumLog returns Σ ln f(x_i).
func sumLog(x []float64, logProb func(float64) float64) float64 {
	s := 0.0
	for _, v := range x {
		s += logProb(v)
	}
	return s
}

// emFitter runs one EM fitter with the given settings and returns its fitted
// parameters, the density they define and the fit's result.
type emFitter struct {
	name string
	x    []float64
	// fit runs the fitter; params are the free parameters of the fit.
	fit func(s *Settings) (params []float64, r Result, err error)
	// logProb builds the log density of free parameters p.
	logProb func(p []float64) func(float64) float64
	// start is the log density of the documented starting point, worked
	// out here from the sorted sample.
	start func() func(float64) float64
}

// twoNormals is a sample of 40 values from N(0, 1) and 30 from N(6, 1.5)
// (seed 21), so that the equal-count start (35 and 35 values) differs from
// the mixture EM converges to.
func twoNormals() []float64 {
	r := rand.New(rand.NewPCG(21, 1))
	a, b := distuv.Normal{Mu: 0, Sigma: 1, Src: r}, distuv.Normal{Mu: 6, Sigma: 1.5, Src: r}
	return append(sample(40, a.Rand), sample(30, b.Rand)...)
}

// twoExponentials is a sample of 50 values of mean 1 and 25 of mean 30
// (seed 22).
func twoExponentials() []float64 {
	r := rand.New(rand.NewPCG(22, 1))
	a, b := distuv.Exponential{Rate: 1, Src: r}, distuv.Exponential{Rate: 1.0 / 30, Src: r}
	return append(sample(50, a.Rand), sample(25, b.Rand)...)
}

// twoGammas is a sample of 60 values of Gamma(8, scale 0.5) and 40 of
// Gamma(40, scale 0.5) (seed 23): means 4 and 20.
func twoGammas() []float64 {
	r := rand.New(rand.NewPCG(23, 1))
	a, b := distuv.Gamma{Alpha: 8, Beta: 2, Src: r}, distuv.Gamma{Alpha: 40, Beta: 2, Src: r}
	return append(sample(60, a.Rand), sample(40, b.Rand)...)
}

func gmmFitter(model VarianceModel) emFitter {
	x := twoNormals()
	mk := func(p []float64) dist.GaussianMixture {
		sd1 := p[3]
		if model == Unequal {
			sd1 = p[4]
		}
		return dist.GaussianMixture{Weights: []float64{p[0], 1 - p[0]}, Means: []float64{p[1], p[2]}, StdDevs: []float64{p[3], sd1}}
	}
	return emFitter{
		name: "gmm " + model.String(),
		x:    x,
		fit: func(s *Settings) ([]float64, Result, error) {
			d, r, err := GaussianMixture(x, 2, model, s)
			p := []float64{d.Weights[0], d.Means[0], d.Means[1], d.StdDevs[0]}
			if model == Unequal {
				p = append(p, d.StdDevs[1])
			}
			return p, r, err
		},
		logProb: func(p []float64) func(float64) float64 { return mk(p).LogProb },
		start: func() func(float64) float64 {
			// Halves of the sorted sample: 35 values each, their means and
			// (n−1) variances; E pools them weighted by 35/70.
			s := append([]float64(nil), x...)
			sort.Float64s(s)
			m1, v1 := stat.MeanVariance(s[:35], nil)
			m2, v2 := stat.MeanVariance(s[35:], nil)
			if model == Equal {
				v1 = (v1 + v2) / 2
				v2 = v1
			}
			return dist.GaussianMixture{Weights: []float64{0.5, 0.5}, Means: []float64{m1, m2}, StdDevs: []float64{math.Sqrt(v1), math.Sqrt(v2)}}.LogProb
		},
	}
}

func hyperExpFitter() emFitter {
	x := twoExponentials()
	mk := func(p []float64) dist.HyperExponential {
		return dist.HyperExponential{Weights: []float64{p[0], 1 - p[0]}, Rates: []float64{p[1], p[2]}}
	}
	return emFitter{
		name: "hyperexponential",
		x:    x,
		fit: func(s *Settings) ([]float64, Result, error) {
			d, r, err := HyperExponential(x, 2, s)
			return []float64{d.Weights[0], d.Rates[0], d.Rates[1]}, r, err
		},
		logProb: func(p []float64) func(float64) float64 { return mk(p).LogProb },
		start: func() func(float64) float64 {
			// 75 values: parts of 37 and 38 values, weights 37/75 and
			// 38/75, rates 1/mean of each part.
			s := append([]float64(nil), x...)
			sort.Float64s(s)
			return mk([]float64{37.0 / 75, 1 / stat.Mean(s[:37], nil), 1 / stat.Mean(s[37:], nil)}).LogProb
		},
	}
}

func hyperErlangFitter(order int) emFitter {
	x := twoGammas()
	mk := func(p []float64) dist.HyperErlang {
		return dist.HyperErlang{Weights: []float64{p[0], 1 - p[0]}, Orders: []int{order, order}, Scales: []float64{p[1], p[2]}}
	}
	return emFitter{
		name: fmt.Sprintf("hyper-Erlang of order %d", order),
		x:    x,
		fit: func(s *Settings) ([]float64, Result, error) {
			d, r, err := hyperErlangEM(x, 2, order, s)
			return []float64{d.Weights[0], d.Scales[0], d.Scales[1]}, r, err
		},
		logProb: func(p []float64) func(float64) float64 { return mk(p).LogProb },
		start: func() func(float64) float64 {
			// Halves of 50 values; each phase's scale is its part's mean
			// over the order.
			s := append([]float64(nil), x...)
			sort.Float64s(s)
			r := float64(order)
			return mk([]float64{0.5, stat.Mean(s[:50], nil) / r, stat.Mean(s[50:], nil) / r}).LogProb
		},
	}
}

func hyperGammaFitter() emFitter {
	x := twoGammas()
	mk := func(p []float64) dist.HyperGamma {
		return dist.HyperGamma{Shape1: p[0], Scale1: p[1], Shape2: p[2], Scale2: p[3], P: p[4]}
	}
	return emFitter{
		name: "hyper-gamma",
		x:    x,
		fit: func(s *Settings) ([]float64, Result, error) {
			h, r, err := HyperGamma(x, s)
			return []float64{h.Shape1, h.Scale1, h.Shape2, h.Scale2, h.P}, r, err
		},
		logProb: func(p []float64) func(float64) float64 { return mk(p).LogProb },
		start: func() func(float64) float64 {
			h, err := MiddleMinimum(x)
			if err != nil {
				panic(err)
			}
			return h.LogProb
		},
	}
}

func emFitters() []emFitter {
	return []emFitter{gmmFitter(Unequal), gmmFitter(Equal), hyperExpFitter(), hyperErlangFitter(1), hyperErlangFitter(3), hyperGammaFitter()}
}

// TestEMTrace follows each EM fitter iteration by iteration: a run limited
// to k iterations reports the log-likelihood L_k of its k-th E-step, the
// likelihood of the parameters after k − 1 M-steps. EM never decreases the
// likelihood, so L_k must not decrease (up to rounding, 1e-12 relative);
// L_1 is the likelihood of the documented start, worked out here; each
// limited run ends with IterationLimit after exactly k iterations; and the
// run without a limit stops at the first K with |L_K − L_{K−1}| <
// Tolerance·|L_K|, reporting K iterations.
func TestEMTrace(t *testing.T) {
	const tol = 1e-7
	for _, f := range emFitters() {
		t.Run(f.name, func(t *testing.T) {
			_, full, err := f.fit(&Settings{Tolerance: tol})
			if err != nil || full.Status != Converged {
				t.Fatalf("%v (%+v)", err, full)
			}
			K := full.Iterations
			if K < 3 || K > 500 {
				t.Fatalf("converged after %d iterations", K)
			}
			ls := make([]float64, K+1)
			for k := 1; k <= K; k++ {
				_, r, err := f.fit(&Settings{Tolerance: tol, MaxIterations: k})
				ls[k] = r.LogLikelihood
				if k < K && (r.Status != IterationLimit || err != ErrIterationLimit || r.Iterations != k) {
					t.Errorf("limit %d: status %v, error %v, %d iterations", k, r.Status, err, r.Iterations)
				}
				if k == K && (r.Status != Converged || r.Iterations != K || r.LogLikelihood != full.LogLikelihood) {
					t.Errorf("limit %d: %+v, want %+v", k, r, full)
				}
			}
			if want := sumLog(f.x, f.start()); !(math.Abs(ls[1]-want) <= 1e-9*math.Abs(want)) {
				t.Errorf("L_1 = %v, want %v (the start's log-likelihood)", ls[1], want)
			}
			for k := 2; k <= K; k++ {
				if ls[k] < ls[k-1]-1e-12*math.Abs(ls[k]) {
					t.Errorf("L_%d = %v < L_%d = %v", k, ls[k], k-1, ls[k-1])
				}
				if stop := math.Abs(ls[k]-ls[k-1]) < tol*math.Abs(ls[k]); stop != (k == K) {
					t.Errorf("iteration %d: change %.3g, threshold %.3g, stopped at %d", k, ls[k]-ls[k-1], tol*math.Abs(ls[k]), K)
				}
			}
		})
	}
}

// TestEMFitIsLocalMaximum checks the converged fits against the likelihood
// itself: the reported log-likelihood is Σ ln f(x_i) under the returned
// parameters, and moving any free parameter by 0.1 % either way does not
// raise it (EM at relative tolerance 1e-13 stops far closer to the maximum
// than that: a step of δ from a point ε away gains about H ε δ − H δ²/2,
// a loss whenever ε < δ/2).
func TestEMFitIsLocalMaximum(t *testing.T) {
	for _, f := range emFitters() {
		t.Run(f.name, func(t *testing.T) {
			p, r, err := f.fit(&Settings{Tolerance: 1e-13, MaxIterations: 100000})
			if err != nil {
				t.Fatal(err)
			}
			ll := sumLog(f.x, f.logProb(p))
			if !(math.Abs(r.LogLikelihood-ll) <= 1e-10*math.Abs(ll)) {
				t.Errorf("reported log-likelihood %v, Σ ln f(x) = %v", r.LogLikelihood, ll)
			}
			for i := range p {
				for _, s := range []float64{-1e-3, 1e-3} {
					q := append([]float64(nil), p...)
					q[i] *= 1 + s
					if l := sumLog(f.x, f.logProb(q)); l > ll+1e-12*math.Abs(ll) {
						t.Errorf("parameter %d × %v: log-likelihood %v > %v at the fit %v", i, 1+s, l, ll, p)
					}
				}
			}
		})
	}
}
