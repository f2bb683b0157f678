// Package similarity measures how alike a user's jobs are as a function of
// the number of sessions between them, the analysis with which Zakay and
// Feitelson choose the user, not the job or the session, as the unit of
// resampling (N. Zakay, Improved Realism and Representativeness of
// Workloads to Improve Reliability of Performance Evaluations, PhD thesis,
// Hebrew University, chapter 3, section 3): the similarity of two jobs in
// an attribute is min/max of their values; pairs of jobs of one user are
// grouped by their session distance (0 for the same session, 1 for
// consecutive sessions, ...). [Analyze] gives the average, median and
// fraction of identical pairs per distance (Fig. 1) and the fraction of
// users more similar at the shorter distance (Tables II-IV); [Randomize]
// shuffles each user's jobs among his sessions to show that the
// same-session similarity is not chance (section 3, Fig. 2).
package similarity

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/trace"
)

// Attribute is a job attribute compared.
type Attribute int

// The attributes of Zakay's Tables II-IV.
const (
	// Procs is the number of processors (allocated, else requested).
	Procs Attribute = iota
	// Estimate is the user's runtime estimate (SWF field 9), the
	// "maximum running time".
	Estimate
	// Runtime is the running time (field 4).
	Runtime
	NumAttributes
)

var attributeNames = [NumAttributes]string{"procs", "estimate", "runtime"}

// String returns procs, estimate or runtime.
func (a Attribute) String() string {
	if a < 0 || a >= NumAttributes {
		return fmt.Sprintf("Attribute(%d)", int(a))
	}
	return attributeNames[a]
}

// value returns the job's attribute, or -1 when unknown.
func value(j *trace.Job, a Attribute) float64 {
	switch a {
	case Procs:
		return float64(j.Processors())
	case Estimate:
		return float64(max(j.ReqTime, -1))
	}
	return float64(max(j.Runtime, -1))
}

// Similar returns the similarity of two values, min/max in [0, 1]: 1 when
// both are 0, 0 when one is. Values below 0 (unknown) must be skipped by
// the caller.
func Similar(a, b float64) float64 {
	lo, hi := min(a, b), max(a, b)
	if hi == 0 {
		return 1
	}
	return lo / hi
}

// Options control [Analyze] and [Randomize].
type Options struct {
	// Sessions identifies the sessions; the zero value means Zakay's
	// Arrival method with a 60-minute threshold.
	Sessions *session.Options
	// MaxDistance is the largest session distance measured; 0 means 10.
	MaxDistance int
}

func (o Options) partition(t *trace.Trace) (*session.Partition, error) {
	so := session.Default(session.Arrival)
	if o.Sessions != nil {
		so = *o.Sessions
	}
	return session.IdentifySessions(t, so)
}

// Distance summarizes the pairs of jobs at one session distance.
type Distance struct {
	Distance int `json:"distance"`
	// Pairs counts the pairs compared per attribute (pairs with an
	// unknown value are skipped).
	Pairs [NumAttributes]int64 `json:"pairs"`
	// Mean, Median and Identical are the average similarity, its median
	// (to within 1e-4: from a histogram of 10,000 bins) and the fraction
	// of pairs with equal values, per attribute.
	Mean      [NumAttributes]float64 `json:"mean"`
	Median    [NumAttributes]float64 `json:"median"`
	Identical [NumAttributes]float64 `json:"identical"`
}

// Dominance is one cell group of Zakay's Tables II-IV: over the users with
// pairs at both distances, the fractions whose average similarity is
// larger at the shorter distance, equal, or larger at the longer one.
type Dominance struct {
	Attribute string  `json:"attribute"`
	Near      int     `json:"near"`
	Far       int     `json:"far"`
	Users     int     `json:"users"`
	Shorter   float64 `json:"shorter_larger"`
	Equal     float64 `json:"equal"`
	Longer    float64 `json:"longer_larger"`
}

// Report is the similarity analysis of one log.
type Report struct {
	Sessions  string      `json:"sessions"`
	Users     int         `json:"users"`
	Distances []Distance  `json:"distances"`
	Dominance []Dominance `json:"dominance"`
}

const medianBins = 10000

// ErrOption reports a bad option.
var ErrOption = errors.New("similarity: bad option")

// userJobs returns, for each user with an ID, the attribute values of his
// jobs in session order and the start of each session in them.
type userJobs struct {
	vals   [NumAttributes][]float64
	starts []int // starts[s] is the index of session s's first job; len = sessions + 1
}

func collect(t *trace.Trace, p *session.Partition) []userJobs {
	var out []userJobs
	for _, u := range p.Users {
		if u.ID < 0 {
			continue
		}
		var uj userJobs
		for s := u.SessionLo; s < u.SessionHi; s++ {
			uj.starts = append(uj.starts, len(uj.vals[0]))
			for _, ix := range p.Jobs(int(s)) {
				for a := range NumAttributes {
					uj.vals[a] = append(uj.vals[a], value(&t.Jobs[ix], a))
				}
			}
		}
		uj.starts = append(uj.starts, len(uj.vals[0]))
		out = append(out, uj)
	}
	return out
}

// acc accumulates the similarities of pairs.
type acc struct {
	n, same int64
	sum     float64
	hist    []int64
}

func (c *acc) add(r float64) {
	c.n++
	c.sum += r
	if r == 1 {
		c.same++
	}
	if c.hist != nil {
		c.hist[min(int(r*medianBins), medianBins-1)]++
	}
}

func (c *acc) median() float64 {
	if c.n == 0 {
		return math.NaN()
	}
	half, run := (c.n+1)/2, int64(0)
	for b, k := range c.hist {
		run += k
		if run >= half {
			return (float64(b) + 0.5) / medianBins
		}
	}
	return 1
}

// pairs adds to c the similarities of attribute a between the jobs of
// sessions s and s+d of user u (distinct jobs of s when d = 0).
func (u *userJobs) pairs(a Attribute, s, d int, c *acc) {
	v := u.vals[a]
	x := v[u.starts[s]:u.starts[s+1]]
	y := v[u.starts[s+d]:u.starts[s+d+1]]
	for i, p := range x {
		if p < 0 {
			continue
		}
		lo := 0
		if d == 0 {
			lo = i + 1
		}
		for _, q := range y[lo:] {
			if q >= 0 {
				c.add(Similar(p, q))
			}
		}
	}
}

// Analyze measures the similarity of t's jobs by session distance.
func Analyze(t *trace.Trace, opt Options) (*Report, error) {
	if opt.MaxDistance == 0 {
		opt.MaxDistance = 10
	}
	if opt.MaxDistance < 2 {
		return nil, fmt.Errorf("%w: the largest distance must be at least 2, got %d", ErrOption, opt.MaxDistance)
	}
	p, err := opt.partition(t)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrOption, err)
	}
	users := collect(t, p)
	r := &Report{Sessions: p.Options.String(), Users: len(users)}
	all := make([][NumAttributes]acc, opt.MaxDistance+1)
	for d := range all {
		for a := range NumAttributes {
			all[d][a].hist = make([]int64, medianBins)
		}
	}
	// per-user means at distances 0, 1, 2 for the dominance tables
	type near struct {
		n   [3]int64
		sum [3]float64
	}
	var dom [NumAttributes][]near
	for a := range NumAttributes {
		dom[a] = make([]near, len(users))
	}
	for ui := range users {
		u := &users[ui]
		ns := len(u.starts) - 1
		for d := 0; d <= opt.MaxDistance && d < ns; d++ {
			for a := range NumAttributes {
				// The user's pairs fill the log's histogram directly.
				lc := &all[d][a]
				c := acc{hist: lc.hist}
				for s := 0; s+d < ns; s++ {
					u.pairs(a, s, d, &c)
				}
				lc.n, lc.sum, lc.same = lc.n+c.n, lc.sum+c.sum, lc.same+c.same
				if d <= 2 {
					dom[a][ui].n[d], dom[a][ui].sum[d] = c.n, c.sum
				}
			}
		}
	}
	for d := range all {
		ds := Distance{Distance: d}
		for a := range NumAttributes {
			c := &all[d][a]
			ds.Pairs[a] = c.n
			ds.Mean[a], ds.Median[a], ds.Identical[a] = math.NaN(), math.NaN(), math.NaN()
			if c.n > 0 {
				ds.Mean[a] = c.sum / float64(c.n)
				ds.Median[a] = c.median()
				ds.Identical[a] = float64(c.same) / float64(c.n)
			}
		}
		r.Distances = append(r.Distances, ds)
	}
	for a := range NumAttributes {
		for _, cmp := range [][2]int{{0, 1}, {1, 2}} {
			dm := Dominance{Attribute: a.String(), Near: cmp[0], Far: cmp[1]}
			var sh, eq, lo int
			for _, u := range dom[a] {
				if u.n[cmp[0]] == 0 || u.n[cmp[1]] == 0 {
					continue
				}
				x, y := u.sum[cmp[0]]/float64(u.n[cmp[0]]), u.sum[cmp[1]]/float64(u.n[cmp[1]])
				switch {
				case x > y:
					sh++
				case x == y:
					eq++
				default:
					lo++
				}
			}
			dm.Users = sh + eq + lo
			if dm.Users > 0 {
				n := float64(dm.Users)
				dm.Shorter, dm.Equal, dm.Longer = float64(sh)/n, float64(eq)/n, float64(lo)/n
			}
			r.Dominance = append(r.Dominance, dm)
		}
	}
	return r, nil
}

// Randomization compares the same-session similarity of a log with its
// values when each user's jobs are shuffled among his sessions (keeping the
// number of sessions and their sizes).
type Randomization struct {
	Shuffles int `json:"shuffles"`
	// Original is the average same-session similarity per attribute.
	Original [NumAttributes]float64 `json:"original"`
	// Shuffled holds it for each shuffle, per attribute.
	Shuffled [NumAttributes][]float64 `json:"shuffled"`
	// Above counts the shuffles whose value is at least the original.
	Above [NumAttributes]int `json:"at_least_original"`
}

// Randomize runs the randomization check with shuffles shuffles, each from
// the seeded generator PCG(seed, shuffle index), so the result does not
// depend on how many run in parallel (workers; 0 means GOMAXPROCS).
//
// A shuffle costs time linear in the jobs: each user's values are sorted
// once, a shuffle only says which session each value lands in, and the
// sum over the pairs of a session of min/max is, for its values in
// increasing order, the sum over each value v of (the sum of the smaller
// values) / v (pairs of zeros count 1, as in [Similar]), accumulated per
// session while the user's values are visited in order. Comparing every
// pair instead costs the sum of the squared session sizes, which the
// large sessions of some logs make thousands of times longer.
func Randomize(t *trace.Trace, opt Options, shuffles int, seed uint64, workers int) (*Randomization, error) {
	if shuffles < 1 {
		return nil, fmt.Errorf("%w: shuffles must be at least 1, got %d", ErrOption, shuffles)
	}
	p, err := opt.partition(t)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrOption, err)
	}
	all := collect(t, p)
	r := &Randomization{Shuffles: shuffles, Original: sameSession(all)}
	// Users of one session are the same in every shuffle: their pairs are
	// counted once.
	var users []userJobs
	var fixedN [NumAttributes]int64
	var fixedSum [NumAttributes]float64
	var ss sessionSums
	for ui := range all {
		u := &all[ui]
		if len(u.starts) > 2 {
			users = append(users, *u)
			continue
		}
		for a := range NumAttributes {
			ss.reset(1)
			for _, j := range sortedKnown(u.vals[a]) {
				ss.add(0, u.vals[a][j])
			}
			fixedN[a] += ss.n
			fixedSum[a] += ss.sum
		}
	}
	// Each user's known values in increasing order, with their jobs.
	type ordered struct {
		job []int32
		val []float64
		inv []float64 // 1/val, 0 for 0
	}
	sorted := make([][NumAttributes]ordered, len(users))
	labels := make([][]int32, len(users)) // session of each job position
	for ui := range users {
		u := &users[ui]
		for a := range NumAttributes {
			o := &sorted[ui][a]
			o.job = sortedKnown(u.vals[a])
			for _, j := range o.job {
				v := u.vals[a][j]
				o.val = append(o.val, v)
				o.inv = append(o.inv, reciprocal(v))
			}
		}
		for s := 0; s+1 < len(u.starts); s++ {
			for range u.starts[s+1] - u.starts[s] {
				labels[ui] = append(labels[ui], int32(s))
			}
		}
	}
	for a := range NumAttributes {
		r.Shuffled[a] = make([]float64, shuffles)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, shuffles) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var sessOf []int32
			var ss sessionSums
			for k := range next {
				rng := rand.New(rand.NewPCG(seed, uint64(k)))
				n, sum := fixedN, fixedSum
				for ui := range users {
					u := &users[ui]
					// A uniformly random assignment of the user's jobs to
					// his sessions, keeping their sizes: job j goes to
					// session sessOf[j].
					sessOf = append(sessOf[:0], labels[ui]...)
					rng.Shuffle(len(sessOf), func(i, j int) { sessOf[i], sessOf[j] = sessOf[j], sessOf[i] })
					for a := range NumAttributes {
						ss.reset(len(u.starts) - 1)
						o := &sorted[ui][a]
						for k, j := range o.job {
							ss.addInv(int(sessOf[j]), o.val[k], o.inv[k])
						}
						n[a] += ss.n
						sum[a] += ss.sum
					}
				}
				for a := range NumAttributes {
					r.Shuffled[a][k] = sum[a] / float64(n[a])
				}
			}
		}()
	}
	for k := range shuffles {
		next <- k
	}
	close(next)
	wg.Wait()
	for a := range NumAttributes {
		for _, v := range r.Shuffled[a] {
			if v >= r.Original[a] {
				r.Above[a]++
			}
		}
	}
	return r, nil
}

// sortedKnown returns the indexes of the known values (>= 0) of v in
// increasing order of value (ties by index).
func sortedKnown(v []float64) []int32 {
	var out []int32
	for i, x := range v {
		if x >= 0 {
			out = append(out, int32(i))
		}
	}
	slices.SortStableFunc(out, func(i, j int32) int { return cmp.Compare(v[i], v[j]) })
	return out
}

// sessionSums accumulates the same-session pairs of one user's values,
// added in increasing order, each to its session.
type sessionSums struct {
	smaller []float64 // per session: the sum of the values added so far
	count   []int64   // per session: how many were added
	n       int64     // pairs
	sum     float64   // their similarities
}

func (c *sessionSums) reset(sessions int) {
	c.smaller = slices.Grow(c.smaller[:0], sessions)[:sessions]
	c.count = slices.Grow(c.count[:0], sessions)[:sessions]
	clear(c.smaller)
	clear(c.count)
	c.n, c.sum = 0, 0
}

// add pairs v, no smaller than any value added before, with the values of
// session s so far: v > 0 has similarity x/v with each of them (0 with a
// zero), and a zero, which can only follow zeros, has similarity 1 with
// each.
func (c *sessionSums) add(s int, v float64) { c.addInv(s, v, reciprocal(v)) }

// addInv is add with inv = reciprocal(v) computed beforehand: the shuffles
// add the same values many times, and a product is cheaper than a
// quotient.
func (c *sessionSums) addInv(s int, v, inv float64) {
	k := c.count[s]
	c.n += k
	if v > 0 {
		c.sum += c.smaller[s] * inv
	} else {
		c.sum += float64(k)
	}
	c.smaller[s] += v
	c.count[s]++
}

// reciprocal returns 1/v, or 0 for v = 0.
func reciprocal(v float64) float64 {
	if v > 0 {
		return 1 / v
	}
	return 0
}

// sameSession returns the average similarity of pairs of distinct jobs in
// one session, per attribute.
func sameSession(us []userJobs) [NumAttributes]float64 {
	var out [NumAttributes]float64
	for a := range NumAttributes {
		var c acc
		for ui := range us {
			for s := 0; s+1 < len(us[ui].starts); s++ {
				us[ui].pairs(a, s, 0, &c)
			}
		}
		out[a] = c.sum / float64(c.n)
	}
	return out
}
