package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// ar1 returns n observations of the AR(1) process x_t = mu + phi (x_{t-1}
// - mu) + e_t with standard normal e_t, started in its stationary
// distribution, so that its mean is exactly mu.
func ar1(rng *rand.Rand, n int, mu, phi float64) []float64 {
	x := make([]float64, n)
	prev := rng.NormFloat64() / math.Sqrt(1-phi*phi)
	for i := range x {
		prev = phi*prev + rng.NormFloat64()
		x[i] = mu + prev
	}
	return x
}

// TestBatchMeansCoverage checks that the 95% interval covers the true
// mean of AR(1) series at its nominal rate. Over 400 seeds the number of
// covering intervals is binomial with p = 0.95 if the method is exact:
// standard deviation √(400 x 0.95 x 0.05) = 4.4 intervals, so a coverage
// within 3 standard deviations is 367 to 393 (0.9175 to 0.9825). The
// method's own bias (batch means correlate slightly, see
// BatchTauMultiple) lowers the expected coverage a little for phi = 0.9
// (measured 0.9475 at these seeds).
func TestBatchMeansCoverage(t *testing.T) {
	const seeds, n, mu = 400, 10000, 3.0
	for _, phi := range []float64{0, 0.5, 0.9} {
		covered := 0
		var batches int
		for s := range seeds {
			rng := rand.New(rand.NewPCG(uint64(s), 17))
			ci, err := BatchMeans(ar1(rng, n, mu, phi), 0.95)
			if err != nil {
				t.Fatalf("phi %v seed %d: %v", phi, s, err)
			}
			if ci.Low <= mu && mu <= ci.High {
				covered++
			}
			batches += ci.Batches
		}
		rate := float64(covered) / seeds
		t.Logf("phi %v: coverage %.4f, mean %d batches", phi, rate, batches/seeds)
		if rate < 0.9175 || rate > 0.9825 {
			t.Errorf("phi %v: coverage %.4f outside [0.9175, 0.9825]", phi, rate)
		}
	}
}

func TestAutocorrTime(t *testing.T) {
	// AR(1): τ = (1+φ)/(1-φ): 3 for φ = 0.5, 19 for φ = 0.9.
	for _, c := range []struct{ phi, want, tol float64 }{{0, 1, 0.1}, {0.5, 3, 0.3}, {0.9, 19, 3}} {
		rng := rand.New(rand.NewPCG(1, 2))
		tau, _, ok := AutocorrTime(ar1(rng, 100000, 0, c.phi))
		if !ok || !(math.Abs(tau-c.want) <= c.tol) {
			t.Errorf("phi %v: tau %v (ok %v), want %v ± %v", c.phi, tau, ok, c.want, c.tol)
		}
	}
	if tau, _, ok := AutocorrTime([]float64{2, 2, 2, 2}); tau != 1 || !ok {
		t.Errorf("constant series: tau %v ok %v", tau, ok)
	}
}

func TestBatchMeansErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	if _, err := BatchMeans(ar1(rng, 200, 0, 0.95), 0.95); !errors.Is(err, ErrShortSeries) {
		t.Errorf("short correlated series: %v", err)
	}
	if _, err := BatchMeans([]float64{1, 2, 3}, 1.5); err == nil {
		t.Error("level 1.5 accepted")
	}
	ci, err := BatchMeans(make([]float64, 100), 0.9)
	if err != nil || ci.Low != 0 || ci.High != 0 {
		t.Errorf("constant series: %+v %v", ci, err)
	}
}

func TestMSERTruncation(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x := ar1(rng, 5000, 10, 0.5)
	if d := MSERTruncation(x, 0); d > 250 {
		t.Errorf("stationary series: truncation %d", d)
	}
	// A transient: the first 1000 observations start 50 above the mean
	// and decay linearly.
	for i := range 1000 {
		x[i] += 50 * float64(1000-i) / 1000
	}
	if d := MSERTruncation(x, 0); d < 700 || d > 1500 {
		t.Errorf("transient of 1000: truncation %d", d)
	}
	if d := MSERTruncation(x, 500); d != 500 {
		t.Errorf("transient of 1000 within 500: truncation %d, want the bound", d)
	}
	if MSERTruncation([]float64{1, 2, 3}, 0) != 0 {
		t.Error("short series truncated")
	}
}
