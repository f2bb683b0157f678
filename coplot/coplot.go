// Package coplot maps observations and variables together, by Raveh's
// Co-Plot as Talby uses it to compare workloads (D. Talby, User Modeling of
// Parallel Workloads, PhD thesis, Hebrew University, 2006, appendix B and
// section 4.1): the variables are standardized, the observations compared
// by city-block distance, placed in the plane by non-metric
// multidimensional scaling (its fit measured by Guttman's coefficient of
// alienation), and each variable drawn as the arrow from the centre of
// gravity along which the projections of the observations correlate best
// with it.
//
// Guttman's Smallest Space Analysis, which Co-Plot uses, is not available
// as a library; the scaling here is Kruskal's non-metric MDS (monotone
// regression of the map distances on the order of the dissimilarities)
// solved by SMACOF majorization, started from classical (Torgerson)
// scaling and from seeded random configurations, keeping the map of least
// alienation. No Go library offers non-metric MDS, so it is written here on
// gonum's linear algebra.
package coplot

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// Options control [Map].
type Options struct {
	// Restarts is the number of random starts besides the classical
	// scaling start; 0 means 20.
	Restarts int
	// Seed seeds the random starts.
	Seed uint64
	// MaxIter bounds the SMACOF iterations per start; 0 means 1000.
	MaxIter int
}

// Arrow is one variable's arrow.
type Arrow struct {
	Variable string `json:"variable"`
	// DX and DY are the arrow's unit direction.
	DX float64 `json:"dx"`
	DY float64 `json:"dy"`
	// Correlation is the largest correlation of the variable with the
	// projections of the observations on a direction, attained along the
	// arrow; Talby draws the arrow's length proportional to it.
	Correlation float64 `json:"correlation"`
}

// Point is one observation on the map.
type Point struct {
	Name string  `json:"name"`
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
}

// Result is a Co-Plot.
type Result struct {
	Points []Point `json:"points"`
	Arrows []Arrow `json:"arrows"`
	// Alienation is Guttman's coefficient of alienation Θ of the map
	// (Talby (2006), Eq. B3 and B4); below 0.15 is a good fit.
	Alienation float64 `json:"alienation"`
	// MeanCorrelation averages the arrows' correlations.
	MeanCorrelation float64 `json:"mean_correlation"`
	// Start is the start that gave the map: 0 the classical scaling,
	// r > 0 the r-th random one.
	Start int `json:"start"`
}

// ErrInput reports data that cannot be mapped.
var ErrInput = errors.New("coplot: bad input")

// Map makes the Co-Plot of the rows of y (observations, named by obs)
// whose columns are the variables vars. Every value must be finite; a
// constant variable is refused (it has no direction).
func Map(y [][]float64, obs, vars []string, opt Options) (*Result, error) {
	n, p := len(y), len(vars)
	if n < 3 {
		return nil, fmt.Errorf("%w: %d observations, need at least 3", ErrInput, n)
	}
	if len(obs) != n {
		return nil, fmt.Errorf("%w: %d names for %d observations", ErrInput, len(obs), n)
	}
	if p < 1 {
		return nil, fmt.Errorf("%w: no variables", ErrInput)
	}
	for i, row := range y {
		if len(row) != p {
			return nil, fmt.Errorf("%w: observation %s has %d values for %d variables", ErrInput, obs[i], len(row), p)
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: observation %s, variable %s is %v", ErrInput, obs[i], vars[j], v)
			}
		}
	}
	if opt.Restarts <= 0 {
		opt.Restarts = 20
	}
	if opt.MaxIter <= 0 {
		opt.MaxIter = 1000
	}
	z, err := standardize(y, vars)
	if err != nil {
		return nil, err
	}
	s := cityBlock(z)
	best := &Result{Alienation: math.Inf(1)}
	var bestX [][2]float64
	rng := rand.New(rand.NewPCG(opt.Seed, 0))
	for start := 0; start <= opt.Restarts; start++ {
		var x [][2]float64
		if start == 0 {
			x = torgerson(s)
		} else {
			x = make([][2]float64, n)
			for i := range x {
				x[i] = [2]float64{rng.NormFloat64(), rng.NormFloat64()}
			}
		}
		x = smacof(s, x, opt.MaxIter)
		if a := Alienation(s, distances(x)); a < best.Alienation-1e-12 {
			best.Alienation, best.Start, bestX = a, start, x
		}
	}
	// Centre the map on the centre of gravity.
	var cx, cy float64
	for _, v := range bestX {
		cx += v[0] / float64(n)
		cy += v[1] / float64(n)
	}
	for i := range bestX {
		bestX[i][0] -= cx
		bestX[i][1] -= cy
		best.Points = append(best.Points, Point{Name: obs[i], X: bestX[i][0], Y: bestX[i][1]})
	}
	best.Arrows = arrows(z, bestX, vars)
	for _, a := range best.Arrows {
		best.MeanCorrelation += a.Correlation / float64(len(best.Arrows))
	}
	return best, nil
}

// standardize returns the z-scores of the columns (sample standard
// deviation, n - 1).
func standardize(y [][]float64, vars []string) ([][]float64, error) {
	n := len(y)
	z := make([][]float64, n)
	for i := range z {
		z[i] = make([]float64, len(vars))
	}
	col := make([]float64, n)
	for j := range vars {
		for i := range y {
			col[i] = y[i][j]
		}
		m, sd := stat.MeanStdDev(col, nil)
		if !(sd > 0) {
			return nil, fmt.Errorf("%w: variable %s is constant", ErrInput, vars[j])
		}
		for i := range y {
			z[i][j] = (y[i][j] - m) / sd
		}
	}
	return z, nil
}

// cityBlock returns the city-block distances between the rows of z.
func cityBlock(z [][]float64) [][]float64 {
	n := len(z)
	s := make([][]float64, n)
	for i := range s {
		s[i] = make([]float64, n)
	}
	for i := range z {
		for k := i + 1; k < n; k++ {
			d := 0.0
			for j := range z[i] {
				d += math.Abs(z[i][j] - z[k][j])
			}
			s[i][k], s[k][i] = d, d
		}
	}
	return s
}

func distances(x [][2]float64) [][]float64 {
	n := len(x)
	d := make([][]float64, n)
	for i := range d {
		d[i] = make([]float64, n)
	}
	for i := range x {
		for k := i + 1; k < n; k++ {
			v := math.Hypot(x[i][0]-x[k][0], x[i][1]-x[k][1])
			d[i][k], d[k][i] = v, v
		}
	}
	return d
}

// torgerson returns the classical scaling of the dissimilarities s in two
// dimensions: the top two eigenvectors of the double-centred matrix of
// squared dissimilarities, scaled by the square roots of their eigenvalues.
func torgerson(s [][]float64) [][2]float64 {
	n := len(s)
	b := mat.NewSymDense(n, nil)
	row := make([]float64, n)
	all := 0.0
	for i := range s {
		for k := range s {
			row[i] += s[i][k] * s[i][k] / float64(n)
		}
		all += row[i] / float64(n)
	}
	for i := range s {
		for k := i; k < n; k++ {
			b.SetSym(i, k, -0.5*(s[i][k]*s[i][k]-row[i]-row[k]+all))
		}
	}
	var eig mat.EigenSym
	x := make([][2]float64, n)
	if !eig.Factorize(b, true) {
		for i := range x {
			x[i] = [2]float64{float64(i), float64(i % 2)}
		}
		return x
	}
	vals := eig.Values(nil) // ascending
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	for d := range 2 {
		c := n - 1 - d
		f := math.Sqrt(max(vals[c], 1e-12))
		for i := range x {
			x[i][d] = vecs.At(i, c) * f
		}
	}
	return x
}

// pair is a pair of observations with its dissimilarity.
type pair struct {
	i, k int
	s    float64
}

// smacof improves x by Kruskal's non-metric scaling: each iteration fits
// disparities to the map distances by monotone (isotonic) regression on
// the order of the dissimilarities, normalizes them, and moves the points
// by the Guttman transform, which cannot increase the stress.
func smacof(s [][]float64, x [][2]float64, maxIter int) [][2]float64 {
	n := len(s)
	var pairs []pair
	for i := range n {
		for k := i + 1; k < n; k++ {
			pairs = append(pairs, pair{i, k, s[i][k]})
		}
	}
	slices.SortStableFunc(pairs, func(a, b pair) int {
		switch {
		case a.s < b.s:
			return -1
		case a.s > b.s:
			return 1
		}
		return 0
	})
	dhat := make([]float64, len(pairs))
	prev := math.Inf(1)
	for range maxIter {
		d := distances(x)
		for m, pr := range pairs {
			dhat[m] = d[pr.i][pr.k]
		}
		isotonic(dhat)
		// Normalize: the disparities' sum of squares equals the number of
		// pairs, which fixes the scale of the map.
		ss := 0.0
		for _, v := range dhat {
			ss += v * v
		}
		if ss == 0 {
			return x
		}
		f := math.Sqrt(float64(len(pairs)) / ss)
		stress := 0.0
		for m, pr := range pairs {
			dhat[m] *= f
			e := dhat[m] - d[pr.i][pr.k]
			stress += e * e
		}
		// Guttman transform.
		next := make([][2]float64, n)
		for m, pr := range pairs {
			dd := d[pr.i][pr.k]
			if dd == 0 {
				continue
			}
			w := dhat[m] / dd
			for c := range 2 {
				delta := w * (x[pr.i][c] - x[pr.k][c])
				next[pr.i][c] += delta / float64(n)
				next[pr.k][c] -= delta / float64(n)
			}
		}
		x = next
		if prev-stress < 1e-10*max(prev, 1) {
			break
		}
		prev = stress
	}
	return x
}

// isotonic replaces v by its least-squares non-decreasing fit (pool
// adjacent violators).
func isotonic(v []float64) {
	type block struct {
		sum float64
		n   int
	}
	var bs []block
	for _, x := range v {
		bs = append(bs, block{x, 1})
		for len(bs) > 1 {
			a, b := bs[len(bs)-2], bs[len(bs)-1]
			if a.sum/float64(a.n) <= b.sum/float64(b.n) {
				break
			}
			bs = bs[:len(bs)-2]
			bs = append(bs, block{a.sum + b.sum, a.n + b.n})
		}
	}
	k := 0
	for _, b := range bs {
		m := b.sum / float64(b.n)
		for range b.n {
			v[k] = m
			k++
		}
	}
}

// Alienation returns Guttman's coefficient of alienation Θ = sqrt(1 - μ²)
// of map distances d against dissimilarities s, with μ = Σ (S_ik - S_lm)
// (d_ik - d_lm) / Σ |S_ik - S_lm| |d_ik - d_lm| over all pairs of pairs of
// observations (Talby (2006), Eq. B3 and B4). Both are symmetric n × n
// matrices.
func Alienation(s, d [][]float64) float64 {
	n := len(s)
	var ps, pd []float64
	for i := range n {
		for k := i + 1; k < n; k++ {
			ps = append(ps, s[i][k])
			pd = append(pd, d[i][k])
		}
	}
	num, den := 0.0, 0.0
	for a := range ps {
		for b := a + 1; b < len(ps); b++ {
			x, y := ps[a]-ps[b], pd[a]-pd[b]
			num += x * y
			den += math.Abs(x) * math.Abs(y)
		}
	}
	if den == 0 {
		return 0
	}
	mu := num / den
	return math.Sqrt(max(0, 1-mu*mu))
}

// arrows fits each variable's arrow: the least-squares regression of its
// z-scores on the centred coordinates gives the direction, and the
// correlation of the fit with the z-scores (the multiple R) is the largest
// correlation of the variable with a projection of the map.
func arrows(z [][]float64, x [][2]float64, vars []string) []Arrow {
	n := len(x)
	a := mat.NewDense(n, 2, nil)
	for i, v := range x {
		a.Set(i, 0, v[0])
		a.Set(i, 1, v[1])
	}
	out := make([]Arrow, len(vars))
	col := make([]float64, n)
	proj := make([]float64, n)
	for j, name := range vars {
		for i := range z {
			col[i] = z[i][j]
		}
		var b mat.VecDense
		out[j] = Arrow{Variable: name}
		if err := b.SolveVec(a, mat.NewVecDense(n, col)); err != nil {
			continue
		}
		bx, by := b.AtVec(0), b.AtVec(1)
		norm := math.Hypot(bx, by)
		if norm == 0 {
			continue
		}
		out[j].DX, out[j].DY = bx/norm, by/norm
		for i, v := range x {
			proj[i] = v[0]*out[j].DX + v[1]*out[j].DY
		}
		out[j].Correlation = stat.Correlation(col, proj, nil)
	}
	return out
}
