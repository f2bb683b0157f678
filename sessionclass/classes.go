package sessionclass

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/hpcwl/hpcwl/kmeans"
	"github.com/hpcwl/hpcwl/pca"
	"github.com/hpcwl/hpcwl/trace"
)

// Class is one of Talby's five session classes (section 9.3.2).
type Class int

// The session classes, in the order of Talby's Table 21.
const (
	// IWD: interactive, workday, daytime.
	IWD Class = iota
	// IWN: interactive, workday, night.
	IWN
	// IW: interactive, weekend.
	IW
	// BHP: batch, highly parallel.
	BHP
	// BHD: batch, high duration.
	BHD
	NumClasses
)

var classNames = [NumClasses]string{"IWD", "IWN", "IW", "BHP", "BHD"}

// String returns the class's abbreviation (IWD, IWN, IW, BHP, BHD).
func (c Class) String() string {
	if c < 0 || c >= NumClasses {
		return "-"
	}
	return classNames[c]
}

// Matrix returns the rows of the chosen variables of ss (all 16 when vars
// is nil).
func Matrix(ss []Session, vars []int) [][]float64 {
	if vars == nil {
		vars = make([]int, NumVariables)
		for i := range vars {
			vars[i] = i
		}
	}
	x := make([][]float64, len(ss))
	for i := range ss {
		row := make([]float64, len(vars))
		for k, v := range vars {
			row[k] = ss[i].X[v]
		}
		x[i] = row
	}
	return x
}

// PCA is the principal component analysis of the 16 session variables on
// their correlation matrix (Talby (2006), Table 20).
func PCA(ss []Session) (*pca.Result, error) {
	return pca.Correlation(Matrix(ss, nil), Names[:])
}

// ClassifyOptions control [Classify].
type ClassifyOptions struct {
	// Seed, Restarts and MaxIter are those of kmeans.Options (20 restarts
	// and 300 iterations by default).
	Seed     uint64
	Restarts int
	MaxIter  int
	// Log clusters on log(1 + v) of the heavy-tailed, non-negative
	// clustering variables instead of v (Talby (2006) does not transform
	// them; our option).
	Log bool
	// Clip, when > 0, limits every z-score to [-Clip, Clip] before
	// k-means (winsorizing), so that a few observations many standard
	// deviations out cannot take a class for themselves (Talby (2006)
	// does not say how it kept them from doing so; our option).
	Clip float64
}

// ClipScores limits every value of z to [-c, c] in place when c > 0, the
// clipping of ClassifyOptions.Clip.
func ClipScores(z [][]float64, c float64) {
	if !(c > 0) {
		return
	}
	for _, row := range z {
		for k, v := range row {
			row[k] = max(-c, min(c, v))
		}
	}
}

// Transform returns log(1 + v) for v >= 0 and v otherwise, the transform
// of ClassifyOptions.Log.
func Transform(v float64) float64 {
	if v < 0 {
		return v
	}
	return math.Log1p(v)
}

// Stats summarizes one variable over the sessions of a class: Talby's
// Table 21 gives the mean, median and 90% interval (P95 - P5).
type Stats struct {
	Mean     float64 `json:"mean"`
	Median   float64 `json:"median"`
	Interval float64 `json:"interval"`
}

// ClassSummary describes one class.
type ClassSummary struct {
	Class string `json:"class"`
	// Sessions is the class's number of sessions, Share their fraction.
	Sessions int     `json:"sessions"`
	Share    float64 `json:"share"`
	// Centre is the k-means centre in the units of the variables (the
	// mean over the class's sessions of each clustering variable).
	Centre map[string]float64 `json:"centre"`
	// Variables summarizes every variable over the class (Table 21).
	Variables map[string]Stats `json:"variables"`
}

// Classes is the result of [Classify].
type Classes struct {
	// Classes are in the order IWD, IWN, IW, BHP, BHD.
	Classes []ClassSummary `json:"classes"`
	// WithinSS is the k-means within-cluster sum of squares (z-scores).
	WithinSS   float64 `json:"within_ss"`
	Iterations int     `json:"iterations"`
}

// ErrTooFew reports fewer sessions than classes.
var ErrTooFew = errors.New("sessionclass: fewer sessions than classes")

// Classify clusters ss into five classes by k-means on the z-scores of the
// seven clustering variables and names them by Talby's rules (section
// 9.3.2; our reading of them as rules on the centres): BHP has the largest
// processors median; of the rest, BHD the longest duration; of the rest, IW
// the smallest workday fraction; of the last two, IWN the smaller daytime
// fraction, IWD the other. It sets each session's Class.
func Classify(ss []Session, opt ClassifyOptions) (*Classes, error) {
	if len(ss) < int(NumClasses) {
		return nil, fmt.Errorf("%w: %d sessions", ErrTooFew, len(ss))
	}
	raw := Matrix(ss, ClusterVariables)
	z, _ := pca.Standardize(transform(raw, opt.Log, []int{D, Ti, Rm, Pm}, ClusterVariables))
	ClipScores(z, opt.Clip)
	res, err := kmeans.Cluster(z, kmeans.Options{K: int(NumClasses), Seed: opt.Seed, Restarts: opt.Restarts, MaxIter: opt.MaxIter})
	if err != nil {
		return nil, err
	}
	// Centres in the variables' units.
	centre := make([][]float64, NumClasses)
	for c := range centre {
		centre[c] = make([]float64, len(ClusterVariables))
	}
	for i, row := range raw {
		c := res.Assign[i]
		for k, v := range row {
			centre[c][k] += v / float64(res.Sizes[c])
		}
	}
	col := func(v int) int { return slices.Index(ClusterVariables, v) }
	name := nameClusters(centre, []rule{
		{BHP, col(Pm), true},
		{BHD, col(D), true},
		{IW, col(Work), false},
		{IWN, col(Day), false},
		{IWD, col(Day), true},
	})
	for i := range ss {
		ss[i].Class = name[res.Assign[i]]
	}
	out := &Classes{WithinSS: res.WithinSS, Iterations: res.Iterations}
	for c := range NumClasses {
		k := slices.Index(name, c)
		cs := ClassSummary{Class: c.String(), Sessions: res.Sizes[k], Share: float64(res.Sizes[k]) / float64(len(ss)),
			Centre: map[string]float64{}, Variables: summarize(ss, c)}
		for j, v := range ClusterVariables {
			cs.Centre[Names[v]] = centre[k][j]
		}
		out.Classes = append(out.Classes, cs)
	}
	return out, nil
}

// transform returns x, or a copy with Transform applied to the columns of
// the variables heavy (cols names the variable of each column).
func transform(x [][]float64, on bool, heavy, cols []int) [][]float64 {
	if !on {
		return x
	}
	out := make([][]float64, len(x))
	for i, row := range x {
		r := append([]float64(nil), row...)
		for k, v := range cols {
			if slices.Contains(heavy, v) {
				r[k] = Transform(r[k])
			}
		}
		out[i] = r
	}
	return out
}

// rule names the cluster with the largest (or smallest) centre in one
// column among those not yet named.
type rule struct {
	class   Class
	col     int
	largest bool
}

// nameClusters maps each cluster to a class by applying the rules in
// order. Ties go to the lower cluster index.
func nameClusters(centre [][]float64, rules []rule) []Class {
	name := make([]Class, len(centre))
	for i := range name {
		name[i] = -1
	}
	for _, r := range rules {
		best := -1
		for c := range centre {
			if name[c] >= 0 {
				continue
			}
			if best < 0 || (r.largest && centre[c][r.col] > centre[best][r.col]) ||
				(!r.largest && centre[c][r.col] < centre[best][r.col]) {
				best = c
			}
		}
		name[best] = r.class
	}
	return name
}

// summarize returns the mean, median and interval of every variable over
// the sessions of class c.
func summarize(ss []Session, c Class) map[string]Stats {
	out := map[string]Stats{}
	v := make([]float64, 0, len(ss))
	for k := range NumVariables {
		v = v[:0]
		for i := range ss {
			if ss[i].Class == c {
				v = append(v, ss[i].X[k])
			}
		}
		out[Names[k]] = summary(v)
	}
	return out
}

func summary(v []float64) Stats {
	if len(v) == 0 {
		return Stats{}
	}
	m := stat.Mean(v, nil)
	med, iv := medianInterval(v)
	return Stats{Mean: m, Median: med, Interval: iv}
}

// OnlineOptions are the thresholds of [Online].
type OnlineOptions struct {
	// LongRuntime is the requested time, s, above which a session is BHD;
	// Talby's example is half the machine's maximum requested time.
	LongRuntime int64
	// WideProcs is the processor count above which a session is BHP: half
	// the machine.
	WideProcs int
}

// DefaultOnline returns Talby's example thresholds for t: half the largest
// requested time of the log (the header's MaxRuntime when given) and half
// the machine.
func DefaultOnline(t *trace.Trace) (OnlineOptions, error) {
	procs, err := t.MachineSize()
	if err != nil {
		return OnlineOptions{}, err
	}
	maxReq, ok := t.Header.MaxRuntime()
	if !ok || maxReq <= 0 {
		maxReq = 0
		for i := range t.Jobs {
			maxReq = max(maxReq, t.Jobs[i].ReqTime)
		}
	}
	return OnlineOptions{LongRuntime: maxReq / 2, WideProcs: procs / 2}, nil
}

// Online classifies a session from its first job alone, as a scheduler
// could when the job arrives (Talby (2006), section 9.6): a requested time
// above LongRuntime makes it BHD; else more processors than WideProcs
// (requested, else allocated) BHP; else a weekend arrival IW, a workday
// arrival in daytime IWD, and any other IWN. A job without a requested time
// is judged by its other attributes. c is the log's clock (trace.Clock).
func Online(c *trace.Clock, first *trace.Job, opt OnlineOptions) Class {
	if opt.LongRuntime > 0 && first.ReqTime > opt.LongRuntime {
		return BHD
	}
	p := int(first.ReqProcs)
	if p <= 0 {
		p = first.Processors()
	}
	if opt.WideProcs > 0 && p > opt.WideProcs {
		return BHP
	}
	switch {
	case !isWorkday(c, first.Submit):
		return IW
	case isDaytime(c, first.Submit):
		return IWD
	}
	return IWN
}

// OnlineClasses returns the online class of every session of ss (all from
// t), from each session's first job.
func OnlineClasses(t *trace.Trace, ss []Session, opt OnlineOptions) []Class {
	c := t.Clock()
	out := make([]Class, len(ss))
	for i := range ss {
		out[i] = Online(c, &t.Jobs[ss[i].Jobs[0]], opt)
	}
	return out
}

// Agreement is the comparison of online classes with the k-means classes.
type Agreement struct {
	// Counts[k][o] counts sessions of k-means class k classified online
	// as o.
	Counts [NumClasses][NumClasses]int `json:"counts"`
	// Fraction is the fraction of sessions whose classes agree.
	Fraction float64 `json:"fraction"`
}

// Agree compares the online classes (indexed like ss) with the sessions'
// k-means classes; sessions not classified are skipped.
func Agree(ss []Session, online []Class) Agreement {
	var a Agreement
	n, same := 0, 0
	for i := range ss {
		k, o := ss[i].Class, online[i]
		if k < 0 || o < 0 {
			continue
		}
		a.Counts[k][o]++
		n++
		if k == o {
			same++
		}
	}
	if n > 0 {
		a.Fraction = float64(same) / float64(n)
	}
	return a
}
