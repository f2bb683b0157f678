package estimate

import (
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

func TestValues(t *testing.T) {
	for _, tt := range [][2]int{{20, 10}, {200, 20}, {1000, 35}, {10000, 90}, {70000, 340}, {250000, 565}, {900000, 565}, {40000, 215}} {
		if got := Values(tt[0]); got != tt[1] {
			t.Errorf("Values(%d) = %d, want %d", tt[0], got, tt[1])
		}
	}
}

func TestHeadTimes(t *testing.T) {
	v := headTimes(18 * hour)
	if len(v) != head || v[0] != 18*hour {
		t.Fatalf("head %v: want 20 values, the maximum first", v)
	}
	if !slices.IsSorted(v[1:]) || v[len(v)-1] >= 18*hour {
		t.Errorf("head %v: the others must increase and stay below the maximum", v)
	}
	for _, want := range []int64{5 * minute, 15 * minute, 1 * hour, 12 * hour} {
		if !slices.Contains(v, want) {
			t.Errorf("head %v lacks the popular value %d", v, want)
		}
	}
}

// TestHistogram checks the histogram's defining features on a log-sized
// run: the counts sum to the jobs, the maximum is the most popular value,
// the 20 most popular values hold about 89% of the jobs, and the number of
// values follows Values.
func TestHistogram(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 50000
	h, err := Histogram(n, 36*hour, r)
	if err != nil {
		t.Fatal(err)
	}
	sum, top := 0, Bin{}
	for _, b := range h {
		sum += b.Jobs
		if b.Jobs > top.Jobs {
			top = b
		}
		if b.Time <= 0 || b.Time > 36*hour {
			t.Errorf("value %d s outside (0, 36 h]", b.Time)
		}
	}
	if sum != n {
		t.Errorf("counts sum to %d, want %d", sum, n)
	}
	if top.Time != 36*hour {
		t.Errorf("most popular value %d s, want the maximum", top.Time)
	}
	counts := make([]int, len(h))
	for i, b := range h {
		counts[i] = b.Jobs
	}
	slices.Sort(counts)
	slices.Reverse(counts)
	h20 := 0
	for _, c := range counts[:head] {
		h20 += c
	}
	if f := float64(h20) / n; f < 0.88 || f > 0.90 {
		t.Errorf("top 20 values hold %.3f of the jobs, want 0.89", f)
	}
	if k, want := len(h), Values(n); k < want-10 || k > want {
		t.Errorf("%d values, want about %d", k, want)
	}
	if _, err := Histogram(n, 10*minute, r); err == nil {
		t.Error("a maximum below one hour was accepted")
	}
}

// TestAssignProperties checks, on random runtimes, that Assign hands out
// exactly the histogram's values and never an estimate below a runtime,
// except for the jobs it counts as over.
func TestAssignProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 3000).Draw(t, "n")
		maxEst := rapid.Int64Range(1, 72).Draw(t, "hours") * hour
		seed := rapid.Uint64().Draw(t, "seed")
		r := rand.New(rand.NewPCG(seed, 7))
		run := make([]int64, n)
		for i := range run {
			run[i] = r.Int64N(maxEst + 1)
			if r.IntN(2) == 0 {
				run[i] /= 50 // many short jobs, as in real logs
			}
		}
		h, err := Histogram(n, maxEst, r)
		if err != nil {
			t.Fatal(err)
		}
		est, over, err := Assign(h, run, r)
		if err != nil {
			t.Fatal(err)
		}
		below := 0
		for i := range run {
			if est[i] < run[i] {
				below++
			}
		}
		if below != over {
			t.Fatalf("%d estimates below their runtime, %d reported", below, over)
		}
		var want, got []int64
		for _, b := range h {
			for range b.Jobs {
				want = append(want, b.Time)
			}
		}
		got = slices.Clone(est)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatal("the estimates handed out differ from the histogram")
		}
	})
}

func TestMaxEstimate(t *testing.T) {
	for _, tt := range [][2]int64{{0, hour}, {1, hour}, {3600, 3600}, {3601, 7200}, {162754, 46 * hour}} {
		if got := MaxEstimate(tt[0]); got != tt[1] {
			t.Errorf("MaxEstimate(%d) = %d, want %d", tt[0], got, tt[1])
		}
	}
}
