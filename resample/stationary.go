package resample

import (
	"fmt"
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/trace"
)

// SegmentOptions control [WeeklySegments].
type SegmentOptions struct {
	// MinWeeks is the shortest segment, in weeks; 0 means 13, one week
	// more than the long-term span, so that every segment can be
	// resampled with the default classification.
	MinWeeks int
	// Penalty multiplies the penalty for a change point; 0 means 1.
	// Larger values find fewer segments.
	Penalty float64
}

// Segment is a stretch of weeks of a log whose weekly offered load is
// taken as stationary.
type Segment struct {
	// FirstWeek and LastWeek are the local weeks it covers (inclusive),
	// counted like the weeks of resampling (Monday 00:00 local time before
	// the log's time 0 begins week 0).
	FirstWeek int `json:"first_week"`
	LastWeek  int `json:"last_week"`
	// Start and End bound it in relative time: [Start, End).
	Start int64 `json:"start"`
	End   int64 `json:"end"`
	// MeanLoad and SDLoad are the mean and standard deviation of its
	// weekly offered loads.
	MeanLoad float64 `json:"mean_load"`
	SDLoad   float64 `json:"sd_load"`
}

// Weeks returns the segment's length in weeks.
func (s Segment) Weeks() int { return s.LastWeek - s.FirstWeek + 1 }

// WeeklyLoad returns the offered load of every local week of the log
// period, from p's first week: the processor-seconds (runtime x
// processors) of the usable jobs submitted in the week over procs x one
// week. Rare behaviours count with their weeks.
func (p *Pools) WeeklyLoad(procs int) ([]float64, int) {
	w0, w1 := p.cal.week(p.Start), p.cal.week(p.End)
	load := make([]float64, w1-w0+1)
	for i := range p.Trace.Jobs {
		j := &p.Trace.Jobs[i]
		k := int(p.week[i]) - w0
		if !usable(j) || k < 0 || k >= len(load) {
			continue
		}
		load[k] += float64(j.Runtime) * float64(j.Processors())
	}
	for k := range load {
		load[k] /= float64(procs) * Week
	}
	return load, w0
}

// WeeklySegments cuts the log period into segments of stationary weekly
// offered load, for building a long stationary workload from a
// piecewise-stationary log, which Zakay proposes (N. Zakay, Improved
// Realism and Representativeness of Workloads to Improve Reliability of
// Performance Evaluations, PhD thesis, Hebrew University, chapter 3,
// section 6, "proposed applications"); [Pools.Segment] then resamples
// from one segment only.
//
// The test is binary segmentation for changes in the mean (A. J. Scott
// and M. Knott, A cluster analysis method for grouping means in the
// analysis of variance, Biometrics 30, 1974): a stretch of n weeks is
// split at the week that most reduces the sum of squared deviations from
// the stretch's means, if both parts have at least MinWeeks weeks and the
// reduction exceeds Penalty x 2 sigma^2 ln(N), a Schwarz-type penalty (G.
// Schwarz, Estimating the dimension of a model, Annals of Statistics 6,
// 1978) with N the log's weeks; then each part is tested again. sigma is
// estimated once for the whole log, from the median absolute deviation of
// the week-to-week differences (MAD / (0.6745 sqrt 2)), which mean shifts
// barely move. The choices of penalty and estimator are ours; Zakay does
// not test his proposal.
func (p *Pools) WeeklySegments(procs int, opt SegmentOptions) ([]Segment, error) {
	if procs <= 0 {
		return nil, fmt.Errorf("resample: machine size %d: weekly loads need the machine size", procs)
	}
	if opt.MinWeeks == 0 {
		opt.MinWeeks = 13
	}
	if opt.Penalty == 0 {
		opt.Penalty = 1
	}
	if opt.MinWeeks < 1 || !(opt.Penalty > 0) || math.IsInf(opt.Penalty, 0) {
		return nil, fmt.Errorf("resample: segment options: minimum %d weeks and penalty %v must be positive", opt.MinWeeks, opt.Penalty)
	}
	x, w0 := p.WeeklyLoad(procs)
	n := len(x)
	sigma := diffSigma(x)
	pen := opt.Penalty * 2 * sigma * sigma * math.Log(float64(max(n, 2)))
	// Prefix sums give any stretch's sum of squared deviations in O(1).
	s1, s2 := make([]float64, n+1), make([]float64, n+1)
	for i, v := range x {
		s1[i+1], s2[i+1] = s1[i]+v, s2[i]+v*v
	}
	sse := func(a, b int) float64 {
		m := float64(b - a)
		d := s1[b] - s1[a]
		return max(0, s2[b]-s2[a]-d*d/m)
	}
	var cuts []int
	var split func(a, b int)
	split = func(a, b int) {
		best, bestGain := -1, 0.0
		whole := sse(a, b)
		for k := a + opt.MinWeeks; k <= b-opt.MinWeeks; k++ {
			if g := whole - sse(a, k) - sse(k, b); g > bestGain {
				best, bestGain = k, g
			}
		}
		if best < 0 || bestGain <= pen {
			return
		}
		cuts = append(cuts, best)
		split(a, best)
		split(best, b)
	}
	split(0, n)
	slices.Sort(cuts)
	bounds := append(append([]int{0}, cuts...), n)
	out := make([]Segment, 0, len(bounds)-1)
	for i := 0; i+1 < len(bounds); i++ {
		a, b := bounds[i], bounds[i+1]
		m := (s1[b] - s1[a]) / float64(b-a)
		sd := math.Sqrt(sse(a, b) / float64(max(1, b-a-1)))
		seg := Segment{FirstWeek: w0 + a, LastWeek: w0 + b - 1, MeanLoad: m, SDLoad: sd,
			Start: max(p.Start, p.cal.weekStart(w0+a)), End: min(p.End+1, p.cal.weekStart(w0+b))}
		out = append(out, seg)
	}
	return out, nil
}

// diffSigma estimates the noise of a series with mean shifts from its
// first differences: MAD(diff) / (0.6745 sqrt 2); 0 for fewer than 3
// values.
func diffSigma(x []float64) float64 {
	if len(x) < 3 {
		return 0
	}
	d := make([]float64, len(x)-1)
	for i := range d {
		d[i] = x[i+1] - x[i]
	}
	med := median(d)
	for i := range d {
		d[i] = math.Abs(d[i] - med)
	}
	return median(d) / (0.6745 * math.Sqrt2)
}

// median returns the median of x (sorted in place).
func median(x []float64) float64 {
	slices.Sort(x)
	n := len(x)
	return (x[(n-1)/2] + x[n/2]) / 2
}

// LongestSegment returns the index of the longest segment (the earliest of
// equals).
func LongestSegment(segs []Segment) int {
	best := 0
	for i, s := range segs {
		if s.Weeks() > segs[best].Weeks() {
			best = i
		}
	}
	return best
}

// Segment classifies the users of one segment of p's log alone (the
// jobs submitted in [s.Start, s.End), the segment's first and last submit
// bounding its period), with p's classification options, so that
// [Pools.Generate] on the result resamples only from that segment and can
// make it as long as wanted. A user active in several segments
// contributes only the part inside this one. It fails with a
// [*ShortLogError] for a segment not longer than the long-term span.
func (p *Pools) Segment(s Segment) (*Pools, error) {
	t := p.Trace
	jobs := make([]trace.Job, 0, len(t.Jobs))
	for i := range t.Jobs {
		if sub := t.Jobs[i].Submit; sub >= s.Start && sub < s.End {
			jobs = append(jobs, t.Jobs[i])
		}
	}
	h := t.Header.Clone()
	h.AddNote(fmt.Sprintf("segment of weeks %d-%d (relative time %d to %d) of the log, mean weekly offered load %.3f", s.FirstWeek, s.LastWeek, s.Start, s.End, s.MeanLoad))
	st := trace.New(h, jobs, trace.Options{Procs: t.Procs})
	st.Name, st.SHA256 = t.Name, t.SHA256
	o := p.Options
	o.Period = PeriodSubmits
	// Rare behaviours named for the whole log are kept; a detector runs
	// on the segment.
	return Classify(st, o)
}
