package metrics

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
)

// Gain compares a run with a baseline run of the same log as the thesis
// compares adaptive schedulers with Maui (Talby, User Modeling of Parallel
// Workloads, PhD thesis, Hebrew University, 2006, sections 7.3 and 7.4): the
// performance gain is the relative reduction of the mean wait, and the
// stability gain the relative reduction of the standard deviation of the
// monthly mean waits (sample standard deviation over the calendar months of
// submission). Positive gains mean the run is better.
type Gain struct {
	// Performance is (baseline mean wait - mean wait) / baseline mean wait.
	Performance float64 `json:"performance"`
	// Stability is (baseline monthly SD - monthly SD) / baseline monthly SD.
	Stability float64 `json:"stability"`
	// MeanWait and BaseMeanWait are the two mean waits, in seconds.
	MeanWait     float64 `json:"mean_wait"`
	BaseMeanWait float64 `json:"baseline_mean_wait"`
	// MonthlySD and BaseMonthlySD are the standard deviations of the
	// monthly mean waits, in seconds.
	MonthlySD     float64 `json:"monthly_sd"`
	BaseMonthlySD float64 `json:"baseline_monthly_sd"`
	// Months is the number of months compared.
	Months int `json:"months"`
}

// MonthlyWaitSD returns the sample standard deviation of the monthly mean
// waits of s (which needs its per-month breakdown) and the number of
// months.
func MonthlyWaitSD(s *Summary) (float64, int) {
	x := make([]float64, len(s.PerMonth))
	for i, g := range s.PerMonth {
		x[i] = g.Wait.Mean
	}
	if len(x) < 2 {
		return 0, len(x)
	}
	return stat.StdDev(x, nil), len(x)
}

// Gains compares run with base. Both need their per-month breakdowns, over
// the same months (the same log and window); an error says what differs.
func Gains(run, base *Summary) (Gain, error) {
	if len(run.PerMonth) == 0 || len(base.PerMonth) == 0 {
		return Gain{}, fmt.Errorf("metrics: gains need the per-month figures of both runs")
	}
	if len(run.PerMonth) != len(base.PerMonth) {
		return Gain{}, fmt.Errorf("metrics: the run has %d months, the baseline %d", len(run.PerMonth), len(base.PerMonth))
	}
	for i := range run.PerMonth {
		if a, b := run.PerMonth[i], base.PerMonth[i]; a.Key != b.Key || a.Jobs != b.Jobs {
			return Gain{}, fmt.Errorf("metrics: month %d differs: %s with %d jobs in the run, %s with %d in the baseline", i, a.Key, a.Jobs, b.Key, b.Jobs)
		}
	}
	g := Gain{MeanWait: run.Wait.Mean, BaseMeanWait: base.Wait.Mean}
	g.MonthlySD, g.Months = MonthlyWaitSD(run)
	g.BaseMonthlySD, _ = MonthlyWaitSD(base)
	g.Performance = rel(g.BaseMeanWait, g.MeanWait)
	g.Stability = rel(g.BaseMonthlySD, g.MonthlySD)
	return g, nil
}

// rel returns (base - x) / base, or NaN for a zero base (0 if both are 0).
func rel(base, x float64) float64 {
	if base == 0 {
		if x == 0 {
			return 0
		}
		return math.NaN()
	}
	return (base - x) / base
}
