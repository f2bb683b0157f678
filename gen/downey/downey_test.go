package downey_test

import (
	"math"
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/gen/downey"
)

func generate(t testing.TB, cfg downey.Config) []downey.Job {
	t.Helper()
	g, err := downey.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var jobs []downey.Job
	for {
		j, ok := g.Next()
		if !ok {
			return jobs
		}
		jobs = append(jobs, j)
	}
}

// TestPublishedBounds checks the model's constants against the figures the
// paper derives from them (Downey, IPPS 1997, section 3: t_min about 6 s,
// t_max about 37 h) and the CDF against its definition.
func TestPublishedBounds(t *testing.T) {
	if lo := downey.MinRuntime(); !(math.Abs(lo-6.05) <= 0.01) {
		t.Errorf("t_min = %g s, want about 6.05 s", lo)
	}
	if hi := downey.MaxRuntime() / 3600; !(math.Abs(hi-37.0) <= 0.05) {
		t.Errorf("t_max = %g h, want about 37 h", hi)
	}
	for _, c := range []struct{ t, want float64 }{
		{0, 0}, {1, 0}, {downey.MinRuntime(), 0}, {math.Exp(6.8), 0.5}, {downey.MaxRuntime(), 1}, {1e9, 1},
	} {
		if got := downey.RuntimeCDF(c.t); !(math.Abs(got-c.want) <= 1e-12) {
			t.Errorf("CDF(%g) = %g, want %g", c.t, got, c.want)
		}
	}
	for _, p := range []float64{0, 0.25, 0.5, 0.9, 1} {
		if got := downey.RuntimeCDF(downey.RuntimeQuantile(p)); !(math.Abs(got-p) <= 1e-12) {
			t.Errorf("CDF(Quantile(%g)) = %g", p, got)
		}
	}
}

// TestSizeProb checks that the size distribution sums to 1 and gives the
// log-uniform's mass to each integer.
func TestSizeProb(t *testing.T) {
	for _, procs := range []int{1, 2, 100, 128, 400, 1024} {
		var s float64
		for n := 0; n <= procs+1; n++ {
			s += downey.SizeProb(n, procs)
		}
		if !(math.Abs(s-1) <= 1e-12) {
			t.Errorf("procs %d: probabilities sum to %g", procs, s)
		}
	}
	// The closed form of the mean against the sum of n P(n).
	for _, procs := range []int{1, 2, 3, 100, 128, 400, 1024, 100000} {
		var m float64
		for n := 1; n <= procs; n++ {
			m += float64(n) * downey.SizeProb(n, procs)
		}
		if got := downey.MeanSize(procs); !(math.Abs(got-m) <= 1e-9*m) {
			t.Errorf("procs %d: MeanSize %.12g, sum %.12g", procs, got, m)
		}
	}
	// P(1) = ln 1.5 / ln N: the serial jobs are the parallelism below 1.5.
	if got, want := downey.SizeProb(1, 400), math.Log(1.5)/math.Log(400); !(math.Abs(got-want) <= 1e-15) {
		t.Errorf("P(1) = %g, want %g", got, want)
	}
}

// TestDistributions draws 40,000 jobs and compares them with the model:
// the runtimes' empirical CDF with the exact CDF of runtimes rounded to the
// second (Kolmogorov-Smirnov, 1% critical value 1.63/√n), the mean size and
// mean runtime within 4 standard errors, the frequency of a few sizes
// within 4 binomial standard errors, and the mean interarrival time within
// 4 standard errors of an exponential's.
func TestDistributions(t *testing.T) {
	const n, procs = 40000, 128
	jobs := generate(t, downey.Config{Jobs: n, Procs: procs, Load: 0.7, Seed: 11})
	if len(jobs) != n {
		t.Fatalf("%d jobs, want %d", len(jobs), n)
	}
	rt := make([]float64, n)
	var sumRT, sumN float64
	count := map[int64]int{}
	for i, j := range jobs {
		rt[i] = float64(j.Runtime)
		sumRT += rt[i]
		sumN += float64(j.Procs)
		count[j.Procs]++
		if j.Procs < 1 || j.Procs > procs {
			t.Fatalf("job %d: %d processors on a machine of %d", i, j.Procs, procs)
		}
		if i > 0 && j.Submit < jobs[i-1].Submit {
			t.Fatalf("job %d submitted before job %d", i, i-1)
		}
	}
	slices.Sort(rt)
	var d float64
	for i, x := range rt {
		if i+1 < n && rt[i+1] == x {
			continue
		}
		// P(round(T) <= x) = F(x + 0.5); below it, F(x - 0.5).
		hi, lo := downey.RuntimeCDF(x+0.5), downey.RuntimeCDF(x-0.5)
		j := i
		for j > 0 && rt[j-1] == x {
			j--
		}
		d = max(d, math.Abs(float64(i+1)/n-hi), math.Abs(float64(j)/n-lo))
	}
	if crit := 1.63 / math.Sqrt(n); d > crit {
		t.Errorf("runtimes: KS distance %.4f above the 1%% critical value %.4f", d, crit)
	}
	m, m2 := downey.MeanRuntime(), downey.RuntimeSecondMoment()
	if se := math.Sqrt((m2 - m*m) / n); !(math.Abs(sumRT/n-m) <= 4*se) {
		t.Errorf("mean runtime %.1f s, model %.1f s (4 SE = %.1f)", sumRT/n, m, 4*se)
	}
	ms, ms2 := downey.MeanSize(procs), downey.SizeSecondMoment(procs)
	if se := math.Sqrt((ms2 - ms*ms) / n); !(math.Abs(sumN/n-ms) <= 4*se) {
		t.Errorf("mean size %.3f, model %.3f (4 SE = %.3f)", sumN/n, ms, 4*se)
	}
	for _, size := range []int{1, 2, 3, 10, 64, 128} {
		p := downey.SizeProb(size, procs)
		if se := math.Sqrt(p * (1 - p) / n); !(math.Abs(float64(count[int64(size)])/n-p) <= 4*se) {
			t.Errorf("size %d: frequency %.4f, model %.4f (4 SE = %.4f)", size, float64(count[int64(size)])/n, p, 4*se)
		}
	}
	g, _ := downey.New(downey.Config{Jobs: n, Procs: procs, Load: 0.7, Seed: 11})
	perDay, load := g.Expected()
	if !(math.Abs(load-0.7) <= 1e-12) {
		t.Errorf("expected load %g, want the target 0.7", load)
	}
	// The span of n-1 exponential interarrivals has mean (n-1)/rate and
	// standard deviation √(n-1)/rate; submit times are truncated to seconds.
	span := float64(jobs[n-1].Submit)
	want := float64(n-1) / perDay * 86400
	if !(math.Abs(span-want) <= 4*math.Sqrt(n-1)/perDay*86400+1) {
		t.Errorf("span %.0f s, expected %.0f s", span, want)
	}
}

// TestRecoverFit fits the lifetime model to the generator's own runtimes
// for 50 seeds of 40,000 jobs: the paper's β0 and β1 must come back. The
// standard deviations over the seeds (about 0.005 on β0 and 0.0005 on β1)
// are the sampling error of one fit; every fit must lie within 4 of them
// (0.02 and 0.002), and the mean over the seeds within 4 standard errors of
// the mean plus a 0.002 allowance for the rounding of runtimes to the
// second, which lifts the empirical CDF slightly at the short end.
func TestRecoverFit(t *testing.T) {
	const seeds = 50
	var s0, q0, s1, q1 float64
	for seed := uint64(1); seed <= seeds; seed++ {
		jobs := generate(t, downey.Config{Jobs: 40000, Seed: seed})
		rt := make([]float64, len(jobs))
		for i, j := range jobs {
			rt[i] = float64(j.Runtime)
		}
		f, err := downey.FitLifetimes(rt, 0.1)
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(f.Intercept-downey.Intercept) <= 0.02) || !(math.Abs(f.Slope-downey.Slope) <= 0.002) || f.RSquared < 0.999 {
			t.Errorf("seed %d: fit b0 = %.4f, b1 = %.4f, R2 = %.5f; the model has b0 = %g, b1 = %g", seed, f.Intercept, f.Slope, f.RSquared, downey.Intercept, downey.Slope)
		}
		s0, q0 = s0+f.Intercept, q0+f.Intercept*f.Intercept
		s1, q1 = s1+f.Slope, q1+f.Slope*f.Slope
	}
	m0, m1 := s0/seeds, s1/seeds
	sd0, sd1 := math.Sqrt(q0/seeds-m0*m0), math.Sqrt(q1/seeds-m1*m1)
	t.Logf("over %d seeds: b0 = %.4f ± %.4f, b1 = %.5f ± %.5f (mean ± SD)", seeds, m0, sd0, m1, sd1)
	if !(math.Abs(m0-downey.Intercept) <= 4*sd0/math.Sqrt(seeds)+0.002) || !(math.Abs(m1-downey.Slope) <= 4*sd1/math.Sqrt(seeds)+0.0002) {
		t.Errorf("mean fit b0 = %.4f, b1 = %.5f: not the model's %g, %g", m0, m1, downey.Intercept, downey.Slope)
	}
}

// TestDeterminism checks that a seed gives the same jobs, another seed
// others, and that the target load changes the arrival times only.
func TestDeterminism(t *testing.T) {
	a := generate(t, downey.Config{Jobs: 500, Seed: 3, Load: 0.5})
	b := generate(t, downey.Config{Jobs: 500, Seed: 3, Load: 0.5})
	if !slices.Equal(a, b) {
		t.Fatal("the same seed gave different jobs")
	}
	if c := generate(t, downey.Config{Jobs: 500, Seed: 4, Load: 0.5}); slices.Equal(a, c) {
		t.Fatal("seeds 3 and 4 gave the same jobs")
	}
	d := generate(t, downey.Config{Jobs: 500, Seed: 3, Load: 0.9})
	for i := range a {
		if a[i].Runtime != d[i].Runtime || a[i].Procs != d[i].Procs {
			t.Fatalf("job %d: the load changed its runtime or size", i)
		}
	}
	if a[499].Submit <= d[499].Submit {
		t.Errorf("a higher load did not bring the arrivals closer: %d vs %d", a[499].Submit, d[499].Submit)
	}
}

// TestDuration checks that a duration stops generation at the first job
// submitted after it, and that the defaults give DefaultJobs jobs.
func TestDuration(t *testing.T) {
	jobs := generate(t, downey.Config{Duration: 7 * 86400, Seed: 1})
	if len(jobs) == 0 || jobs[len(jobs)-1].Submit > 7*86400 {
		t.Fatalf("%d jobs, last at %d", len(jobs), jobs[len(jobs)-1].Submit)
	}
	// About 68 jobs a day at the SDSC rate: 478 expected in a week, SD 22.
	if n := len(jobs); n < 380 || n > 580 {
		t.Errorf("%d jobs in a week at the SDSC rate, expected about 478", n)
	}
	if n := len(generate(t, downey.Config{Seed: 1})); n != downey.DefaultJobs {
		t.Errorf("%d jobs by default, want %d", n, downey.DefaultJobs)
	}
}

// TestConfigErrors checks that out-of-range settings are refused.
func TestConfigErrors(t *testing.T) {
	for _, cfg := range []downey.Config{
		{Jobs: -1}, {Duration: -1}, {Procs: -2}, {Load: -0.5}, {Load: math.NaN()}, {Load: math.Inf(1)},
	} {
		if _, err := downey.New(cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}

// TestFitErrors checks that FitLifetimes refuses what it cannot fit.
func TestFitErrors(t *testing.T) {
	for _, c := range []struct {
		rt   []float64
		trim float64
	}{
		{[]float64{1, 2}, 0.1},
		{[]float64{1, 2, 3, 4}, 0.5},
		{[]float64{1, 2, 3, -4}, 0.1},
		{[]float64{0, 0, 0, 5, 6}, 0},
		{[]float64{7, 7, 7, 7}, 0},
		{[]float64{1, 2, math.NaN()}, 0},
	} {
		if _, err := downey.FitLifetimes(c.rt, c.trim); err == nil {
			t.Errorf("FitLifetimes(%v, %g): no error", c.rt, c.trim)
		}
	}
}
