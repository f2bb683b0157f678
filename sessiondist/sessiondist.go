// Package sessiondist holds the distributions Zakay and Feitelson use to
// choose how sessions are identified (N. Zakay, Improved Realism and
// Representativeness of Workloads to Improve Reliability of Performance
// Evaluations, PhD thesis, Hebrew University, chapter 2, sections 3-5):
// the per-user inter-arrival times that set the Arrival threshold (Figs.
// 2-4; [InterArrivals]), the lengths of the sessions each method gives, as
// histograms and survival functions (Figs. 6-12; [Lengths]), and the
// comparison of the Last and Max think-time definitions on the batches
// both find (section 4, Fig. 5; [CompareLastMax]).
package sessiondist

import (
	"fmt"
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/stats"
	"github.com/hpcwl/hpcwl/trace"
)

// Bin is one bin of a histogram: [Lo, Hi) seconds.
type Bin struct {
	Lo    int64 `json:"lo_s"`
	Hi    int64 `json:"hi_s"`
	Count int   `json:"count"`
}

// Histogram counts values in bins of Width seconds from 0 to Max; values
// at or above Max are counted in Over.
type Histogram struct {
	Width int64 `json:"width_s"`
	Bins  []Bin `json:"bins"`
	Over  int   `json:"over"`
	N     int   `json:"n"`
}

func histogram(v []int64, width, maxV int64) Histogram {
	h := Histogram{Width: width, N: len(v)}
	for lo := int64(0); lo < maxV; lo += width {
		h.Bins = append(h.Bins, Bin{Lo: lo, Hi: min(lo+width, maxV)})
	}
	for _, x := range v {
		switch {
		case x >= maxV:
			h.Over++
		case x >= 0:
			h.Bins[x/width].Count++
		}
	}
	return h
}

// Point is one point of a distribution function.
type Point struct {
	X float64 `json:"x_s"`
	P float64 `json:"p"`
}

// survival returns P(X > x) at log-spaced x from 1 s to the largest value
// (10 points per decade).
func survival(sorted []int64) []Point {
	if len(sorted) == 0 {
		return nil
	}
	n := float64(len(sorted))
	var out []Point
	top := float64(sorted[len(sorted)-1])
	for e := 0.0; ; e += 0.1 {
		x := math.Round(math.Pow(10, e))
		if len(out) > 0 && out[len(out)-1].X == x {
			continue
		}
		k, _ := slices.BinarySearch(sorted, int64(x)+1) // first value > x
		out = append(out, Point{X: x, P: float64(len(sorted)-k) / n})
		if x >= top {
			break
		}
	}
	return out
}

// cdf returns P(X <= x) at every distinct value.
func cdf(sorted []int64) []Point {
	var out []Point
	n := float64(len(sorted))
	for i := 0; i < len(sorted); {
		j := i
		for j < len(sorted) && sorted[j] == sorted[i] {
			j++
		}
		out = append(out, Point{X: float64(sorted[i]), P: float64(j) / n})
		i = j
	}
	return out
}

// InterArrival is the distribution of the times between successive jobs
// of each user, the data of Zakay's Figs. 2-4.
type InterArrival struct {
	// Max is the largest time kept, s (the thesis ignores those above a
	// day).
	Max int64 `json:"max_s"`
	// Ignored counts the inter-arrival times above Max.
	Ignored int `json:"ignored"`
	// Histogram has one-minute bins.
	Histogram Histogram `json:"histogram"`
	// CDF is the empirical distribution function of the kept times.
	CDF []Point `json:"cdf"`
}

// InterArrivals returns the per-user inter-arrival times of t up to maxT
// seconds (0 means one day).
func InterArrivals(t *trace.Trace, maxT int64) (*InterArrival, error) {
	if maxT == 0 {
		maxT = 86400
	}
	if maxT < 60 {
		return nil, fmt.Errorf("sessiondist: largest inter-arrival time %d s is under a minute", maxT)
	}
	byUser := map[int32][]int64{}
	for i := range t.Jobs {
		j := &t.Jobs[i]
		if j.User >= 0 && j.Submit >= 0 {
			byUser[j.User] = append(byUser[j.User], j.Submit)
		}
	}
	var v []int64
	ignored := 0
	for _, s := range byUser {
		slices.Sort(s)
		for k := 1; k < len(s); k++ {
			if d := s[k] - s[k-1]; d <= maxT {
				v = append(v, d)
			} else {
				ignored++
			}
		}
	}
	slices.Sort(v)
	return &InterArrival{Max: maxT, Ignored: ignored, Histogram: histogram(v, 60, maxT+1), CDF: cdf(v)}, nil
}

// Length is the distribution of the session lengths one method gives.
type Length struct {
	// Sessions is the method, as session.Options.String prints it.
	Sessions string `json:"sessions"`
	// Count is the number of sessions, Zero those of length 0.
	Count int `json:"count"`
	Zero  int `json:"zero"`
	// Over1000Min is the fraction of sessions longer than 1000 minutes
	// (Zakay: 13.5% with Last in SDSC-BLUE), Max the longest, s.
	Over1000Min float64 `json:"over_1000_min"`
	Max         int64   `json:"max_s"`
	// Histogram has one-minute bins up to one day.
	Histogram Histogram `json:"histogram"`
	// Survival is P(length > x) at log-spaced x.
	Survival []Point `json:"survival"`
}

// Lengths identifies t's sessions by each of specs and returns the
// distributions of their lengths (session.Session.Length: last submit
// minus first for Arrival, last end minus first submit for Last and Max,
// the cut end for the Cut variants).
func Lengths(t *trace.Trace, specs []session.Options) ([]Length, error) {
	var out []Length
	for _, o := range specs {
		p, err := session.IdentifySessions(t, o)
		if err != nil {
			return nil, err
		}
		v := make([]int64, 0, len(p.Sessions))
		for _, s := range p.Sessions {
			v = append(v, s.Length)
		}
		slices.Sort(v)
		l := Length{Sessions: o.String(), Count: len(v), Histogram: histogram(v, 60, 86400), Survival: survival(v)}
		for _, x := range v {
			if x == 0 {
				l.Zero++
			}
			if x > 1000*60 {
				l.Over1000Min++
			}
		}
		if len(v) > 0 {
			l.Over1000Min /= float64(len(v))
			l.Max = v[len(v)-1]
		}
		out = append(out, l)
	}
	return out, nil
}

// LastMax is the comparison of the think times of the Last and Max
// definitions (Zakay's thesis, chapter 2, section 4): the think times that
// follow batches both definitions find alike ("common"), each measured by
// its own definition, and the remaining ("unique") ones of each.
type LastMax struct {
	Threshold int64 `json:"threshold_s"`
	// Batches counts the batches of each definition and those common to
	// both.
	BatchesLast   int `json:"batches_last"`
	BatchesMax    int `json:"batches_max"`
	CommonBatches int `json:"common_batches"`
	// The four samples of think times, s, sorted.
	CommonLast []int64 `json:"-"`
	CommonMax  []int64 `json:"-"`
	UniqueLast []int64 `json:"-"`
	UniqueMax  []int64 `json:"-"`
	// Sizes of the samples.
	N [4]int `json:"n"`
	// KS distances (largest CDF gaps) of each unique sample from the
	// common think times (both common samples pooled), and between the
	// two common samples. Zakay prefers the definition whose unique think
	// times are closer to the common ones.
	KSUniqueLast float64 `json:"ks_unique_last_vs_common"`
	KSUniqueMax  float64 `json:"ks_unique_max_vs_common"`
	KSCommon     float64 `json:"ks_common_last_vs_max"`
}

// after is the think time that follows the batch [lo, hi) of Order.
type after struct {
	lo, hi int32
	tt     int64
}

// thinkAfter returns, for each batch with a next batch of the same user,
// the batch's range in Order and the think time before the next batch, in
// the order of Order.
func thinkAfter(p *session.Partition) []after {
	var out []after
	m := p.Options.Method
	for _, u := range p.Users {
		if u.ID < 0 || u.SessionHi == u.SessionLo {
			continue
		}
		lo := p.Sessions[u.SessionLo].BatchLo
		hi := p.Sessions[u.SessionHi-1].BatchHi
		userMax := int64(math.MinInt64)
		for b := lo; b < hi; b++ {
			bt := &p.Batches[b]
			for k := bt.Lo; k < bt.Hi; k++ {
				userMax = max(userMax, p.End[p.Order[k]])
			}
			if b+1 == hi {
				break
			}
			next := p.Batches[b+1].First
			ref := p.End[p.Order[bt.Hi-1]] // Last: the end of the batch's last job
			if m == session.Max {
				ref = userMax
			}
			out = append(out, after{bt.Lo, bt.Hi, next - ref})
		}
	}
	return out
}

// CompareLastMax compares the Last and Max think times at threshold (s; 0
// means 20 minutes, the thesis').
func CompareLastMax(t *trace.Trace, threshold int64) (*LastMax, error) {
	if threshold == 0 {
		threshold = 1200
	}
	pl, err := session.Identify(t, session.Options{Method: session.Last, Threshold: threshold})
	if err != nil {
		return nil, err
	}
	pm, err := session.Identify(t, session.Options{Method: session.Max, Threshold: threshold})
	if err != nil {
		return nil, err
	}
	if !slices.Equal(pl.Order, pm.Order) {
		return nil, fmt.Errorf("sessiondist: the two partitions order the jobs differently")
	}
	tl, tm := thinkAfter(pl), thinkAfter(pm)
	r := &LastMax{Threshold: threshold, BatchesLast: len(pl.Batches), BatchesMax: len(pm.Batches)}
	for _, b := range pl.Batches {
		if _, ok := batchIn(pm, b.Lo, b.Hi); ok {
			r.CommonBatches++
		}
	}
	// Both lists are in the order of Order; walk them together.
	i, k := 0, 0
	for i < len(tl) || k < len(tm) {
		switch {
		case k == len(tm) || (i < len(tl) && tl[i].lo < tm[k].lo):
			r.UniqueLast = append(r.UniqueLast, tl[i].tt)
			i++
		case i == len(tl) || tm[k].lo < tl[i].lo:
			r.UniqueMax = append(r.UniqueMax, tm[k].tt)
			k++
		case tl[i].hi == tm[k].hi:
			r.CommonLast = append(r.CommonLast, tl[i].tt)
			r.CommonMax = append(r.CommonMax, tm[k].tt)
			i++
			k++
		default:
			r.UniqueLast = append(r.UniqueLast, tl[i].tt)
			r.UniqueMax = append(r.UniqueMax, tm[k].tt)
			i++
			k++
		}
	}
	for _, s := range [][]int64{r.CommonLast, r.CommonMax, r.UniqueLast, r.UniqueMax} {
		slices.Sort(s)
	}
	r.N = [4]int{len(r.CommonLast), len(r.CommonMax), len(r.UniqueLast), len(r.UniqueMax)}
	f := func(v []int64) []float64 {
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = float64(x)
		}
		return out
	}
	common := append(f(r.CommonLast), f(r.CommonMax)...)
	if len(common) > 0 && len(r.UniqueLast) > 0 {
		r.KSUniqueLast = stats.KSTwoSample(f(r.UniqueLast), common).D
	}
	if len(common) > 0 && len(r.UniqueMax) > 0 {
		r.KSUniqueMax = stats.KSTwoSample(f(r.UniqueMax), common).D
	}
	if len(r.CommonLast) > 0 {
		r.KSCommon = stats.KSTwoSample(f(r.CommonLast), f(r.CommonMax)).D
	}
	return r, nil
}

// batchIn reports whether p has a batch spanning exactly [lo, hi) of Order.
func batchIn(p *session.Partition, lo, hi int32) (int, bool) {
	i, ok := slices.BinarySearchFunc(p.Batches, lo, func(b session.Batch, lo int32) int {
		return int(b.Lo) - int(lo)
	})
	return i, ok && p.Batches[i].Hi == hi
}

// CDFs returns the empirical distribution functions of the four samples,
// in the order common Last, common Max, unique Last, unique Max.
func (r *LastMax) CDFs() [4][]Point {
	return [4][]Point{cdf(r.CommonLast), cdf(r.CommonMax), cdf(r.UniqueLast), cdf(r.UniqueMax)}
}
