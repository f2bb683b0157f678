package pca_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hpcwl/hpcwl/pca"
)

func TestCorrelationKnownStructure(t *testing.T) {
	// a and b share one factor; c is independent noise on a scale 1000
	// times larger, which the correlation matrix must ignore.
	rng := rand.New(rand.NewPCG(1, 2))
	var x [][]float64
	for range 5000 {
		f := rng.NormFloat64()
		x = append(x, []float64{f + 0.1*rng.NormFloat64(), 2*f + 0.2*rng.NormFloat64(), 1000 * rng.NormFloat64()})
	}
	r, err := pca.Correlation(x, []string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	// Eigenvalues of the correlation matrix sum to 3; the first is about
	// 1 + rho with rho = corr(a, b) ≈ 0.99, the second about 1 (c).
	sum := r.Variance[0] + r.Variance[1] + r.Variance[2]
	if !(math.Abs(sum-3) <= 1e-9) || !(math.Abs(r.Variance[0]-1.99) <= 0.02) || !(math.Abs(r.Variance[1]-1) <= 0.05) {
		t.Errorf("variances %v", r.Variance)
	}
	s := 1 / math.Sqrt2
	if !(math.Abs(r.Loadings[0][0]-s) <= 0.01) || !(math.Abs(r.Loadings[1][0]-s) <= 0.01) || !(math.Abs(r.Loadings[2][0]) <= 0.05) {
		t.Errorf("first component %v %v %v", r.Loadings[0][0], r.Loadings[1][0], r.Loadings[2][0])
	}
	if !(math.Abs(math.Abs(r.Loadings[2][1])-1) <= 0.01) {
		t.Errorf("second component should be c: %v", r.Loadings[2][1])
	}
	if r.Components(0.9) != 2 || !(math.Abs(r.Cumulative[2]-1) <= 1e-12) {
		t.Errorf("components for 90%%: %d, cumulative %v", r.Components(0.9), r.Cumulative)
	}
}

func TestCorrelationConstantAndErrors(t *testing.T) {
	x := [][]float64{{1, 5, 2}, {2, 5, 1}, {3, 5, 7}, {4, 5, 3}}
	r, err := pca.Correlation(x, []string{"a", "k", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Constant) != 1 || r.Constant[0] != "k" {
		t.Errorf("constant %v", r.Constant)
	}
	if _, err := pca.Correlation(x[:1], []string{"a", "k", "b"}); !errors.Is(err, pca.ErrInput) {
		t.Error(err)
	}
	if _, err := pca.Correlation([][]float64{{1, math.Inf(1)}, {2, 3}}, []string{"a", "b"}); !errors.Is(err, pca.ErrInput) {
		t.Error(err)
	}
}
