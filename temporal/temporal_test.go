package temporal

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

func TestACF(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name string
		x    []float64
		lag  int
		want float64
	}{
		// Alternating ±1: r(1) = −(n−1)/n, r(2) = (n−2)/n.
		{"alternating lag 1", []float64{1, -1, 1, -1, 1, -1}, 1, -5.0 / 6},
		{"alternating lag 2", []float64{1, -1, 1, -1, 1, -1}, 2, 4.0 / 6},
		{"lag 0", []float64{3, 1, 4, 1, 5}, 0, 1},
		// Missing values: mean 2 and denominator over 1, 2, 3; the only
		// complete lag-1 pair is (2, 3): (0)(1)/2 = 0.
		{"missing", []float64{1, nan, 2, 3}, 1, 0},
		{"constant", []float64{2, 2, 2}, 1, nan},
		{"one value", []float64{nan, 5}, 1, nan},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ACF(tt.x, tt.lag)
			if math.IsNaN(tt.want) != math.IsNaN(got) || (!math.IsNaN(got) && math.Abs(got-tt.want) > 1e-12) {
				t.Errorf("ACF = %v, want %v", got, tt.want)
			}
		})
	}
}

// logOf builds a trace in time zone tz (SWF TimeZoneString) starting at Unix
// time start.
func logOf(t *testing.T, tz string, start int64, jobs []trace.Job) *trace.Trace {
	t.Helper()
	var h swf.Header
	h.Add("UnixStartTime", strconv.FormatInt(start, 10))
	if tz != "" {
		h.Add("TimeZoneString", tz)
	}
	return trace.New(h, jobs, trace.Options{})
}

// TestBinned checks the bins on a three-job log in Stockholm time: time 0 is
// 2000-01-01 10:00 UTC = 11:00 local, so the first 6-hour bin starts at local
// midnight, 11 hours before time 0.
func TestBinned(t *testing.T) {
	jobs := []trace.Job{
		{Submit: 3600, Runtime: 100, Procs: 2},      // 12:00 local: bin 2 (12-18)
		{Submit: 3 * 3600, Runtime: 300, Procs: 4},  // 14:00: bin 2
		{Submit: 14 * 3600, Runtime: -1, Procs: 8},  // 01:00 next day: bin 4
		{Submit: 14 * 3600, Runtime: 50, Procs: -1}, // same time, unknown size
		// bin 4's inter-arrival times: 11 h and 0, mean 19,800 s.
	}
	b := Binned(logOf(t, "Europe/Stockholm", 946720800, jobs), Bin6Hours)
	nan := math.NaN()
	want := map[Series][]float64{
		Jobs:         {0, 0, 2, 0, 2},
		Runtime:      {nan, nan, 200, nan, nan},
		Procs:        {nan, nan, 3, nan, nan},
		CPU:          {nan, nan, 700, nan, nan},
		Interarrival: {nan, nan, 7200, nan, 19800},
	}
	for s, w := range want {
		got := b[s]
		if len(got) != len(w) {
			t.Fatalf("%s: %v, want %v", s, got, w)
		}
		for i := range w {
			if math.IsNaN(w[i]) != math.IsNaN(got[i]) || (!math.IsNaN(w[i]) && got[i] != w[i]) {
				t.Errorf("%s bin %d = %v, want %v", s, i, got[i], w[i])
			}
		}
	}
}

// TestAnalyzeCycles builds a log with a strict day/night and weekday/weekend
// pattern: the daily and weekly autocorrelations of the job counts are
// strongly positive, and the 12-hour one negative.
func TestAnalyzeCycles(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var jobs []trace.Job
	for day := 0; day < 70; day++ {
		n := 40
		if day%7 >= 5 {
			n = 5
		}
		for range n {
			// Daytime only: 08:00-20:00 UTC.
			jobs = append(jobs, trace.Job{Submit: int64(day*86400 + 8*3600 + r.IntN(12*3600)), Runtime: int64(1 + r.IntN(1000)), Procs: int32(1 + r.IntN(8))})
		}
	}
	row := Analyze(logOf(t, "", 0, jobs))
	if j := row.Daily24[4]; j < 0.5 {
		t.Errorf("24-h autocorrelation of job counts %.3f, want strongly positive", j)
	}
	if j := row.Daily12[4]; j > -0.3 {
		t.Errorf("12-h autocorrelation of job counts %.3f, want negative", j)
	}
	if j := row.Weekly[4]; j < 0.5 {
		t.Errorf("weekly autocorrelation of job counts %.3f, want strongly positive", j)
	}
	// Runtimes are independent of time: no locality.
	if x := row.Locality150[0]; math.Abs(x) > 0.15 {
		t.Errorf("150-min runtime autocorrelation %.3f, want near 0", x)
	}
}

// TestBinnedProperties: every job is counted once, and every
// autocorrelation is in [−1, 1] or missing.
func TestBinnedProperties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 200).Draw(rt, "n")
		jobs := make([]trace.Job, n)
		for i := range jobs {
			jobs[i] = trace.Job{
				Submit:  rapid.Int64Range(0, 30*86400).Draw(rt, "submit"),
				Runtime: rapid.Int64Range(-1, 100000).Draw(rt, "runtime"),
				Procs:   int32(rapid.IntRange(-1, 64).Draw(rt, "procs")),
			}
		}
		tr := logOf(t, "", rapid.Int64Range(0, 2e9).Draw(rt, "start"), jobs)
		width := rapid.SampledFrom([]int64{Bin15Min, Bin150Min, Bin6Hours, Bin1Day}).Draw(rt, "width")
		b := Binned(tr, width)
		total := 0.0
		for _, c := range b[Jobs] {
			total += c
		}
		if int(total) != n {
			rt.Fatalf("%v jobs counted, %d in the log", total, n)
		}
		for _, s := range AllSeries {
			for lag := 1; lag <= 7; lag++ {
				if a := ACF(b[s], lag); !math.IsNaN(a) && (a < -1-1e-9 || a > 1+1e-9) {
					rt.Fatalf("%s lag %d: %v", s, lag, a)
				}
			}
		}
	})
}
