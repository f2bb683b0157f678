package sessionclass

import (
	"math"
	"testing"
)

// TestNameClustersTies: each rule takes the largest (or smallest) centre
// among the clusters not yet named, the lower index on ties.
func TestNameClustersTies(t *testing.T) {
	centre := [][]float64{{1, 5}, {1, 5}, {0, 5}, {2, 4}}
	got := nameClusters(centre, []rule{
		{BHP, 0, true},  // cluster 3 (2)
		{BHD, 0, true},  // clusters 0 and 1 tie at 1: 0
		{IW, 1, false},  // clusters 1 and 2 tie at 5: 1
		{IWN, 0, false}, // cluster 2
	})
	want := []Class{BHD, IW, IWN, BHP}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("names %v, want %v", got, want)
		}
	}
	// A cluster named IWD (class 0) first is not named again.
	got = nameClusters([][]float64{{3}, {2}, {1}}, []rule{{IWD, 0, true}, {BHP, 0, true}, {BHD, 0, true}})
	if got[0] != IWD || got[1] != BHP || got[2] != BHD {
		t.Errorf("names %v, want [IWD BHP BHD]", got)
	}
}

// TestTransformColumns: log(1 + v) on the heavy columns only, and nothing
// when off.
func TestTransformColumns(t *testing.T) {
	x := [][]float64{{math.E - 1, 3}, {0, -1}}
	got := transform(x, true, []int{D}, []int{D, Ti})
	if !(math.Abs(got[0][0]-1) <= 1e-15) || got[0][1] != 3 || got[1][0] != 0 || got[1][1] != -1 || x[0][0] != math.E-1 {
		t.Errorf("transformed %v (input now %v), want [[1 3] [0 -1]], input kept", got, x)
	}
	if got := transform(x, false, []int{D}, []int{D, Ti}); got[0][0] != math.E-1 {
		t.Errorf("off: %v", got)
	}
}
