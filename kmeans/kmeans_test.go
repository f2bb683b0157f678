package kmeans_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/hpcwl/hpcwl/kmeans"
)

// blobs returns n points around each of the centres, with standard
// deviation sd.
func blobs(centres [][]float64, n int, sd float64, seed uint64) ([][]float64, []int) {
	rng := rand.New(rand.NewPCG(seed, 0))
	var x [][]float64
	var label []int
	for c, ctr := range centres {
		for range n {
			p := make([]float64, len(ctr))
			for j, v := range ctr {
				p[j] = v + sd*rng.NormFloat64()
			}
			x = append(x, p)
			label = append(label, c)
		}
	}
	return x, label
}

func TestClusterRecoversBlobs(t *testing.T) {
	centres := [][]float64{{0, 0}, {10, 0}, {0, 10}, {10, 10}, {5, 20}}
	x, label := blobs(centres, 200, 1, 1)
	r, err := kmeans.Cluster(x, kmeans.Options{K: 5, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	// Every true blob maps to one cluster, each cluster to one blob.
	m := map[int]int{}
	for i, c := range r.Assign {
		if prev, ok := m[label[i]]; ok && prev != c {
			t.Fatalf("blob %d split between clusters %d and %d", label[i], prev, c)
		}
		m[label[i]] = c
	}
	if len(m) != 5 || !r.Converged {
		t.Errorf("mapping %v, converged %v", m, r.Converged)
	}
	for c, n := range r.Sizes {
		if n != 200 {
			t.Errorf("cluster %d has %d points", c, n)
		}
	}
	if r.WithinSS/float64(len(x)) > 2.5 { // expected about 2 (two unit variances)
		t.Errorf("within SS per point %.2f", r.WithinSS/float64(len(x)))
	}
}

func TestClusterDeterministic(t *testing.T) {
	x, _ := blobs([][]float64{{0, 0, 0}, {3, 3, 3}, {0, 4, 1}}, 300, 1.5, 7)
	a, err := kmeans.Cluster(x, kmeans.Options{K: 4, Seed: 11, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := kmeans.Cluster(x, kmeans.Options{K: 4, Seed: 11, Workers: 4})
	if !reflect.DeepEqual(a, b) {
		t.Error("result depends on the number of workers")
	}
	c, _ := kmeans.Cluster(x, kmeans.Options{K: 4, Seed: 12, Restarts: 1})
	d, _ := kmeans.Cluster(x, kmeans.Options{K: 4, Seed: 12, Restarts: 30})
	if d.WithinSS > c.WithinSS+1e-9 {
		t.Errorf("more restarts gave a worse clustering: %v > %v", d.WithinSS, c.WithinSS)
	}
}

func TestClusterErrors(t *testing.T) {
	for _, c := range []struct {
		x [][]float64
		k int
	}{
		{[][]float64{{1}}, 0},
		{[][]float64{{1}}, 2},
		{[][]float64{{1, 2}, {1}}, 1},
		{[][]float64{{1}, {math.NaN()}}, 1},
	} {
		if _, err := kmeans.Cluster(c.x, kmeans.Options{K: c.k}); !errors.Is(err, kmeans.ErrInput) {
			t.Errorf("%v K=%d: %v", c.x, c.k, err)
		}
	}
}

func TestClusterIdenticalPoints(t *testing.T) {
	x := [][]float64{{1, 1}, {1, 1}, {1, 1}, {2, 2}}
	r, err := kmeans.Cluster(x, kmeans.Options{K: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.WithinSS != 0 || len(r.Sizes) != 3 {
		t.Errorf("%+v", r)
	}
}
