// Package scorecard judges how realistic a candidate workload (a resampled
// variant of a log, a generated one) is against a reference log: for each
// feature of the workload (the marginal distributions of runtime, size,
// inter-arrival time and requested time, the users' activity and sessions,
// the daily and weekly cycles of arrivals, the offered load and the Hurst
// parameter of the arrivals) it gives a distance and a verdict, close,
// differs or far.
//
// Every verdict compares a statistic with two bounds derived from sampling
// error, never a fixed distance:
//
//   - close: the difference is within what sampling error explains at the
//     two workloads' own sizes (a test at significance [Alpha] does not
//     reject that they are alike);
//   - far: the difference is large enough to be seen in a small sample, or
//     larger than a simple yardstick: for distributions and cycles a test
//     on [SubsampleSize] jobs would reject it (the sub-sample size at which
//     Lublin and Feitelson judge their model's fit, The workload on parallel
//     supercomputers, JPDC 63(11), 2003, section 5.1, because whole logs of
//     dependent jobs reject any model); for the offered load the candidate's
//     mean lies outside the range of 95% of the reference's weeks; for the
//     Hurst parameter the candidate is further from the reference than
//     independent arrivals with the same counts per hour are;
//   - differs: in between.
//
// Where the far bound falls below the close bound (small samples), a
// difference beyond the close bound is far.
package scorecard

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/hpcwl/hpcwl/locality"
	"github.com/hpcwl/hpcwl/stats"
	"github.com/hpcwl/hpcwl/summary"
	"github.com/hpcwl/hpcwl/trace"
)

// Alpha is the significance level of every test of the scorecard.
const Alpha = 0.05

// SubsampleSize is the sample size, in jobs (for two samples, the effective
// size nm/(n+m)), at which a significant difference is judged far.
const SubsampleSize = 500

// Verdict is the judgement of one feature.
type Verdict string

// The verdicts, from best to worst; NA when the feature cannot be measured
// in one of the workloads (no user IDs, no requested times, too short).
const (
	Close   Verdict = "close"
	Differs Verdict = "differs"
	Far     Verdict = "far"
	NA      Verdict = "n/a"
)

// Kind says how a feature is compared.
type Kind string

// The kinds of features.
const (
	// Distribution: two-sample Kolmogorov-Smirnov distance D; the bounds
	// are the critical values of D at Alpha for the effective sample size
	// and for SubsampleSize.
	Distribution Kind = "distribution"
	// Cycle: the fractions of jobs per bin of a cycle; the distance is the
	// total variation ½Σ|p−q|, the statistic Cohen's w = sqrt(χ²/n) of the
	// chi-square test of homogeneity of the 2 x bins table (n the effective
	// size), whose bounds are sqrt(χ²crit/n) at the two sizes.
	Cycle Kind = "cycle"
	// Scalar: one number per workload; the distance is the relative
	// difference (candidate − reference) / reference, the statistic the
	// absolute difference.
	Scalar Kind = "scalar"
)

// Row is one feature of the scorecard.
type Row struct {
	Feature string `json:"feature"`
	Kind    Kind   `json:"kind"`
	// Test names the statistic: "KS D", "Cohen's w", "|difference|".
	Test string `json:"test"`
	// Reference and Candidate summarise the feature in each workload
	// (a median, a peak, a value), as text.
	Reference string `json:"reference"`
	Candidate string `json:"candidate"`
	// N are the sample sizes (jobs, users, sessions, weeks, hours).
	N [2]int `json:"n"`
	// Distance is D, the total variation or the relative difference.
	Distance float64 `json:"distance"`
	// Statistic is compared with the bounds: at most CloseBound is close,
	// above FarBound (and CloseBound) far.
	Statistic  float64 `json:"statistic"`
	CloseBound float64 `json:"close_bound"`
	FarBound   float64 `json:"far_bound"`
	Verdict    Verdict `json:"verdict"`
	// Note says why a feature is n/a, or what to keep in mind.
	Note string `json:"note,omitempty"`
}

// MarshalJSON writes the row with null for the numbers that could not be
// measured (NaN).
func (r Row) MarshalJSON() ([]byte, error) {
	type plain Row
	return json.Marshal(struct {
		plain
		Distance   summary.Float `json:"distance"`
		Statistic  summary.Float `json:"statistic"`
		CloseBound summary.Float `json:"close_bound"`
		FarBound   summary.Float `json:"far_bound"`
	}{plain(r), summary.Float(r.Distance), summary.Float(r.Statistic), summary.Float(r.CloseBound), summary.Float(r.FarBound)})
}

// Card is a scorecard: a candidate workload against a reference.
type Card struct {
	Reference string  `json:"reference"`
	Candidate string  `json:"candidate"`
	Alpha     float64 `json:"alpha"`
	Subsample int     `json:"subsample"`
	// Shuffles and Seed made the Hurst parameter's spread.
	Shuffles int    `json:"hurst_shuffles"`
	Seed     uint64 `json:"seed"`
	Rows     []Row  `json:"features"`
}

// Count returns how many features have the verdict v.
func (c *Card) Count(v Verdict) int {
	n := 0
	for _, r := range c.Rows {
		if r.Verdict == v {
			n++
		}
	}
	return n
}

// Options control [Compare]; the zero value gives the defaults.
type Options struct {
	// HurstUnit is the time unit of the arrival series of the Hurst
	// parameter, s; 0 means 1 hour (as [locality.Hurst]).
	HurstUnit int64
	// Shuffles is the number of random orders of each arrival series
	// whose Hurst parameters give the estimator's spread; 0 means 30.
	Shuffles int
	// Seed seeds the shuffles.
	Seed uint64
}

// judge returns the verdict of a statistic between its bounds.
func judge(stat, closeB, farB float64) Verdict {
	switch {
	case math.IsNaN(stat):
		return NA
	case stat <= closeB:
		return Close
	case stat > farB:
		return Far
	}
	return Differs
}

// Compare scores cand against ref. Both traces are read, not modified.
func Compare(ref, cand *trace.Trace, opt Options) (*Card, error) {
	if ref.Len() == 0 || cand.Len() == 0 {
		return nil, fmt.Errorf("scorecard: a workload without jobs (%s: %d, %s: %d)", ref.Name, ref.Len(), cand.Name, cand.Len())
	}
	if opt.Shuffles <= 0 {
		opt.Shuffles = 30
	}
	c := &Card{Reference: ref.Name, Candidate: cand.Name, Alpha: Alpha, Subsample: SubsampleSize,
		Shuffles: opt.Shuffles, Seed: opt.Seed}
	for _, f := range jobFeatures {
		c.Rows = append(c.Rows, distributionRow(f.name, f.unit, f.values(ref), f.values(cand)))
	}
	ur, err := locality.Users(ref)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ref.Name, err)
	}
	uc, err := locality.Users(cand)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cand.Name, err)
	}
	for _, f := range []struct{ key, name, unit string }{
		{"jobs", "jobs per user", ""}, {"sessions", "sessions per user", ""}, {"session_length", "session length", "s"},
	} {
		r := distributionRow(f.name, f.unit, ur[f.key], uc[f.key])
		if r.Verdict == NA {
			r.Note = "no user IDs"
		}
		c.Rows = append(c.Rows, r)
	}
	c.Rows = append(c.Rows, cycleRow("daily cycle", hourOfDay(ref), hourOfDay(cand), dayLabel),
		cycleRow("weekly cycle", dayOfWeek(ref), dayOfWeek(cand), weekLabel),
		loadRow(ref, cand), hurstRow(ref, cand, opt))
	return c, nil
}

// jobFeature is a per-job quantity compared as a distribution.
type jobFeature struct {
	name, unit string
	values     func(*trace.Trace) []float64
}

var jobFeatures = []jobFeature{
	{"runtime", "s", func(t *trace.Trace) []float64 {
		return jobValues(t, func(j *trace.Job) int64 { return j.Runtime })
	}},
	{"size", "processors", func(t *trace.Trace) []float64 {
		return jobValues(t, func(j *trace.Job) int64 {
			if p := j.Processors(); p > 0 {
				return int64(p)
			}
			return -1
		})
	}},
	{"inter-arrival", "s", interArrivals},
	{"requested time", "s", func(t *trace.Trace) []float64 {
		return jobValues(t, func(j *trace.Job) int64 {
			if j.ReqTime > 0 {
				return j.ReqTime
			}
			return -1
		})
	}},
}

// jobValues returns the non-negative values of f over t's jobs.
func jobValues(t *trace.Trace, f func(*trace.Job) int64) []float64 {
	out := make([]float64, 0, len(t.Jobs))
	for i := range t.Jobs {
		if x := f(&t.Jobs[i]); x >= 0 {
			out = append(out, float64(x))
		}
	}
	return out
}

// interArrivals returns the times between consecutive known submits.
func interArrivals(t *trace.Trace) []float64 {
	subs := make([]int64, 0, len(t.Jobs))
	for i := range t.Jobs {
		if s := t.Jobs[i].Submit; s >= 0 {
			subs = append(subs, s)
		}
	}
	slices.Sort(subs)
	out := make([]float64, 0, len(subs))
	for i := 1; i < len(subs); i++ {
		out = append(out, float64(subs[i]-subs[i-1]))
	}
	return out
}

// KSBounds returns the close and far bounds of the KS distance for samples
// of n and m values: the critical values of D at Alpha for the effective
// size nm/(n+m) and for SubsampleSize.
func KSBounds(n, m int) (closeB, farB float64) {
	ne := int(math.Round(float64(n) * float64(m) / float64(n+m)))
	return stats.KSCritical(max(ne, 1), Alpha), stats.KSCritical(SubsampleSize, Alpha)
}

// distributionRow compares the samples a and b, which it sorts in place.
func distributionRow(name, unit string, a, b []float64) Row {
	r := Row{Feature: name, Kind: Distribution, Test: "KS D", N: [2]int{len(a), len(b)},
		Distance: math.NaN(), Statistic: math.NaN(), CloseBound: math.NaN(), FarBound: math.NaN(), Verdict: NA}
	switch {
	case len(a) == 0 && len(b) == 0:
		r.Note = "unknown in both"
	case len(a) == 0:
		r.Note = "unknown in the reference"
	case len(b) == 0:
		r.Note = "unknown in the candidate"
	}
	// Sorted once here, the samples sort in linear time in KSTwoSample.
	slices.Sort(a)
	slices.Sort(b)
	if len(a) > 0 {
		r.Reference = medianText(a, unit)
	}
	if len(b) > 0 {
		r.Candidate = medianText(b, unit)
	}
	if len(a) == 0 || len(b) == 0 {
		return r
	}
	ks := stats.KSTwoSample(a, b)
	r.Distance, r.Statistic = ks.D, ks.D
	r.CloseBound, r.FarBound = KSBounds(len(a), len(b))
	r.Verdict = judge(r.Statistic, r.CloseBound, r.FarBound)
	return r
}

// medianText is "median X UNIT" of the sorted sample x.
func medianText(x []float64, unit string) string {
	m := stats.EmpiricalQuantileSorted(x, 0.5)
	if unit == "" || unit == "processors" {
		return fmt.Sprintf("median %s", trimFloat(m))
	}
	return "median " + durationText(m)
}

func trimFloat(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.3g", x)
}

// durationText writes seconds with the largest fitting unit.
func durationText(s float64) string {
	switch a := math.Abs(s); {
	case a >= 86400:
		return fmt.Sprintf("%.3gd", s/86400)
	case a >= 3600:
		return fmt.Sprintf("%.3gh", s/3600)
	case a >= 60:
		return fmt.Sprintf("%.3gm", s/60)
	}
	return fmt.Sprintf("%.3gs", s)
}

// CycleBounds returns the close and far bounds of Cohen's w for a cycle of
// the given number of bins and samples of n and m jobs: sqrt(χ²crit/ne),
// χ²crit the (1 − Alpha) quantile with bins − 1 degrees of freedom and ne
// the effective size nm/(n+m), then SubsampleSize.
func CycleBounds(bins, n, m int) (closeB, farB float64) {
	crit := distuv.ChiSquared{K: float64(bins - 1)}.Quantile(1 - Alpha)
	ne := float64(n) * float64(m) / float64(n+m)
	return math.Sqrt(crit / ne), math.Sqrt(crit / SubsampleSize)
}

// CohenW returns Cohen's w of two histograms of counts (the effect size of
// a chi-square test; J. Cohen, Statistical Power Analysis for the
// Behavioral Sciences, 2nd ed., 1988, chapter 7), sqrt(Σ (p−q)²/r) over the
// bins with a pooled proportion r > 0, and their total variation distance
// ½Σ|p−q|. The chi-square statistic of homogeneity of the 2 x bins
// table is exactly ne·w², ne = nm/(n+m).
func CohenW(a, b []float64) (w, tv float64) {
	n, m := floats(a), floats(b)
	for i := range a {
		p, q := a[i]/n, b[i]/m
		r := (a[i] + b[i]) / (n + m)
		tv += math.Abs(p-q) / 2
		if r > 0 {
			w += (p - q) * (p - q) / r
		}
	}
	return math.Sqrt(w), tv
}

func floats(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

func hourOfDay(t *trace.Trace) []float64 {
	c := t.Clock()
	h := make([]float64, 24)
	for i := range t.Jobs {
		if s := t.Jobs[i].Submit; s >= 0 {
			h[c.HourOfDay(s)]++
		}
	}
	return h
}

func dayOfWeek(t *trace.Trace) []float64 {
	c := t.Clock()
	h := make([]float64, 7)
	for i := range t.Jobs {
		if s := t.Jobs[i].Submit; s >= 0 {
			h[c.DayOfWeek(s)]++
		}
	}
	return h
}

var weekdays = []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}

func dayLabel(i int) string  { return fmt.Sprintf("peak %02d-%02dh", i, i+1) }
func weekLabel(i int) string { return "peak " + weekdays[i] }

func cycleRow(name string, a, b []float64, label func(int) string) Row {
	n, m := floats(a), floats(b)
	r := Row{Feature: name, Kind: Cycle, Test: "Cohen's w", N: [2]int{int(n), int(m)}, Verdict: NA,
		Distance: math.NaN(), Statistic: math.NaN(), CloseBound: math.NaN(), FarBound: math.NaN()}
	if n > 0 {
		r.Reference = label(peak(a))
	}
	if m > 0 {
		r.Candidate = label(peak(b))
	}
	if n == 0 || m == 0 {
		r.Note = "no submit times"
		return r
	}
	r.Statistic, r.Distance = CohenW(a, b)
	r.CloseBound, r.FarBound = CycleBounds(len(a), int(n), int(m))
	r.Verdict = judge(r.Statistic, r.CloseBound, r.FarBound)
	return r
}

func peak(x []float64) int {
	k := 0
	for i, v := range x {
		if v > x[k] {
			k = i
		}
	}
	return k
}

const week = 7 * 86400

// WeeklyLoads returns the offered load of each complete week of t from its
// first submit: the processor time of the jobs submitted in the week over
// the machine's (t.Procs x one week). It is nil when the machine size is
// unknown.
func WeeklyLoads(t *trace.Trace) []float64 {
	if t.Procs <= 0 || t.Len() == 0 {
		return nil
	}
	first, last := t.Span()
	k := int((last - first) / week)
	out := make([]float64, k)
	for i := range t.Jobs {
		j := &t.Jobs[i]
		if w := int((j.Submit - first) / week); j.Submit >= first && w < k && j.Runnable() {
			out[w] += j.Area()
		}
	}
	for w := range out {
		out[w] /= float64(t.Procs) * week
	}
	return out
}

// LoadBounds returns the close and far bounds of the absolute difference of
// the mean weekly offered loads a and b: the half-width of Welch's
// (1 − Alpha) interval of the difference (B. L. Welch, Biometrika 34, 1947;
// weeks taken as independent), and
// the half-width of the range of (1 − Alpha) of the reference's weeks
// (normal quantile times their standard deviation). Each sample needs two
// weeks at least.
func LoadBounds(a, b []float64) (closeB, farB float64) {
	_, va := stat.MeanVariance(a, nil)
	_, vb := stat.MeanVariance(b, nil)
	sa, sb := va/float64(len(a)), vb/float64(len(b))
	se := math.Sqrt(sa + sb)
	df := (sa + sb) * (sa + sb) / (sa*sa/float64(len(a)-1) + sb*sb/float64(len(b)-1))
	tq := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(1 - Alpha/2)
	if se == 0 {
		tq = 0
	}
	z := distuv.UnitNormal.Quantile(1 - Alpha/2)
	return tq * se, z * math.Sqrt(va)
}

func loadRow(ref, cand *trace.Trace) Row {
	a, b := WeeklyLoads(ref), WeeklyLoads(cand)
	r := Row{Feature: "offered load", Kind: Scalar, Test: "|difference|", N: [2]int{len(a), len(b)}, Verdict: NA,
		Distance: math.NaN(), Statistic: math.NaN(), CloseBound: math.NaN(), FarBound: math.NaN(),
		Note: "means of complete weeks"}
	if len(a) > 0 {
		r.Reference = fmt.Sprintf("%.3f", stat.Mean(a, nil))
	}
	if len(b) > 0 {
		r.Candidate = fmt.Sprintf("%.3f", stat.Mean(b, nil))
	}
	if len(a) < 2 || len(b) < 2 {
		r.Note = "needs the machine size and two complete weeks in each"
		return r
	}
	ma, mb := stat.Mean(a, nil), stat.Mean(b, nil)
	r.Distance, r.Statistic = (mb-ma)/ma, math.Abs(mb-ma)
	r.CloseBound, r.FarBound = LoadBounds(a, b)
	r.Verdict = judge(r.Statistic, r.CloseBound, r.FarBound)
	return r
}

// HurstNull returns the mean and standard deviation of the Hurst parameter
// ([locality.HurstSeries]) of k random orders of the series x: what the
// estimator gives for independent arrivals with the same counts per unit
// of time and the same length, and its spread.
func HurstNull(x []float64, k int, seed uint64) (mean, sd float64) {
	rng := rand.New(rand.NewPCG(seed, 0x5c0e))
	y := append([]float64(nil), x...)
	hs := make([]float64, 0, k)
	for range k {
		rng.Shuffle(len(y), func(i, j int) { y[i], y[j] = y[j], y[i] })
		if h := locality.HurstSeries(y, locality.HurstOptions{}).H; !math.IsNaN(h) {
			hs = append(hs, h)
		}
	}
	if len(hs) < 2 {
		return math.NaN(), math.NaN()
	}
	return stat.MeanStdDev(hs, nil)
}

func hurstRow(ref, cand *trace.Trace, opt Options) Row {
	unit := opt.HurstUnit
	if unit <= 0 {
		unit = 3600
	}
	k := opt.Shuffles
	xa, xb := locality.Arrivals(ref, unit), locality.Arrivals(cand, unit)
	ha := locality.HurstSeries(xa, locality.HurstOptions{}).H
	hb := locality.HurstSeries(xb, locality.HurstOptions{}).H
	r := Row{Feature: "Hurst parameter", Kind: Scalar, Test: "|difference|", N: [2]int{len(xa), len(xb)}, Verdict: NA,
		Reference: fmt.Sprintf("%.3f", ha), Candidate: fmt.Sprintf("%.3f", hb),
		Distance: math.NaN(), Statistic: math.NaN(), CloseBound: math.NaN(), FarBound: math.NaN(),
		Note: "R/S pox plot of arrivals per " + durationText(float64(unit))}
	if math.IsNaN(ha) || math.IsNaN(hb) {
		r.Note = "series too short for R/S"
		return r
	}
	m0, sa := HurstNull(xa, k, opt.Seed)
	_, sb := HurstNull(xb, k, opt.Seed+1)
	if math.IsNaN(sa) || math.IsNaN(sb) {
		r.Note = "series too short for R/S"
		return r
	}
	z := distuv.UnitNormal.Quantile(1 - Alpha/2)
	r.Distance, r.Statistic = (hb-ha)/ha, math.Abs(hb-ha)
	r.CloseBound = z * math.Sqrt(sa*sa+sb*sb)
	r.FarBound = math.Abs(ha - m0)
	r.Verdict = judge(r.Statistic, r.CloseBound, r.FarBound)
	return r
}
