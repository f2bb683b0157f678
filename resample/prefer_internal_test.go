package resample

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// Systematic sampling hands out exactly n slots, each weight getting the
// floor or the ceiling of its expected share.
func TestSystematic(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		w := rapid.SliceOfN(rapid.Float64Range(0.01, 100), 1, 40).Draw(rt, "weights")
		n := rapid.IntRange(0, 500).Draw(rt, "n")
		u := rapid.Float64Range(0, 0.999999).Draw(rt, "u")
		c := systematic(w, n, u)
		sum, total := 0.0, 0
		for _, x := range w {
			sum += x
		}
		for i, k := range c {
			e := float64(n) * w[i] / sum
			if float64(k) < math.Floor(e)-1e-9 || float64(k) > math.Ceil(e)+1e-9 {
				rt.Fatalf("weight %d: %d slots, expected %.4f", i, k, e)
			}
			total += k
		}
		if total != n {
			rt.Fatalf("%d slots handed out, want %d", total, n)
		}
	})
}

// TestSystematicByHand: points falling exactly on a boundary C_i belong to
// the next weight; and the last weight takes the last point even when the
// running sum, rounded, ends below u + n - 1 (with u the largest float64
// below 1, u + 1 rounds to 2, which the sum 2 of 0.3, 0.3, 0.4 does not
// exceed).
func TestSystematicByHand(t *testing.T) {
	for _, c := range []struct {
		w    []float64
		n    int
		u    float64
		want []int
	}{
		{[]float64{1, 1}, 2, 0, []int{1, 1}},
		{[]float64{1, 1, 2}, 4, 0, []int{1, 1, 2}},
		{[]float64{0.3, 0.3, 0.4}, 2, math.Nextafter(1, 0), []int{0, 1, 1}},
		{[]float64{1, 3}, 0, 0.5, []int{0, 0}},
	} {
		got := systematic(c.w, c.n, c.u)
		if !slices.Equal(got, c.want) {
			t.Errorf("systematic(%v, %d, %v) = %v, want %v", c.w, c.n, c.u, got, c.want)
		}
	}
}
