package similarity

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSessionSumsMatchPairs: the linear-time sums of the randomization
// check equal the pair-by-pair sums on shuffled users with zeros, unknown
// values, ties and sessions of one job.
func TestSessionSumsMatchPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for trial := range 300 {
		var u userJobs
		sessions := 1 + rng.IntN(6)
		for range sessions {
			u.starts = append(u.starts, len(u.vals[0]))
			for range 1 + rng.IntN(12) {
				for a := range NumAttributes {
					v := float64(rng.IntN(6))
					switch rng.IntN(8) {
					case 0:
						v = -1
					case 1:
						v = 0
					case 2:
						v = rng.Float64() * 100
					}
					u.vals[a] = append(u.vals[a], v)
				}
			}
		}
		u.starts = append(u.starts, len(u.vals[0]))
		nj := len(u.vals[0])
		perm := rng.Perm(nj)
		// Pair by pair: position i receives job perm[i].
		var moved userJobs
		moved.starts = u.starts
		for a := range NumAttributes {
			for _, j := range perm {
				moved.vals[a] = append(moved.vals[a], u.vals[a][j])
			}
		}
		pos := make([]int, nj)
		for i, j := range perm {
			pos[j] = i
		}
		var sessOf []int
		for s := 0; s+1 < len(u.starts); s++ {
			for range u.starts[s+1] - u.starts[s] {
				sessOf = append(sessOf, s)
			}
		}
		for a := range NumAttributes {
			var want acc
			for s := 0; s+1 < len(moved.starts); s++ {
				moved.pairs(a, s, 0, &want)
			}
			var got sessionSums
			got.reset(sessions)
			for _, j := range sortedKnown(u.vals[a]) {
				got.add(sessOf[pos[j]], u.vals[a][j])
			}
			if got.n != want.n || !(math.Abs(got.sum-want.sum) <= 1e-9*math.Max(1, want.sum)) {
				t.Fatalf("trial %d, attribute %d: %d pairs summing to %v, pair by pair %d and %v", trial, a, got.n, got.sum, want.n, want.sum)
			}
		}
	}
}
