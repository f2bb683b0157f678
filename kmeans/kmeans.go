// Package kmeans clusters observations by k-means (Lloyd's iterations from
// k-means++ seeds, the best of several seeded restarts), as Talby uses it
// to find the classes of sessions and users (D. Talby, User Modeling of
// Parallel Workloads, PhD thesis, Hebrew University, 2006, sections 9.3 and
// 9.5, after Giudici 2003).
//
// It is written here because gonum, the numerical library hpcwl uses, has no
// k-means, and no maintained Go module for it is among those the project
// can depend on; the algorithm is short and every random choice comes from
// an explicit seed, so results are reproducible.
package kmeans

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
)

// Options control [Cluster].
type Options struct {
	// K is the number of clusters, >= 1.
	K int
	// Restarts is the number of k-means++ starts; the one with the least
	// within-cluster sum of squares is kept. 0 means 20.
	Restarts int
	// MaxIter bounds Lloyd's iterations per start; 0 means 300.
	MaxIter int
	// Seed seeds every random choice: start r draws from PCG(Seed, r).
	Seed uint64
	// Workers run starts in parallel; 0 means GOMAXPROCS. The result does
	// not depend on it.
	Workers int
}

// Result is a clustering.
type Result struct {
	// Centers holds the K cluster centres.
	Centers [][]float64
	// Assign gives each observation's cluster.
	Assign []int
	// Sizes counts the observations of each cluster.
	Sizes []int
	// WithinSS is the within-cluster sum of squared distances.
	WithinSS float64
	// Iterations is the number of Lloyd iterations of the kept start.
	Iterations int
	// Converged is false when the kept start stopped at MaxIter.
	Converged bool
	// Start is the index of the kept start.
	Start int
}

// ErrInput reports observations that cannot be clustered.
var ErrInput = errors.New("kmeans: bad input")

// Cluster partitions the rows of x (all of the same length, finite) into
// opt.K clusters by squared Euclidean distance.
func Cluster(x [][]float64, opt Options) (*Result, error) {
	if opt.K < 1 {
		return nil, fmt.Errorf("%w: K = %d, want >= 1", ErrInput, opt.K)
	}
	if len(x) < opt.K {
		return nil, fmt.Errorf("%w: %d observations for %d clusters", ErrInput, len(x), opt.K)
	}
	dim := len(x[0])
	for i, row := range x {
		if len(row) != dim {
			return nil, fmt.Errorf("%w: row %d has %d values, row 0 has %d", ErrInput, i, len(row), dim)
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: row %d, column %d is %v", ErrInput, i, j, v)
			}
		}
	}
	if opt.Restarts <= 0 {
		opt.Restarts = 20
	}
	if opt.MaxIter <= 0 {
		opt.MaxIter = 300
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	results := make([]*Result, opt.Restarts)
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(workers, opt.Restarts) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range next {
				results[r] = lloyd(x, opt, r)
			}
		}()
	}
	for r := range opt.Restarts {
		next <- r
	}
	close(next)
	wg.Wait()
	best := results[0]
	for _, r := range results[1:] {
		if r.WithinSS < best.WithinSS {
			best = r
		}
	}
	return best, nil
}

func dist2(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return s
}

// seeds picks k-means++ centres: the first uniformly, each next one with
// probability proportional to the squared distance to the nearest centre
// chosen so far.
func seeds(x [][]float64, k int, rng *rand.Rand) [][]float64 {
	centers := [][]float64{append([]float64(nil), x[rng.IntN(len(x))]...)}
	d := make([]float64, len(x))
	for i := range x {
		d[i] = dist2(x[i], centers[0])
	}
	for len(centers) < k {
		total := 0.0
		for _, v := range d {
			total += v
		}
		pick := 0
		if total > 0 {
			u := rng.Float64() * total
			for i, v := range d {
				u -= v
				if u < 0 {
					pick = i
					break
				}
				pick = i
			}
		} else {
			pick = rng.IntN(len(x))
		}
		c := append([]float64(nil), x[pick]...)
		centers = append(centers, c)
		for i := range x {
			d[i] = min(d[i], dist2(x[i], c))
		}
	}
	return centers
}

// lloyd runs one start: Lloyd's iterations with Hamerly's bounds (G.
// Hamerly, Making k-means even faster, SDM 2010), which skip the distance
// computations of observations that provably keep their centre and give
// the same assignments as plain Lloyd iterations. The observations and
// centres are copied into flat arrays.
func lloyd(x [][]float64, opt Options, start int) *Result {
	rng := rand.New(rand.NewPCG(opt.Seed, uint64(start)))
	k, dim, n := opt.K, len(x[0]), len(x)
	flat := make([]float64, n*dim)
	for i, row := range x {
		copy(flat[i*dim:], row)
	}
	ctr := make([]float64, k*dim)
	for c, row := range seeds(x, k, rng) {
		copy(ctr[c*dim:], row)
	}
	row := func(i int) []float64 { return flat[i*dim : i*dim+dim] }
	centre := func(c int) []float64 { return ctr[c*dim : c*dim+dim] }
	assign := make([]int, n)
	upper := make([]float64, n) // >= distance to the assigned centre
	lower := make([]float64, n) // <= distance to any other centre
	// full assigns i to its nearest centre (lowest index on ties) and
	// sets its bounds exactly.
	full := func(i int) {
		best, d1, d2 := 0, math.Inf(1), math.Inf(1)
		xi := row(i)
		for c := range k {
			d := dist2(xi, centre(c))
			switch {
			case d < d1:
				d2, d1, best = d1, d, c
			case d < d2:
				d2 = d
			}
		}
		assign[i], upper[i], lower[i] = best, math.Sqrt(d1), math.Sqrt(d2)
	}
	for i := range n {
		full(i)
	}
	sums := make([]float64, k*dim)
	sizes := make([]int, k)
	half := make([]float64, k) // half the distance to the nearest other centre
	moved := make([]float64, k)
	old := make([]float64, dim)
	res := &Result{Start: start}
	for it := 1; it <= opt.MaxIter; it++ {
		res.Iterations = it
		// Move the centres to the means of their observations.
		clear(sums)
		clear(sizes)
		for i := range n {
			c := assign[i]
			sizes[c]++
			sc := sums[c*dim : c*dim+dim]
			for j, v := range row(i) {
				sc[j] += v
			}
		}
		for c := range k {
			cc := centre(c)
			copy(old, cc)
			if sizes[c] == 0 {
				// An empty cluster takes the observation farthest from
				// its centre.
				far, fd := 0, -1.0
				for i := range n {
					if d := dist2(row(i), centre(assign[i])); d > fd {
						far, fd = i, d
					}
				}
				copy(cc, row(far))
			} else {
				for j := range cc {
					cc[j] = sums[c*dim+j] / float64(sizes[c])
				}
			}
			moved[c] = math.Sqrt(dist2(old, cc))
		}
		// Loosen the bounds by the moves.
		m1, m2, arg := 0.0, 0.0, -1
		for c, m := range moved {
			switch {
			case m > m1:
				m2, m1, arg = m1, m, c
			case m > m2:
				m2 = m
			}
		}
		for i := range n {
			upper[i] += moved[assign[i]]
			if assign[i] == arg {
				lower[i] -= m2
			} else {
				lower[i] -= m1
			}
		}
		for c := range k {
			half[c] = math.Inf(1)
			for o := range k {
				if o != c {
					half[c] = min(half[c], math.Sqrt(dist2(centre(c), centre(o)))/2)
				}
			}
		}
		changed := 0
		for i := range n {
			a := assign[i]
			bound := max(half[a], lower[i])
			if upper[i] < bound {
				continue
			}
			upper[i] = math.Sqrt(dist2(row(i), centre(a)))
			if upper[i] < bound {
				continue
			}
			full(i)
			if assign[i] != a {
				changed++
			}
		}
		if changed == 0 {
			res.Converged = true
			break
		}
	}
	res.Centers = make([][]float64, k)
	for c := range k {
		res.Centers[c] = append([]float64(nil), centre(c)...)
	}
	res.Assign = assign
	res.Sizes = make([]int, k)
	for i := range n {
		res.Sizes[assign[i]]++
		res.WithinSS += dist2(row(i), res.Centers[assign[i]])
	}
	return res
}
