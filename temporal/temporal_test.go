package temporal_test

import (
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/temporal"
	"github.com/hpcwl/hpcwl/trace"
)

func TestMain(m *testing.M) { os.Exit(testdata.Main(m)) }

// newTrace makes a trace whose relative time 0 is start (Unix) in zone.
func newTrace(start int64, zone string, jobs []trace.Job) *trace.Trace {
	var h swf.Header
	h.Add("UnixStartTime", strconv.FormatInt(start, 10))
	if zone != "" {
		h.Add("TimeZoneString", zone)
	}
	h.Add("MaxProcs", "64")
	return trace.New(h, jobs, trace.Options{})
}

func job(submit, runtime int64, procs int32, cpu float64) trace.Job {
	return trace.Job{Submit: submit, Runtime: runtime, Procs: procs, ReqProcs: -1, AvgCPU: cpu, Wait: 0, User: 1}
}

func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) < 1e-9
}

func TestBin(t *testing.T) {
	// 2000-01-03 00:00:00 UTC, a Monday.
	const monday = 946857600
	nan := math.NaN()
	cases := []struct {
		name   string
		start  int64
		zone   string
		width  int64
		stat   temporal.Statistic
		jobs   []trace.Job
		origin int64
		want   [5][]float64 // runtime, procs, cpu, interarrival, jobs
	}{
		{
			name: "hourly mean, empty bin missing", start: monday + 3600, zone: "UTC", width: 3600, stat: temporal.Mean,
			// relative 0 is 01:00 UTC; first job at 01:30 -> bin [01:00, 02:00)
			jobs:   []trace.Job{job(1800, 100, 4, -1), job(2400, 300, 8, 50), job(3*3600+60, 10, 1, 5)},
			origin: 0,
			want: [5][]float64{
				{200, nan, nan, 10},
				{6, nan, nan, 1},
				{(100*4 + 50*8) / 2.0, nan, nan, 5}, // CPU: processors x (field 6, else runtime)
				{600, nan, nan, 3*3600 + 60 - 2400},
				{2, 0, 0, 1},
			},
		},
		{
			name: "local midnight in another zone", start: monday, zone: "Europe/Stockholm", width: 6 * 3600, stat: temporal.Sum,
			// relative 0 = 01:00 local (UTC+1); first job at 05:00 local -> bin [00:00, 06:00) starts at relative -3600
			jobs:   []trace.Job{job(4*3600, 10, 2, -1), job(6*3600, 20, 2, -1)},
			origin: -3600,
			want: [5][]float64{
				{10, 20}, {2, 2}, {20, 40}, {0, 7200}, {1, 1},
			},
		},
		{
			name: "median, unknown runtime", start: monday, zone: "", width: 100, stat: temporal.Median,
			jobs:   []trace.Job{job(0, 1, 1, -1), job(10, 3, 2, -1), job(20, 100, 3, -1), job(30, -1, 4, -1)},
			origin: 0,
			want: [5][]float64{
				{3}, {2}, {6}, {10}, {4}, // lower medians
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := temporal.Bin(newTrace(c.start, c.zone, c.jobs), c.width, c.stat)
			if err != nil {
				t.Fatal(err)
			}
			if b.Origin != c.origin {
				t.Errorf("origin %d, want %d", b.Origin, c.origin)
			}
			for _, s := range temporal.AllSeries {
				got := b.Series(s)
				if len(got) != len(c.want[s]) {
					t.Fatalf("%s: %v, want %v", s, got, c.want[s])
				}
				for i := range got {
					if !near(got[i], c.want[s][i]) {
						t.Errorf("%s[%d] = %v, want %v", s, i, got[i], c.want[s][i])
					}
				}
			}
		})
	}
}

func TestBinErrors(t *testing.T) {
	tr := newTrace(0, "UTC", []trace.Job{job(0, 1, 1, -1)})
	if _, err := temporal.Bin(tr, 0, temporal.Mean); err == nil {
		t.Error("width 0 accepted")
	}
	if _, err := temporal.Bin(tr, 60, temporal.Statistic(9)); err == nil {
		t.Error("unknown statistic accepted")
	}
	empty := newTrace(0, "UTC", []trace.Job{{Submit: -1}})
	if _, err := temporal.Bin(empty, 60, temporal.Mean); err != temporal.ErrNoJobs {
		t.Errorf("no jobs: %v", err)
	}
	if _, err := temporal.ParseStatistic("mode"); err == nil {
		t.Error("unknown statistic name accepted")
	}
	if _, err := temporal.Analyze(tr, temporal.Options{Tests: []temporal.Test{{Name: "x", Bin: 60, Lag: 0}}}); err == nil {
		t.Error("lag 0 accepted")
	}
}

// synthetic makes a log of days days whose arrivals follow rate(hour of
// day, day of week) (jobs per hour, Poisson) and whose runtimes come in
// runs of repeated values (locality of sampling) when repeat is set.
func synthetic(days int, rate func(h, dow int) float64, repeat bool, seed uint64) *trace.Trace {
	rng := rand.New(rand.NewPCG(seed, 1))
	var jobs []trace.Job
	rt := int64(100)
	for d := range days {
		for h := range 24 {
			n := poisson(rng, rate(h, d%7))
			for range n {
				s := int64(d*86400+h*3600) + rng.Int64N(3600)
				if !repeat || rng.Float64() < 0.1 {
					rt = 1 + int64(rng.ExpFloat64()*3600)
				}
				jobs = append(jobs, job(s, rt, int32(1+rng.IntN(32)), -1))
			}
		}
	}
	slicesSort(jobs)
	return newTrace(946857600, "UTC", jobs) // a Monday, 00:00 UTC
}

func slicesSort(j []trace.Job) {
	for i := 1; i < len(j); i++ {
		for k := i; k > 0 && j[k].Submit < j[k-1].Submit; k-- {
			j[k], j[k-1] = j[k-1], j[k]
		}
	}
}

func poisson(rng *rand.Rand, mean float64) int {
	l, k, p := math.Exp(-mean), 0, 1.0
	for {
		p *= rng.Float64()
		if p <= l {
			return k
		}
		k++
	}
}

func acf(r *temporal.Report, bin int64, lag int, s temporal.Series) float64 {
	for _, ts := range r.Tests {
		if ts.Bin == bin && ts.Lag == lag {
			return ts.ACF.Get(s)
		}
	}
	return math.NaN()
}

func TestAnalyzeCycles(t *testing.T) {
	flat := func(h, dow int) float64 { return 2 }
	daytime := func(h, dow int) float64 {
		if dow >= 5 {
			return 0.2
		}
		if h >= 8 && h < 18 {
			return 6
		}
		return 0.3
	}
	cycled, err := temporal.Analyze(synthetic(140, daytime, true, 1), temporal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	poissonLog, err := temporal.Analyze(synthetic(140, flat, false, 2), temporal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"cycled: daily 24h jobs", acf(cycled, 21600, 4, temporal.Jobs), 0.5, 0.5},
		{"cycled: daily 12h jobs", acf(cycled, 21600, 2, temporal.Jobs), -0.3, 0.3},
		{"cycled: weekly jobs", acf(cycled, 86400, 7, temporal.Jobs), 0.6, 0.4},
		{"cycled: runtime locality 15m", acf(cycled, 900, 1, temporal.Runtime), 0.5, 0.45},
		{"poisson: jobs locality 15m", acf(poissonLog, 900, 1, temporal.Jobs), 0, 0.05},
		{"poisson: daily 24h jobs", acf(poissonLog, 21600, 4, temporal.Jobs), 0, 0.1},
		{"poisson: weekly jobs", acf(poissonLog, 86400, 7, temporal.Jobs), 0, 0.25},
		{"poisson: runtime locality 15m", acf(poissonLog, 900, 1, temporal.Runtime), 0, 0.05},
		{"poisson: H of jobs", poissonLog.HurstMean(temporal.Jobs), 0.5, 0.08},
		{"poisson: H of runtime", poissonLog.HurstMean(temporal.Runtime), 0.5, 0.08},
		{"cycled: H of jobs above i.i.d.", cycled.HurstMean(temporal.Jobs), 0.8, 0.2},
	} {
		if !(math.Abs(c.got-c.want) <= c.tol) {
			t.Errorf("%s = %.3f, want %.2f ± %.2f", c.name, c.got, c.want, c.tol)
		}
	}
}

// realReport analyzes one of the archive's logs with the default options.
func realReport(t *testing.T, file string) *temporal.Report {
	t.Helper()
	tr, err := trace.Load(testdata.Path(t, file), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := temporal.Analyze(tr, temporal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestPinnedRealLogs pins our values for two logs (docs/validation.md,
// "Temporal structure"): the five ACF tests and the Hurst means.
func TestPinnedRealLogs(t *testing.T) {
	type pin struct {
		acf   [5][5]float64 // per test of ThesisTests, per series
		hurst [5]float64
	}
	pins := map[string]pin{
		"KTH-SP2-1996-2.1-cln.swf.gz": {
			acf: [5][5]float64{
				{0.182608, 0.114022, 0.048659, 0.029500, 0.362725},
				{0.177326, 0.133926, 0.096108, 0.062283, 0.522182},
				{0.095704, 0.112174, 0.032970, -0.020521, -0.229149},
				{0.177021, 0.203478, 0.033921, 0.175973, 0.551267},
				{0.487537, 0.360449, 0.249275, 0.339125, 0.447373},
			},
			hurst: [5]float64{0.707404, 0.662375, 0.580723, 0.598235, 0.711102},
		},
		"SDSC-BLUE-2000-4.2-cln.swf.gz": {
			acf: [5][5]float64{
				{0.133736, 0.151817, 0.036089, 0.027705, 0.493271},
				{0.173405, 0.239144, 0.078747, 0.070765, 0.583301},
				{0.175058, 0.227749, 0.043766, 0.079023, -0.065699},
				{0.198688, 0.309017, 0.101170, 0.248399, 0.508520},
				{0.164726, 0.231306, 0.100848, 0.017186, 0.560193},
			},
			hurst: [5]float64{0.679621, 0.745199, 0.602713, 0.682915, 0.755283},
		},
	}
	for file, p := range pins {
		t.Run(file, func(t *testing.T) {
			r := realReport(t, file)
			for i, ts := range r.Tests {
				for _, s := range temporal.AllSeries {
					if got := ts.ACF.Get(s); !(math.Abs(got-p.acf[i][s]) <= 1e-6) {
						t.Errorf("%s %ds lag %d %s: %.6f, pinned %.6f", ts.Name, ts.Bin, ts.Lag, s, got, p.acf[i][s])
					}
				}
			}
			for _, s := range temporal.AllSeries {
				if got := r.HurstMean(s); !(math.Abs(got-p.hurst[s]) <= 1e-6) {
					t.Errorf("H %s: %.6f, pinned %.6f", s, got, p.hurst[s])
				}
			}
		})
	}
}

// thesisLogs are our logs that are (versions of) logs of Talby's Table 1,
// with whether the thesis counts them among the logs of a year or more
// (Table 7).
var thesisLogs = []struct {
	file     string
	yearPlus bool
}{
	{"NASA-iPSC-1993-3.1-cln.swf.gz", false},
	{"SDSC-Par-1996-3.1-cln.swf.gz", true},
	{"SDSC-BLUE-2000-4.2-cln.swf.gz", true},
	{"SDSC-SP2-1998-4.2-cln.swf.gz", true},
	{"CTC-SP2-1996-3.1-cln.swf.gz", false},
	{"KTH-SP2-1996-2.1-cln.swf.gz", false},
	{"LANL-CM5-1994-4.1-cln.swf.gz", true},
	{"OSC-Clust-2000-3.1-cln.swf.gz", true},
}

// TestTable7 compares the mean Hurst parameters of our versions of the
// thesis' logs with Talby (2006), Table 7 (docs/validation.md gives the
// differences: three logs are missing and several are cleaned versions).
func TestTable7(t *testing.T) {
	if testing.Short() || quick {
		t.Skip("reads eight logs")
	}
	thesis := [2][5]float64{{0.72, 0.75, 0.69, 0.67, 0.77}, {0.75, 0.75, 0.72, 0.77, 0.84}}
	var sum [2][5]float64
	var n [2]float64
	for _, l := range thesisLogs {
		r := realReport(t, l.file)
		for _, s := range temporal.AllSeries {
			sum[0][s] += r.HurstMean(s)
			if l.yearPlus {
				sum[1][s] += r.HurstMean(s)
			}
		}
		n[0]++
		if l.yearPlus {
			n[1]++
		}
	}
	for row := range 2 {
		for _, s := range temporal.AllSeries {
			got := sum[row][s] / n[row]
			t.Logf("row %d %s: ours %.3f, thesis %.2f", row, s, got, thesis[row][s])
			if !(math.Abs(got-thesis[row][s]) <= 0.13) || got <= 0.55 {
				t.Errorf("Table 7 row %d %s: ours %.3f, thesis %.2f", row, s, got, thesis[row][s])
			}
		}
	}
}

// swfHeader is the header of a log starting on Monday 2000-01-03 00:00 UTC.
func swfHeader() swf.Header {
	var h swf.Header
	h.Add("UnixStartTime", "946857600")
	h.Add("TimeZoneString", "UTC")
	return h
}

func BenchmarkAnalyzeBLUE(b *testing.B) {
	tr, err := trace.Load(testdata.Path(b, "SDSC-BLUE-2000-4.2-cln.swf.gz"), trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := temporal.Analyze(tr, temporal.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
