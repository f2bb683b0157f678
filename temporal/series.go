package temporal

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/hpcwl/hpcwl/trace"
)

// Series names one of the five per-bin series of Talby (2006), section 5
// and appendix C.
type Series int

// The five series, in the column order of Talby's Tables 37-40.
const (
	// Runtime is the runtime of the jobs arriving in a bin (SWF field 4).
	Runtime Series = iota
	// Procs is their number of processors (field 5, else field 8).
	Procs
	// CPU is their total CPU work: processors times the average CPU time
	// per processor (field 6), or times the runtime when that is unknown.
	CPU
	// InterArrival is the time from the previous arrival in the whole log
	// to each job arriving in the bin.
	InterArrival
	// Jobs is the number of jobs arriving in a bin (0 for an empty bin).
	Jobs
	numSeries
)

// AllSeries lists the five series in table order.
var AllSeries = []Series{Runtime, Procs, CPU, InterArrival, Jobs}

var seriesNames = [numSeries]string{"runtime", "procs", "cpu", "interarrival", "jobs"}

// String returns the series' short name: runtime, procs, cpu, interarrival
// or jobs.
func (s Series) String() string {
	if s < 0 || s >= numSeries {
		return fmt.Sprintf("Series(%d)", int(s))
	}
	return seriesNames[s]
}

// Statistic is how the attribute values of the jobs in one bin are reduced
// to the bin's value. Talby (2006) does not say; Mean is our default.
type Statistic int

// The per-bin statistics.
const (
	// Mean is the arithmetic mean over the jobs of the bin.
	Mean Statistic = iota
	// Median is the lower median (of 1, 2, 3 and 4: 2).
	Median
	// Sum is the total over the jobs of the bin (0 for an empty bin).
	Sum
)

var statisticNames = []string{"mean", "median", "sum"}

// String returns mean, median or sum.
func (s Statistic) String() string {
	if s < 0 || int(s) >= len(statisticNames) {
		return fmt.Sprintf("Statistic(%d)", int(s))
	}
	return statisticNames[s]
}

// ParseStatistic returns the statistic named mean, median or sum.
func ParseStatistic(name string) (Statistic, error) {
	if i := slices.Index(statisticNames, name); i >= 0 {
		return Statistic(i), nil
	}
	return 0, fmt.Errorf("unknown statistic %q; valid: mean, median, sum", name)
}

// ErrNoJobs is returned for a trace without a job with a known submit time.
var ErrNoJobs = errors.New("no job with a submit time")

// Binned holds the five series of a trace at one bin width.
type Binned struct {
	// Width is the bin width in seconds.
	Width int64
	// Origin is the start of bin 0 in the trace's relative time (seconds
	// since the header's UnixStartTime): local midnight of the day of
	// the first arrival. Bins are a fixed number of seconds wide, so a
	// daylight-saving change moves later bin edges by an hour against
	// the wall clock.
	Origin int64
	// Statistic reduced the jobs of a bin to its attribute values.
	Statistic Statistic
	// Values holds one slice per Series (indexed by it), one value per
	// bin from the bin of the first arrival to that of the last. An
	// attribute of a bin without jobs holding that attribute is NaN
	// (missing) for Mean and Median, 0 for Sum; Jobs is always a count.
	Values [numSeries][]float64
}

// Len returns the number of bins.
func (b *Binned) Len() int { return len(b.Values[Jobs]) }

// Series returns the values of series s (not a copy).
func (b *Binned) Series(s Series) []float64 { return b.Values[s] }

// Bin cuts t into bins of width seconds aligned to local midnight (the
// log's time zone, trace.Clock) and computes the five series with stat.
// Jobs with an unknown submit time are left out; a job with an unknown
// runtime or processor count is counted in Jobs and InterArrival but not
// in the series it lacks. Inter-arrival times are taken between
// consecutive arrivals of the whole log in submit order; the first job has
// none.
func Bin(t *trace.Trace, width int64, stat Statistic) (*Binned, error) {
	if width <= 0 {
		return nil, fmt.Errorf("temporal: bin width must be positive, got %d s", width)
	}
	if stat < Mean || stat > Sum {
		return nil, fmt.Errorf("temporal: unknown statistic %d", int(stat))
	}
	order := arrivalOrder(t)
	if len(order) == 0 {
		return nil, ErrNoJobs
	}
	first, last := t.Jobs[order[0]].Submit, t.Jobs[order[len(order)-1]].Submit
	origin := localMidnight(t.Clock(), first)
	lo := (first - origin) / width
	n := int((last-origin)/width - lo + 1)
	b := &Binned{Width: width, Origin: origin + lo*width, Statistic: stat}
	if n > 1<<26 {
		return nil, fmt.Errorf("temporal: %d bins of %d s is too many; use a wider bin", n, width)
	}
	count := make([]float64, n)
	var vals [Jobs][][]float64 // per attribute series, per bin (Median only)
	var sums, cnts [Jobs][]float64
	for s := range Jobs {
		sums[s] = make([]float64, n)
		cnts[s] = make([]float64, n)
		if stat == Median {
			vals[s] = make([][]float64, n)
		}
	}
	add := func(s Series, i int, v float64) {
		sums[s][i] += v
		cnts[s][i]++
		if stat == Median {
			vals[s][i] = append(vals[s][i], v)
		}
	}
	prev := int64(-1)
	for k, idx := range order {
		j := &t.Jobs[idx]
		i := int((j.Submit - b.Origin) / width)
		count[i]++
		if j.Runtime >= 0 {
			add(Runtime, i, float64(j.Runtime))
		}
		if p := j.Processors(); p > 0 {
			add(Procs, i, float64(p))
		}
		if c, ok := cpuWork(j); ok {
			add(CPU, i, c)
		}
		if k > 0 {
			add(InterArrival, i, float64(j.Submit-prev))
		}
		prev = j.Submit
	}
	b.Values[Jobs] = count
	for s := range Jobs {
		out := make([]float64, n)
		for i := range out {
			switch {
			case stat == Sum:
				out[i] = sums[s][i]
			case cnts[s][i] == 0:
				out[i] = math.NaN()
			case stat == Mean:
				out[i] = sums[s][i] / cnts[s][i]
			default:
				out[i] = median(vals[s][i])
			}
		}
		b.Values[s] = out
	}
	return b, nil
}

// cpuWork returns the job's total CPU work: its processors times the
// average CPU time per processor (field 6), or times the runtime when that
// is unknown. Talby (2006) names the series "Total CPU Work" without a
// formula; per processor (field 6 alone, the CPU work of his Table 2) the
// CPU series of KTH-SP2, which records no CPU time, would equal the runtime
// series, while his Tables 37-39 give them different values (weekly ACF
// 0.46 and 0.12); the total reproduces his CPU columns far better
// (docs/validation.md, "Temporal structure").
func cpuWork(j *trace.Job) (float64, bool) {
	p := j.Processors()
	if p <= 0 {
		return 0, false
	}
	if j.AvgCPU >= 0 {
		return j.AvgCPU * float64(p), true
	}
	if j.Runtime >= 0 {
		return float64(j.Runtime) * float64(p), true
	}
	return 0, false
}

// arrivalOrder returns the indexes of t's jobs with a known submit time,
// in submit order (stable).
func arrivalOrder(t *trace.Trace) []int {
	order := make([]int, 0, len(t.Jobs))
	sorted := true
	for i := range t.Jobs {
		if t.Jobs[i].Submit < 0 {
			continue
		}
		if len(order) > 0 && t.Jobs[i].Submit < t.Jobs[order[len(order)-1]].Submit {
			sorted = false
		}
		order = append(order, i)
	}
	if !sorted {
		slices.SortStableFunc(order, func(a, b int) int {
			return int(min(max(t.Jobs[a].Submit-t.Jobs[b].Submit, -1), 1))
		})
	}
	return order
}

// localMidnight returns the relative time of the local midnight starting
// the day that holds relative time s.
func localMidnight(c *trace.Clock, s int64) int64 {
	lt := c.Time(s)
	return time.Date(lt.Year(), lt.Month(), lt.Day(), 0, 0, 0, 0, c.Loc).Unix() - c.Start
}

// median returns the lower median of v (sorted in place), the project's
// rule for quantiles (gonum's empirical quantile; docs/formats.md).
func median(v []float64) float64 {
	slices.Sort(v)
	return stat.Quantile(0.5, stat.Empirical, v, nil)
}
