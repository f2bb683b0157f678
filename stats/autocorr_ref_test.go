package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/dsp/fourier"
	"gonum.org/v1/gonum/stat"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/trace"
)

// refAutocorrTime is AutocorrTime as it was computed before the blocked
// transform: one transform of the whole centred series, zero-padded to a
// power of two of at least twice its length (40 bytes per point). It is
// the reference the blocked computation must match up to rounding.
func refAutocorrTime(x []float64) (tau float64, window int, ok bool) {
	n := len(x)
	if n < 2 {
		return 1, 0, false
	}
	mean := stat.Mean(x, nil)
	m := 1
	for m < 2*n {
		m <<= 1
	}
	fft := fourier.NewFFT(m)
	seq := make([]float64, m)
	for i, v := range x {
		seq[i] = v - mean
	}
	c := fft.Coefficients(nil, seq)
	for i, v := range c {
		c[i] = complex(real(v)*real(v)+imag(v)*imag(v), 0)
	}
	acov := fft.Sequence(seq, c)
	a0 := acov[0]
	if !(a0 > 1e-12*float64(m)*math.Max(1, mean*mean)) {
		return 1, 0, true
	}
	tau = 1
	for k := 1; k < n/2; k++ {
		tau += 2 * acov[k] / a0
		if float64(k) >= 5*tau {
			return tau, k, true
		}
	}
	return tau, n / 2, false
}

// sameTau fails the test unless the blocked autocorrelation time of x
// matches the whole-series transform's: the same window and outcome, τ
// within a relative 1e-9, and the same batch size in the interval.
func sameTau(t *testing.T, name string, x []float64) {
	t.Helper()
	tau, w, ok := AutocorrTime(x)
	rtau, rw, rok := refAutocorrTime(x)
	if w != rw || ok != rok || !(math.Abs(tau-rtau) <= 1e-9*math.Abs(rtau)) {
		t.Errorf("%s (%d observations): tau %v window %d ok %v, reference %v %d %v", name, len(x), tau, w, ok, rtau, rw, rok)
		return
	}
	t.Logf("%s: window %d, tau %.6g, relative difference %.2g", name, w, tau, math.Abs(tau-rtau)/math.Abs(rtau))
	// The interval depends on τ only through its batch size.
	ci, err := BatchMeans(x, 0.95)
	if rok && err == nil && ci.BatchSize != max(1, int(math.Ceil(BatchTauMultiple*math.Max(rtau, 1)))) {
		t.Errorf("%s: batch size %d, reference τ %v", name, ci.BatchSize, rtau)
	}
	if !rok && err == nil {
		t.Errorf("%s: an interval without a window", name)
	}
}

// TestAutocorrMatchesWholeTransform compares the blocked autocorrelation
// time with the whole-series transform it replaced, on AR(1) series whose
// windows need one to several doublings of the lags, on short and constant
// series, and on the waits, slowdowns and bounded slowdowns that the
// schedulers of the real logs gave their jobs (in submit order), the
// series a simulation's intervals are made from.
func TestAutocorrMatchesWholeTransform(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, c := range []struct {
		n   int
		phi float64
	}{{2, 0}, {3, 0.5}, {17, 0.5}, {1000, 0}, {4097, 0.9}, {100000, 0.5}, {100000, 0.99}, {200000, 0.999}, {300000, 0.9995}, {20000, 0.9999}} {
		sameTau(t, fmt.Sprintf("ar1 n=%d phi=%v", c.n, c.phi), ar1(rng, c.n, 7, c.phi))
	}
	sameTau(t, "constant", []float64{3, 3, 3, 3, 3, 3})
	dir := testdata.Dir(t)
	for _, l := range testdata.Logs {
		tr, err := trace.Load(filepath.Join(dir, l.File), trace.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var wait, sld, bsld []float64
		for _, j := range tr.Jobs {
			if j.Wait < 0 || j.Runtime < 0 {
				continue
			}
			w, r := float64(j.Wait), float64(j.Runtime)
			wait = append(wait, w)
			sld = append(sld, math.Max(1, (w+r)/math.Max(r, 1)))
			bsld = append(bsld, math.Max(1, (w+r)/math.Max(r, 10)))
		}
		sameTau(t, l.File+" wait", wait)
		sameTau(t, l.File+" slowdown", sld)
		sameTau(t, l.File+" bounded slowdown", bsld)
	}
}

// BenchmarkAutocorrTime measures the autocorrelation time of a million
// AR(1) observations (φ = 0.9): time and memory, the blocked transform
// against the whole-series one.
func BenchmarkAutocorrTime(b *testing.B) {
	x := ar1(rand.New(rand.NewPCG(1, 2)), 1_000_000, 0, 0.9)
	for _, c := range []struct {
		name string
		f    func([]float64) (float64, int, bool)
	}{{"blocked", AutocorrTime}, {"whole", refAutocorrTime}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.f(x)
			}
		})
	}
}
