package temporal

import (
	"math"
	"sort"

	"github.com/hpcwl/hpcwl/trace"
)

// Series names one of the five per-bin series of Talby (2006), section 5.3.
type Series int

// The five series, in the column order of Talby's Tables 37-39.
const (
	Runtime      Series = iota // mean runtime of the jobs arriving in the bin
	Procs                      // mean number of processors
	CPU                        // mean total CPU work, runtime × processors
	Interarrival               // mean time since the previous arrival of the log
	Jobs                       // number of arrivals
)

// AllSeries lists the series in table order.
var AllSeries = []Series{Runtime, Procs, CPU, Interarrival, Jobs}

// String returns the series' column name.
func (s Series) String() string {
	return [...]string{"runtime", "procs", "cpu", "interarrival", "jobs"}[s]
}

// Bin widths of Talby's tests (2006, section 5.3, Appendix C), in seconds.
const (
	Bin15Min  = 15 * 60
	Bin150Min = 150 * 60
	Bin6Hours = 6 * 3600
	Bin1Day   = 86400
)

// Binned returns the five series of t over bins of width seconds aligned to
// the local midnight of the day of the first arrival (the log's time zone,
// trace.Clock), from that bin to the one of the last arrival. Jobs with an
// unknown runtime or size count as arrivals and in the inter-arrival series
// but not in the runtime, processor and CPU means. A bin without arrivals
// has a count of 0 and NaN (missing) means. The inter-arrival time of a job
// is its submit time minus the previous one in submit order; the first job
// has none.
func Binned(t *trace.Trace, width int64) map[Series][]float64 {
	out := map[Series][]float64{}
	if len(t.Jobs) == 0 || width <= 0 {
		return out
	}
	idx := make([]int, len(t.Jobs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return t.Jobs[idx[a]].Submit < t.Jobs[idx[b]].Submit })
	c := t.Clock()
	first := t.Jobs[idx[0]].Submit
	t0 := c.Time(first)
	_, off := t0.Zone()
	// Relative time of the local midnight of the first arrival's day.
	local := c.Start + first + int64(off)
	origin := first - (local - floorDiv(local, 86400)*86400)
	last := t.Jobs[idx[len(idx)-1]].Submit
	n := int((last-origin)/width) + 1
	type acc struct{ sum, k float64 }
	sums := map[Series][]acc{}
	for _, s := range AllSeries {
		sums[s] = make([]acc, n)
	}
	prev := int64(math.MinInt64)
	for _, i := range idx {
		j := &t.Jobs[i]
		b := int((j.Submit - origin) / width)
		sums[Jobs][b].sum++
		if prev != math.MinInt64 {
			sums[Interarrival][b].sum += float64(j.Submit - prev)
			sums[Interarrival][b].k++
		}
		prev = j.Submit
		p := j.Processors()
		if j.Runtime < 0 || p <= 0 {
			continue
		}
		r := float64(j.Runtime)
		for _, v := range []struct {
			s Series
			x float64
		}{{Runtime, r}, {Procs, float64(p)}, {CPU, r * float64(p)}} {
			sums[v.s][b].sum += v.x
			sums[v.s][b].k++
		}
	}
	for _, s := range AllSeries {
		x := make([]float64, n)
		for b, a := range sums[s] {
			switch {
			case s == Jobs:
				x[b] = a.sum
			case a.k > 0:
				x[b] = a.sum / a.k
			default:
				x[b] = math.NaN()
			}
		}
		out[s] = x
	}
	return out
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// ACF returns the autocorrelation of x at lag k, skipping missing (NaN)
// values pairwise: r(k) = Σ (x_t − x̄)(x_{t+k} − x̄) / Σ (x_t − x̄)² with the
// mean and the denominator over the values present and the numerator over
// the pairs with both present (Talby (2006), section 5.3). It returns NaN
// when fewer than two values are present or they are all equal.
func ACF(x []float64, k int) float64 {
	var mean float64
	n := 0
	for _, v := range x {
		if !math.IsNaN(v) {
			mean += v
			n++
		}
	}
	if n < 2 || k < 0 {
		return math.NaN()
	}
	mean /= float64(n)
	var den, num float64
	for _, v := range x {
		if !math.IsNaN(v) {
			den += (v - mean) * (v - mean)
		}
	}
	for t := 0; t+k < len(x); t++ {
		a, b := x[t], x[t+k]
		if !math.IsNaN(a) && !math.IsNaN(b) {
			num += (a - mean) * (b - mean)
		}
	}
	if den == 0 {
		return math.NaN()
	}
	return num / den
}

// Row is one log's row of Talby's Tables 37-39, each array in the order of
// [AllSeries] (runtime, processors, CPU work, inter-arrival time, jobs).
type Row struct {
	// Locality15 and Locality150 are the lag-1 autocorrelations at 15- and
	// 150-minute bins (Table 37).
	Locality15  [5]float64 `json:"locality_15m"`
	Locality150 [5]float64 `json:"locality_150m"`
	// Daily12 and Daily24 are the autocorrelations at 6-hour bins, lags 2
	// and 4 (12 and 24 hours; Table 38).
	Daily12 [5]float64 `json:"daily_12h"`
	Daily24 [5]float64 `json:"daily_24h"`
	// Weekly is the autocorrelation at 1-day bins, lag 7 (Table 39).
	Weekly [5]float64 `json:"weekly"`
}

// Analyze computes t's row of Talby's Tables 37-39.
func Analyze(t *trace.Trace) Row {
	var r Row
	for _, c := range []struct {
		width int64
		lag   int
		dst   *[5]float64
	}{
		{Bin15Min, 1, &r.Locality15}, {Bin150Min, 1, &r.Locality150},
		{Bin6Hours, 2, &r.Daily12}, {Bin6Hours, 4, &r.Daily24}, {Bin1Day, 7, &r.Weekly},
	} {
		b := Binned(t, c.width)
		for i, s := range AllSeries {
			c.dst[i] = ACF(b[s], c.lag)
		}
	}
	return r
}
