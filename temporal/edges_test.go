package temporal_test

import (
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/temporal"
	"github.com/hpcwl/hpcwl/trace"
)

func TestNames(t *testing.T) {
	for s, want := range map[temporal.Series]string{temporal.Runtime: "runtime", temporal.Jobs: "jobs", -1: "Series(-1)", 5: "Series(5)"} {
		if got := s.String(); got != want {
			t.Errorf("series %d: %q, want %q", int(s), got, want)
		}
	}
	for s, want := range map[temporal.Statistic]string{temporal.Mean: "mean", temporal.Sum: "sum", -1: "Statistic(-1)", 3: "Statistic(3)"} {
		if got := s.String(); got != want {
			t.Errorf("statistic %d: %q, want %q", int(s), got, want)
		}
	}
	for name, want := range map[string]temporal.Statistic{"mean": temporal.Mean, "median": temporal.Median, "sum": temporal.Sum} {
		if got, err := temporal.ParseStatistic(name); err != nil || got != want {
			t.Errorf("ParseStatistic(%q) = %v, %v", name, got, err)
		}
	}
}

// TestBinEdges: jobs out of submit order are taken in submit order for
// the inter-arrival times; a runtime or CPU time of 0 is a value; a job
// without processors has no CPU work; more than 2^26 bins are refused.
func TestBinEdges(t *testing.T) {
	jobs := []trace.Job{
		job(50, 0, 2, 0),   // CPU 0 (field 6 is 0)
		job(10, 5, 2, -1),  // CPU 10 (runtime 5 x 2)
		job(30, 7, -1, -1), // no processors: no CPU work
	}
	b, err := temporal.Bin(newTrace(0, "UTC", jobs), 100, temporal.Sum)
	if err != nil {
		t.Fatal(err)
	}
	want := [5][]float64{{12}, {4}, {10}, {40}, {3}} // inter-arrivals 20, 20
	for _, s := range temporal.AllSeries {
		if got := b.Series(s); len(got) != 1 || got[0] != want[s][0] {
			t.Errorf("%s: %v, want %v", s, got, want[s])
		}
	}
	b, err = temporal.Bin(newTrace(0, "UTC", jobs), 100, temporal.Mean)
	if err != nil {
		t.Fatal(err)
	}
	// Means over the jobs holding each value: runtimes 0, 5, 7; CPU 0, 10.
	for s, w := range map[temporal.Series]float64{temporal.Runtime: 4, temporal.CPU: 5, temporal.InterArrival: 20, temporal.Procs: 2} {
		if got := b.Series(s)[0]; !near(got, w) {
			t.Errorf("mean %s: %v, want %v", s, got, w)
		}
	}
	far := newTrace(0, "UTC", []trace.Job{job(0, 1, 1, -1), job(70_000_000, 1, 1, -1)})
	if _, err := temporal.Bin(far, 1, temporal.Mean); err == nil {
		t.Error("70 million bins accepted")
	}
	if b, err := temporal.Bin(far, 86400, temporal.Mean); err != nil || b.Len() != 811 {
		t.Errorf("daily bins of 810 days: %v, %v", b, err)
	}
}

// TestAnalyzeOptions: the default Hurst bin (10 minutes), the treatments of
// missing values (bins without jobs dropped, or counted as 0: the series
// then has every bin), the mean of the three estimates, a lag as long as
// the series (no ACF), and the refusals.
func TestAnalyzeOptions(t *testing.T) {
	var jobs []trace.Job
	for k := range int64(400) {
		s := k * 900 // one job every 15 minutes: every other 10-minute bin is empty or not
		jobs = append(jobs, job(s, 100+k%7*50, int32(1+k%5), -1))
	}
	tr := newTrace(946857600, "UTC", jobs)
	tests := []temporal.Test{{Name: "long", Bin: 86400, Lag: 5}}
	drop, err := temporal.Analyze(tr, temporal.Options{Tests: tests})
	if err != nil {
		t.Fatal(err)
	}
	zero, err := temporal.Analyze(tr, temporal.Options{Tests: tests, HurstMissing: temporal.Zero})
	if err != nil {
		t.Fatal(err)
	}
	bins := (399*900)/600 + 1
	if drop.HurstBin != 600 || drop.Bins[600] != bins || drop.Bins[86400] != 5 || drop.HurstMissing != "drop" || zero.HurstMissing != "zero" {
		t.Errorf("Hurst bin %d, bins %v, %q and %q; want 600, %d bins of 600 s and 5 days", drop.HurstBin, drop.Bins, drop.HurstMissing, zero.HurstMissing, bins)
	}
	for _, s := range temporal.AllSeries {
		d, z := drop.Hurst[s], zero.Hurst[s]
		wantDrop := 400
		switch s {
		case temporal.Jobs:
			wantDrop = bins // the counts have no missing bins
		case temporal.InterArrival:
			wantDrop = 399 // the first job has none
		}
		if d.Points != wantDrop || z.Points != bins || d.Series != s.String() {
			t.Errorf("%s: %d points dropped, %d with zeros; want %d and %d", s, d.Points, z.Points, wantDrop, bins)
		}
		if m := (float64(d.RS) + float64(d.VarianceTime) + float64(d.Periodogram)) / 3; !near(float64(d.Mean), m) {
			t.Errorf("%s: mean %v of %v, %v, %v", s, d.Mean, d.RS, d.VarianceTime, d.Periodogram)
		}
		if got := drop.Tests[0].ACF.Get(s); !math.IsNaN(got) {
			t.Errorf("%s: ACF at lag 5 of 5 days %v, want NaN", s, got)
		}
	}
	for _, opt := range []temporal.Options{{HurstBin: -1}, {HurstMissing: 2}, {Tests: []temporal.Test{{Name: "x", Bin: 0, Lag: 1}}}} {
		if _, err := temporal.Analyze(tr, opt); err == nil {
			t.Errorf("%+v accepted", opt)
		}
	}
	if r, err := temporal.Analyze(tr, temporal.Options{Tests: []temporal.Test{{Name: "x", Bin: 900, Lag: 1}}, HurstBin: 900}); err != nil || r.HurstBin != 900 || r.Hurst[temporal.Jobs].Points != 400 {
		t.Errorf("Hurst bin 900: %v", err)
	}
}
