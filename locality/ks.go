package locality

import "github.com/hpcwl/hpcwl/stats"

// UserKSDistances returns, for each metric of [UserMetrics] present in both
// a and b (as [Users] returns them), the two-sample Kolmogorov-Smirnov
// distance between the per-user values of the two workloads: the largest
// gap between their empirical distribution functions, from 0 (same
// distribution) to 1. Metrics missing or empty on either side are left out.
func UserKSDistances(a, b map[string][]float64) map[string]float64 {
	m := map[string]float64{}
	for _, k := range UserMetrics {
		if len(a[k]) > 0 && len(b[k]) > 0 {
			m[k] = stats.KSTwoSample(a[k], b[k]).D
		}
	}
	return m
}
