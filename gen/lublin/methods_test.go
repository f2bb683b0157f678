package lublin

import (
	"errors"
	"math"
	"testing"
)

// hourlyTarget returns the fraction of arrivals per hour that the daily
// weights ask for.
func hourlyTarget(t TypeParams) [24]float64 {
	w := DailyWeights(t.ANum, t.BNum)
	var h [24]float64
	for i, v := range w {
		h[i/2] += v / buckets
	}
	return h
}

// TestArrivalMethods generates with the two ways of combining
// interarrivals with the daily cycle (Lublin and Feitelson (2003), section
// 7.3) and compares each hourly arrival profile with the target. The paper
// rejects method 1 because its cycle comes out flatter than the target and
// prefers method 3; the test asserts that ordering.
func TestArrivalMethods(t *testing.T) {
	target := hourlyTarget(WholeParams)
	errs := map[ArrivalMethod]float64{}
	for _, m := range ArrivalMethods {
		_, jobs, err := Generate(Config{Params: DefaultParams(Whole), Jobs: 50000, Seed: 21, Arrivals: m})
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		for i := 1; i < len(jobs); i++ {
			if jobs[i].Submit < jobs[i-1].Submit {
				t.Fatalf("%s: submits not sorted at job %d", m, jobs[i].ID)
			}
		}
		got := Summarize(jobs, 128, 0).Hourly
		amp := func(h [24]float64) float64 {
			lo, hi := h[0], h[0]
			for _, v := range h {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			return hi - lo
		}
		worst := 0.0
		for h := range got {
			worst = math.Max(worst, math.Abs(got[h]-target[h]))
		}
		errs[m] = worst
		t.Logf("%s: max |hourly fraction - target| = %.4f; amplitude %.4f (target %.4f); mean interarrival %.0f s",
			m, worst, amp(got), amp(target), float64(jobs[len(jobs)-1].Submit)/float64(len(jobs)-1))
	}
	if errs[SlotWeight] >= errs[ExpectedInterarrival] {
		t.Errorf("method 3 (%.4f) does not follow the daily cycle better than method 1 (%.4f)", errs[SlotWeight], errs[ExpectedInterarrival])
	}
}

func TestArrivalMethodErrors(t *testing.T) {
	if _, err := New(Config{Params: DefaultParams(Whole), Arrivals: "poisson"}); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("unknown method: %v", err)
	}
	if _, err := New(Config{Params: DefaultParams(Whole), Arrivals: ExpectedInterarrival, Load: 0.7}); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("method 1 with a load: %v", err)
	}
	// Method 1's per-slot scales: β(t) = β − ln w(t)/α, so the w-weighted
	// slot with the largest weight has the smallest scale.
	b, err := ExpectedInterarrivalBetas(WholeParams)
	if err != nil {
		t.Fatal(err)
	}
	w := DailyWeights(WholeParams.ANum, WholeParams.BNum)
	for i := range b {
		want := WholeParams.BArr - math.Log(w[i])/(WholeParams.AArr*WholeParams.ARAR)
		if !(math.Abs(b[i]-want) <= 1e-12) {
			t.Fatalf("slot %d: %v, want %v", i, b[i], want)
		}
	}
}
