package stats

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat"
)

// Summary holds descriptive statistics of a sample.
type Summary struct {
	N      int     `json:"n"`
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"std_dev"` // sample standard deviation (n − 1)
	CV     float64 `json:"cv"`      // StdDev / Mean
	Min    float64 `json:"min"`
	P25    float64 `json:"p25"`
	Median float64 `json:"median"`
	P75    float64 `json:"p75"`
	P90    float64 `json:"p90"`
	P99    float64 `json:"p99"`
	Max    float64 `json:"max"`
}

// Summarize returns the summary of x (NaN fields for an empty sample).
// Percentiles use [Quantile]'s linear interpolation. x is not modified.
func Summarize(x []float64) Summary {
	if len(x) == 0 {
		nan := math.NaN()
		return Summary{Mean: nan, StdDev: nan, CV: nan, Min: nan, P25: nan, Median: nan, P75: nan, P90: nan, P99: nan, Max: nan}
	}
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	m, sd := stat.MeanStdDev(s, nil)
	return Summary{
		N: len(s), Mean: m, StdDev: sd, CV: sd / m,
		Min: s[0], P25: QuantileSorted(s, 0.25), Median: QuantileSorted(s, 0.5),
		P75: QuantileSorted(s, 0.75), P90: QuantileSorted(s, 0.9), P99: QuantileSorted(s, 0.99),
		Max: s[len(s)-1],
	}
}

// Quantile returns the p-quantile of x by linear interpolation between
// order statistics (type 7 of Hyndman & Fan, the default of R and NumPy).
// x is not modified.
func Quantile(x []float64, p float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return QuantileSorted(s, p)
}

// QuantileSorted is [Quantile] for an already sorted sample. It panics if
// p is outside [0, 1].
func QuantileSorted(sorted []float64, p float64) float64 {
	if !(p >= 0 && p <= 1) {
		panic("stats: quantile probability out of range")
	}
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := p * float64(n-1)
	i := int(math.Floor(h))
	if i >= n-1 {
		return sorted[n-1]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}

// EmpiricalQuantileSorted returns the empirical p-quantile of a sorted
// sample: the smallest value whose cumulative fraction reaches p, the
// value at rank ceil(p n) (gonum's stat.Quantile with stat.Empirical).
// Its median is the lower median, an observed value, the convention of
// every hpcwl table. It returns NaN for an empty sample and panics if p
// is outside [0, 1].
func EmpiricalQuantileSorted(sorted []float64, p float64) float64 {
	if !(p >= 0 && p <= 1) {
		panic("stats: quantile probability out of range")
	}
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	return sorted[min(max(int(math.Ceil(p*float64(n)))-1, 0), n-1)]
}

// Median returns the lower median of x (see [EmpiricalQuantileSorted]); x
// is not modified.
func Median(x []float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return EmpiricalQuantileSorted(s, 0.5)
}

// ECDF returns the empirical CDF of x as a function: the fraction of
// values <= t. x is copied.
func ECDF(x []float64) func(t float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	n := float64(len(s))
	return func(t float64) float64 {
		return float64(sort.Search(len(s), func(i int) bool { return s[i] > t })) / n
	}
}
