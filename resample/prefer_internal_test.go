package resample

import (
	"math"
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
