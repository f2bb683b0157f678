// Package pca is principal component analysis on the correlation matrix:
// every variable is standardized (z-scored) and the eigenvectors of their
// covariance, the correlation matrix, are the components, as Talby uses it
// to find the features that explain sessions and users (D. Talby, User
// Modeling of Parallel Workloads, PhD thesis, Hebrew University, 2006,
// section 9.2.3, Tables 20 and 22). The decomposition is gonum's stat.PC.
package pca

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// Result is the analysis of a set of variables.
type Result struct {
	// Variables names the columns, in input order.
	Variables []string `json:"variables"`
	// Loadings[v][c] is the coefficient of variable v in component c;
	// components are sorted by decreasing variance. Each component's sign
	// is fixed so that its largest coefficient in absolute value is
	// positive (eigenvectors have no sign of their own).
	Loadings [][]float64 `json:"loadings"`
	// Variance holds each component's variance (eigenvalue); they sum to
	// the number of non-constant variables.
	Variance []float64 `json:"variance"`
	// Share is Variance over its sum (Talby's "% var"), Cumulative its
	// running sum.
	Share      []float64 `json:"share"`
	Cumulative []float64 `json:"cumulative"`
	// Constant lists variables with zero variance, left at 0 after
	// standardizing.
	Constant []string `json:"constant,omitempty"`
}

// ErrInput reports data that cannot be analysed.
var ErrInput = errors.New("pca: bad input")

// Standardize returns the z-scores of the columns of x (rows are
// observations): (v - mean) / standard deviation (sample, n-1). A constant
// column becomes 0; its index is returned in constant.
func Standardize(x [][]float64) (z [][]float64, constant []int) {
	if len(x) == 0 {
		return nil, nil
	}
	dim := len(x[0])
	z = make([][]float64, len(x))
	for i := range z {
		z[i] = make([]float64, dim)
	}
	col := make([]float64, len(x))
	for j := range dim {
		for i := range x {
			col[i] = x[i][j]
		}
		m, sd := stat.MeanStdDev(col, nil)
		if !(sd > 0) {
			constant = append(constant, j)
			continue
		}
		for i := range x {
			z[i][j] = (x[i][j] - m) / sd
		}
	}
	return z, constant
}

// Correlation analyses the rows of x (observations) whose columns are the
// named variables.
func Correlation(x [][]float64, names []string) (*Result, error) {
	if len(x) < 2 {
		return nil, fmt.Errorf("%w: %d observations, need at least 2", ErrInput, len(x))
	}
	dim := len(names)
	for i, row := range x {
		if len(row) != dim {
			return nil, fmt.Errorf("%w: row %d has %d values for %d variables", ErrInput, i, len(row), dim)
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: row %d, variable %s is %v", ErrInput, i, names[j], v)
			}
		}
	}
	z, constant := Standardize(x)
	m := mat.NewDense(len(z), dim, nil)
	for i, row := range z {
		m.SetRow(i, row)
	}
	var pc stat.PC
	if !pc.PrincipalComponents(m, nil) {
		return nil, fmt.Errorf("pca: the eigendecomposition failed")
	}
	var vecs mat.Dense
	pc.VectorsTo(&vecs)
	vars := pc.VarsTo(nil)
	r := &Result{Variables: append([]string(nil), names...), Variance: vars}
	for _, j := range constant {
		r.Constant = append(r.Constant, names[j])
	}
	nc := len(vars)
	r.Loadings = make([][]float64, dim)
	for v := range dim {
		r.Loadings[v] = make([]float64, nc)
		for c := range nc {
			r.Loadings[v][c] = vecs.At(v, c)
		}
	}
	for c := range nc {
		big := 0
		for v := range dim {
			if math.Abs(r.Loadings[v][c]) > math.Abs(r.Loadings[big][c]) {
				big = v
			}
		}
		if r.Loadings[big][c] < 0 {
			for v := range dim {
				r.Loadings[v][c] = -r.Loadings[v][c]
			}
		}
	}
	total := 0.0
	for _, v := range vars {
		total += v
	}
	cum := 0.0
	for _, v := range vars {
		r.Share = append(r.Share, v/total)
		cum += v / total
		r.Cumulative = append(r.Cumulative, cum)
	}
	return r, nil
}

// Components returns the smallest number of components whose cumulative
// share reaches frac.
func (r *Result) Components(frac float64) int {
	for i, c := range r.Cumulative {
		if c >= frac-1e-12 {
			return i + 1
		}
	}
	return len(r.Cumulative)
}
