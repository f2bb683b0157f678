package temporal

import (
	"fmt"
	"math"

	"github.com/hpcwl/hpcwl/stats"
	"github.com/hpcwl/hpcwl/summary"
	"github.com/hpcwl/hpcwl/trace"
)

// Test is one autocorrelation test of Talby (2006), section 5.2 and
// appendix C: the ACF of every series at one bin width and lag.
type Test struct {
	// Name is locality, daily or weekly.
	Name string `json:"name"`
	// Bin is the bin width in seconds.
	Bin int64 `json:"bin_s"`
	// Lag is the lag in bins.
	Lag int `json:"lag"`
}

// Span returns the lag in seconds.
func (t Test) Span() int64 { return t.Bin * int64(t.Lag) }

// ThesisTests are the tests of Talby (2006), appendix C: locality of
// sampling at 15 and 150 minutes, lag 1 (Table 37); the daily cycle at 6
// hours, lags 2 (12 h) and 4 (24 h) (Table 38); the weekly cycle at 1 day,
// lag 7 (Table 39).
var ThesisTests = []Test{
	{"locality", 15 * 60, 1},
	{"locality", 150 * 60, 1},
	{"daily", 6 * 3600, 2},
	{"daily", 6 * 3600, 4},
	{"weekly", 86400, 7},
}

// Values holds one number per series.
type Values struct {
	Runtime      summary.Float `json:"runtime"`
	Procs        summary.Float `json:"procs"`
	CPU          summary.Float `json:"cpu"`
	InterArrival summary.Float `json:"interarrival"`
	Jobs         summary.Float `json:"jobs"`
}

// Get returns the value of series s.
func (v *Values) Get(s Series) float64 { return float64(*v.at(s)) }

func (v *Values) set(s Series, x float64) { *v.at(s) = summary.Float(x) }

func (v *Values) at(s Series) *summary.Float {
	switch s {
	case Runtime:
		return &v.Runtime
	case Procs:
		return &v.Procs
	case CPU:
		return &v.CPU
	case InterArrival:
		return &v.InterArrival
	}
	return &v.Jobs
}

// TestResult is a test with the ACF of each series.
type TestResult struct {
	Test
	ACF Values `json:"acf"`
}

// Missing says what the Hurst estimators do with the bins whose attribute
// value is missing (no job in the bin).
type Missing int

const (
	// Drop leaves missing bins out: the series is the sequence of bins
	// that hold jobs. Our default.
	Drop Missing = iota
	// Zero counts a missing bin as 0.
	Zero
)

// HurstResult holds the three estimates of H for one series and their mean
// (one cell of Talby's Table 40).
type HurstResult struct {
	Series       string        `json:"series"`
	RS           summary.Float `json:"rs"`
	VarianceTime summary.Float `json:"variance_time"`
	Periodogram  summary.Float `json:"periodogram"`
	Mean         summary.Float `json:"mean"`
	// Points is the length of the series the estimators saw.
	Points int `json:"points"`
}

// Options control [Analyze]. The zero value is our default.
type Options struct {
	// Statistic reduces the jobs of a bin (default Mean).
	Statistic Statistic
	// Tests are the ACF tests; nil means ThesisTests.
	Tests []Test
	// HurstBin is the bin width of the Hurst series in seconds; 0 means
	// 600 (10 minutes). Talby (2006) does not give it.
	HurstBin int64
	// HurstMissing is the treatment of missing attribute values in the
	// Hurst series (default Drop).
	HurstMissing Missing
}

// Report is the temporal structure of one log.
type Report struct {
	Statistic    string        `json:"statistic"`
	Tests        []TestResult  `json:"tests"`
	HurstBin     int64         `json:"hurst_bin_s"`
	HurstMissing string        `json:"hurst_missing"`
	Hurst        []HurstResult `json:"hurst"`
	// Bins is the number of bins at each width used, by width in seconds.
	Bins map[int64]int `json:"bins"`
}

// HurstMean returns the mean H of series s (Table 40's cell).
func (r *Report) HurstMean(s Series) float64 { return float64(r.Hurst[s].Mean) }

// Analyze runs the autocorrelation tests and the Hurst estimators on t
// (Talby (2006), chapter 5 and appendix C).
func Analyze(t *trace.Trace, opt Options) (*Report, error) {
	if opt.HurstBin == 0 {
		opt.HurstBin = 600
	}
	if opt.HurstBin < 0 {
		return nil, fmt.Errorf("temporal: Hurst bin must be positive, got %d s", opt.HurstBin)
	}
	tests := opt.Tests
	if tests == nil {
		tests = ThesisTests
	}
	r := &Report{Statistic: opt.Statistic.String(), HurstBin: opt.HurstBin, Bins: map[int64]int{}}
	r.HurstMissing = map[Missing]string{Drop: "drop", Zero: "zero"}[opt.HurstMissing]
	if r.HurstMissing == "" {
		return nil, fmt.Errorf("temporal: unknown treatment of missing values %d", int(opt.HurstMissing))
	}
	binned := map[int64]*Binned{}
	get := func(w int64) (*Binned, error) {
		if b, ok := binned[w]; ok {
			return b, nil
		}
		b, err := Bin(t, w, opt.Statistic)
		if err != nil {
			return nil, err
		}
		binned[w] = b
		r.Bins[w] = b.Len()
		return b, nil
	}
	for _, ts := range tests {
		if ts.Lag < 1 {
			return nil, fmt.Errorf("temporal: lag must be at least 1, got %d", ts.Lag)
		}
		b, err := get(ts.Bin)
		if err != nil {
			return nil, err
		}
		res := TestResult{Test: ts}
		for _, s := range AllSeries {
			res.ACF.set(s, lagACF(b.Values[s], ts.Lag))
		}
		r.Tests = append(r.Tests, res)
	}
	b, err := get(opt.HurstBin)
	if err != nil {
		return nil, err
	}
	for _, s := range AllSeries {
		x := b.Values[s]
		if s != Jobs {
			x = fillMissing(x, opt.HurstMissing)
		}
		rs, _ := stats.RescaledRange(x)
		vt := stats.VarianceTime(x)
		pg := stats.Periodogram(x[:smoothLen(len(x))])
		r.Hurst = append(r.Hurst, HurstResult{Series: s.String(), RS: summary.Float(rs.H),
			VarianceTime: summary.Float(vt.H), Periodogram: summary.Float(pg.H),
			Mean: summary.Float((rs.H + vt.H + pg.H) / 3), Points: len(x)})
	}
	return r, nil
}

// smoothLen returns the largest n' <= n whose prime factors are all at
// most 13. The periodogram is computed on the first n' values: gonum's FFT
// takes time proportional to n times the prime factors of n, which for a
// prime length of 10^5 bins is minutes instead of milliseconds. For n >=
// 1000 at most 1.8% of the bins, the last ones, are left out (0.8% for n >=
// 10^4).
func smoothLen(n int) int {
	for m := n; m > 1; m-- {
		k := m
		for _, p := range []int{2, 3, 5, 7, 11, 13} {
			for k%p == 0 {
				k /= p
			}
		}
		if k == 1 {
			return m
		}
	}
	return n
}

// lagACF returns the autocorrelation of x at lag k (stats.ACF: missing
// values are skipped pairwise).
func lagACF(x []float64, k int) float64 {
	if len(x) <= k {
		return math.NaN()
	}
	return stats.ACF(x, k)[k]
}

// ACF returns the autocorrelation of every series of b at lags 0..maxLag,
// indexed by Series (Talby (2006), Fig. 5 plots the jobs per day of
// SDSC-BLUE to lag 60).
func ACF(b *Binned, maxLag int) [][]float64 {
	out := make([][]float64, numSeries)
	for _, s := range AllSeries {
		out[s] = stats.ACF(b.Values[s], maxLag)
	}
	return out
}

func fillMissing(x []float64, m Missing) []float64 {
	out := make([]float64, 0, len(x))
	for _, v := range x {
		if math.IsNaN(v) {
			if m == Drop {
				continue
			}
			v = 0
		}
		out = append(out, v)
	}
	return out
}
