// Package estimate implements the model of user runtime estimates of
// Tsafrir, Etsion and Feitelson ("Modeling User Runtime Estimates", JSSPP
// 2005, LNCS 3834): it gives synthetic jobs the requested times (SWF field
// 9) that users of real machines give, so that backfilling schedulers can be
// evaluated on generated workloads with realistic estimates.
//
// The paper's observations, which the model reproduces: estimates are
// modal, a few "round" values (5 minutes, 1 hour, 18 hours, the maximum
// allowed ...) cover most jobs; the maximum allowed estimate is the most
// popular one; and an estimate is never below the job's runtime. The model
// builds a histogram of estimate values for a given number of jobs and
// maximum estimate, then hands the values out to jobs so that each job
// receives an estimate at least its runtime, chosen at random among those
// that fit.
//
// The histogram:
//
//   - The number of distinct values K grows with the number of jobs,
//     piecewise linearly through the paper's points (20 jobs: 10 values,
//     200: 20, 1,000: 35, 10,000: 90, 70,000: 340, 250,000 and more: 565).
//   - The "head": the maximum and up to 19 other values, first the 15 that
//     are among the 20 most popular in all four logs the paper studies
//     (5, 10, 15, 20 and 30 minutes; 1, 2, 3, 4, 5, 6, 8, 10, 12 and 18
//     hours) then round multiples (of 200, 100, 50, 10, 5, 2 and 1 hours,
//     20, 10 and 5 minutes) counted down from the maximum. Together they
//     hold 89% of the jobs: popularity rank x = 2..20 holds
//     14.0491·e^(−0.177531·x) + 0.462513 percent, rank 1 the rest, and
//     which value gets which rank follows the paper's table of ranks
//     observed in SDSC-SP2, CTC-SP2, KTH-SP2 and SDSC-BLUE, with the
//     maximum always first.
//   - The "tail": the other K − 20 values at normalized time
//     y = (a − 1)·x / (a − x) of the maximum for normalized time rank x,
//     a = 1 + 12.1039·K^(−0.6026), rounded to minutes; popularity rank
//     r >= 21 holds a share proportional to 795.6·r^(−2.267) of the
//     remaining 11%, matched to the values at random.
//
// The constants are the ones published with the model (its parameter
// defaults).
package estimate

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

const (
	minute = 60
	hour   = 3600
	// head is the number of values in the head of the histogram: the 20
	// most popular (Tsafrir, Etsion & Feitelson 2005).
	head = 20
	// headShare is the percentage of jobs using a head value, 89% in the
	// logs studied (Tsafrir, Etsion & Feitelson 2005; published default).
	headShare = 89.0
)

// Head sizes: popularity rank x = 2..20 holds headA·e^(headB·x) + headC
// percent of the jobs (Tsafrir, Etsion & Feitelson 2005, the exponential fit
// of the popularity of the 20 most popular values; published defaults).
const (
	headA = 14.0491
	headB = -0.177531
	headC = 0.462513
)

// Tail sizes: popularity rank x >= 21 holds a share proportional to
// tailA·x^tailB (Tsafrir, Etsion & Feitelson 2005, the power-law fit of the
// popularity of the other values; published defaults).
const (
	tailA = 795.6
	tailB = -2.267
)

// Tail times: a = 1 + timeP·K^timeQ in y = (a − 1)x / (a − x) (Tsafrir,
// Etsion & Feitelson 2005, the fit of estimate values against their time
// rank; published defaults).
const (
	timeP = 12.1039
	timeQ = -0.6026
)

// valueCount are the points of the number of distinct estimate values
// against the number of jobs, joined linearly (Tsafrir, Etsion & Feitelson
// 2005, the linear model of the number of values; published defaults).
var valueCount = [][2]int{{0, 0}, {20, 10}, {200, 20}, {1000, 35}, {10000, 90}, {70000, 340}, {250000, 565}}

// joint are the 15 values among the 20 most popular in all four logs
// studied, in seconds (Tsafrir, Etsion & Feitelson 2005).
var joint = []int64{5 * minute, 15 * minute, 10 * minute, 20 * minute, 30 * minute,
	1 * hour, 2 * hour, 3 * hour, 4 * hour, 5 * hour, 6 * hour, 8 * hour, 10 * hour, 12 * hour, 18 * hour}

// roundSteps are the multiples that complete the head, tried in order.
var roundSteps = []int64{200 * hour, 100 * hour, 50 * hour, 10 * hour, 5 * hour, 2 * hour, 1 * hour, 20 * minute, 10 * minute, 5 * minute}

// rankTable gives, for time rank t of the head (0 is the maximum, then the
// other head values in increasing order), the popularity rank observed in
// SDSC-SP2, CTC-SP2, KTH-SP2 and SDSC-BLUE (Tsafrir, Etsion & Feitelson
// 2005, the popularity ranks of the head values in the four logs).
var rankTable = [head][4]int{
	{3, 1, 1, 1}, {1, 3, 4, 6}, {4, 4, 10, 5}, {17, 2, 14, 3}, {13, 12, 20, 7},
	{7, 9, 2, 2}, {8, 8, 3, 18}, {18, 18, 7, 19}, {2, 6, 12, 4}, {6, 7, 6, 11},
	{16, 11, 19, 20}, {10, 20, 5, 9}, {5, 16, 18, 10}, {15, 5, 16, 14}, {14, 14, 9, 13},
	{19, 13, 17, 16}, {11, 10, 15, 15}, {12, 15, 13, 17}, {9, 17, 8, 8}, {20, 19, 11, 12},
}

// ErrModel reports parameters the model cannot work with.
var ErrModel = errors.New("estimate model")

// Bin is one value of the histogram: Jobs jobs request Time seconds.
type Bin struct {
	Time int64
	Jobs int
}

// Values returns the number of distinct estimate values for n jobs.
func Values(n int) int {
	last := valueCount[len(valueCount)-1]
	if n >= last[0] {
		return last[1]
	}
	for k := 1; k < len(valueCount); k++ {
		if n <= valueCount[k][0] {
			a, b := valueCount[k-1], valueCount[k]
			return a[1] + int(math.Round(float64(n-a[0])*float64(b[1]-a[1])/float64(b[0]-a[0])))
		}
	}
	return last[1]
}

// headTimes returns the head values: maxEst first, then the others in
// increasing order.
func headTimes(maxEst int64) []int64 {
	v := []int64{maxEst}
	has := map[int64]bool{maxEst: true}
	for _, t := range joint {
		if t < maxEst && !has[t] {
			v = append(v, t)
			has[t] = true
		}
	}
	for _, step := range roundSteps {
		for t := maxEst / step * step; t > 0 && len(v) < head; t -= step {
			if !has[t] {
				v = append(v, t)
				has[t] = true
			}
		}
	}
	slices.Sort(v[1:])
	return v
}

// headShares returns the percentages of popularity ranks 1..n (n <= 20).
func headShares(n int) []float64 {
	s := make([]float64, n)
	sum := 0.0
	for x := 2; x <= n; x++ {
		s[x-1] = headA*math.Exp(headB*float64(x)) + headC
		sum += s[x-1]
	}
	s[0] = headShare - sum
	if n < head {
		// Fewer head values than the model's 20 (a small maximum): the
		// head keeps its 89%, spread in the same proportions.
		full := 0.0
		for x := 2; x <= head; x++ {
			full += headA*math.Exp(headB*float64(x)) + headC
		}
		s[0] = headShare - full
		tot := s[0] + sum
		for i := range s {
			s[i] *= headShare / tot
		}
	}
	return s
}

// headRanks maps the head's time ranks 0..n-1 to popularity ranks 1..n: the
// maximum is the most popular; each further time rank takes, at random
// (the smaller of two draws, favouring popular ranks), one of the ranks the
// four logs gave to it or to an earlier time rank, except that a rank that
// every log gave by this time rank is taken first.
func headRanks(n int, r *rand.Rand) []int {
	due := map[int]int{} // rank -> the time rank by which every log gave it
	for t := 0; t < head; t++ {
		for _, p := range rankTable[t] {
			due[p] = max(due[p], t)
		}
	}
	chosen := map[int]bool{}
	var pool []int
	ranks := make([]int, 0, head)
	for t := 0; t < head; t++ {
		for _, p := range rankTable[t] {
			if !chosen[p] && !slices.Contains(pool, p) {
				pool = append(pool, p)
			}
		}
		p := -1
		if t == 0 {
			p = 1
		}
		if p < 0 {
			for q := 1; q <= head; q++ {
				if due[q] <= t && !chosen[q] {
					p = q
					break
				}
			}
		}
		if p < 0 {
			for range 2 {
				if c := pool[r.IntN(len(pool))]; p < 0 || c < p {
					p = c
				}
			}
		}
		ranks = append(ranks, p)
		chosen[p] = true
		pool = slices.DeleteFunc(pool, func(q int) bool { return q == p })
	}
	if n == head {
		return ranks
	}
	// Fewer head values: keep the first n time ranks and renumber their
	// popularity ranks 1..n in the same order.
	kept := slices.Clone(ranks[:n])
	sorted := slices.Clone(kept)
	slices.Sort(sorted)
	for i, p := range kept {
		kept[i] = sort.SearchInts(sorted, p) + 1
	}
	return kept
}

// Histogram returns the model's histogram of estimates for n jobs whose
// maximum allowed estimate is maxEst seconds (at least one hour), in
// increasing order of time; the job counts sum to n.
func Histogram(n int, maxEst int64, r *rand.Rand) ([]Bin, error) {
	if n < 1 {
		return nil, fmt.Errorf("%w: %d jobs: need at least one", ErrModel, n)
	}
	if maxEst < hour {
		return nil, fmt.Errorf("%w: maximum estimate %d s: must be at least one hour", ErrModel, maxEst)
	}
	k := max(Values(n), 1)
	times := headTimes(maxEst)
	if len(times) > k {
		times = times[:k]
	}
	share := map[int64]float64{}
	hs := headShares(len(times))
	for t, p := range headRanks(len(times), r) {
		share[times[t]] = hs[p-1]
	}
	// The tail.
	if tail := k - len(times); tail > 0 {
		a := 1 + timeP*math.Pow(float64(k), timeQ)
		var tt []int64
		for i := 1; i <= tail; i++ {
			x := float64(i) / float64(tail)
			y := (a - 1) * x / (a - x)
			sec := int64(math.Round(y*float64(maxEst)/minute)) * minute
			for _, off := range []int64{0, 30, -30, 20, -20, 10, -10} {
				s := sec + off
				if _, taken := share[s]; !taken && s > 0 && s < maxEst && !slices.Contains(tt, s) {
					tt = append(tt, s)
					break
				}
			}
		}
		ts := make([]float64, len(tt))
		sum := 0.0
		for i := range ts {
			ts[i] = tailA * math.Pow(float64(head+1+i), tailB)
			sum += ts[i]
		}
		r.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
		for i, t := range tt {
			share[t] = ts[i] * (100 - headShare) / sum
		}
	}
	// Percentages to job counts by largest remainders, so that the counts
	// sum to n; a value left with no job is dropped.
	bins := make([]Bin, 0, len(share))
	total := 0.0
	for _, p := range share {
		total += p
	}
	frac := map[int64]float64{}
	sum := 0
	for t, p := range share {
		x := p / total * float64(n)
		j := int(math.Floor(x))
		bins = append(bins, Bin{Time: t, Jobs: j})
		frac[t] = x - float64(j)
		sum += j
	}
	slices.SortFunc(bins, func(a, b Bin) int {
		if frac[a.Time] != frac[b.Time] {
			if frac[a.Time] > frac[b.Time] {
				return -1
			}
			return 1
		}
		return cmpInt(a.Time, b.Time)
	})
	for i := 0; sum < n; i++ {
		bins[i%len(bins)].Jobs++
		sum++
	}
	bins = slices.DeleteFunc(bins, func(b Bin) bool { return b.Jobs == 0 })
	slices.SortFunc(bins, func(a, b Bin) int { return cmpInt(a.Time, b.Time) })
	return bins, nil
}

// Assign returns an estimate for each runtime (seconds): the values of
// hist, one per job, handed out so that every job gets a value at least its
// runtime, chosen uniformly among the values left that fit it, longest
// jobs first. A runtime above the largest value gets the largest value
// (the job would be killed at it); such jobs are counted in over.
func Assign(hist []Bin, runtimes []int64, r *rand.Rand) (est []int64, over int, err error) {
	var vals []int64
	for _, b := range hist {
		for range b.Jobs {
			vals = append(vals, b.Time)
		}
	}
	if len(vals) != len(runtimes) {
		return nil, 0, fmt.Errorf("%w: %d estimates for %d jobs", ErrModel, len(vals), len(runtimes))
	}
	slices.SortFunc(vals, func(a, b int64) int { return cmpInt(b, a) })
	order := make([]int, len(runtimes))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return runtimes[order[a]] > runtimes[order[b]] })
	est = make([]int64, len(runtimes))
	hi := 0
	for j, i := range order {
		run := runtimes[i]
		if run > vals[j] {
			// No value left fits: the model's histogram cannot hold this
			// job (more long jobs than long estimates). Give it the
			// largest value left.
			over++
		}
		hi = max(hi, j)
		for hi+1 < len(vals) && run <= vals[hi+1] {
			hi++
		}
		k := j + r.IntN(hi-j+1)
		if run > vals[j] {
			k = j
		}
		est[i] = vals[k]
		vals[k], vals[j] = vals[j], vals[k]
	}
	return est, over, nil
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Model gives runtimes (seconds) estimates drawn from the model: the
// histogram for len(runtimes) jobs and maximum maxEst (0: MaxEstimate of
// the longest runtime), then Assign. It returns the estimates, the number
// of jobs whose runtime exceeds their estimate (see Assign) and the
// maximum used.
func Model(runtimes []int64, maxEst int64, r *rand.Rand) (est []int64, over int, maxUsed int64, err error) {
	if maxEst == 0 {
		var longest int64
		for _, x := range runtimes {
			longest = max(longest, x)
		}
		maxEst = MaxEstimate(longest)
	}
	h, err := Histogram(len(runtimes), maxEst, r)
	if err != nil {
		return nil, 0, 0, err
	}
	est, over, err = Assign(h, runtimes, r)
	return est, over, maxEst, err
}

// MaxEstimate returns the default maximum estimate for jobs whose longest
// runtime is longest: that runtime rounded up to a whole hour, at least
// one hour.
func MaxEstimate(longest int64) int64 {
	return max(hour, (longest+hour-1)/hour*hour)
}
