package lublin

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestExpectedInterarrivalSlots: under arrival method 1 the interarrival
// after an arrival in slot t is e^x with x ~ Gamma(α, β(t)), t counted
// from the slot of time 0. With scales 0.30, 0.31, ..., 0.77 (one per
// slot, so that a wrong slot shows), α of the whole model and time 0 in
// slot 5, the mean of x over the arrivals that left from each slot is
// α β(t) within five standard errors (sd √α β(t) over √n; the cut of x at
// 13, five to twenty standard deviations above these means, is negligible).
func TestExpectedInterarrivalSlots(t *testing.T) {
	var betas [buckets]float64
	for i := range betas {
		betas[i] = 0.30 + 0.01*float64(i)
	}
	p := WholeParams
	alpha := p.AArr * p.ARAR
	const start = 5
	s := newStream(p, start, rand.New(rand.NewPCG(3, 4)), &betas)
	var sum, n [buckets]float64
	for range 30000 {
		prev := s.next
		slot := (start + int(prev/secondsInBucket)) % buckets
		s.advance()
		sum[slot] += math.Log(s.next - prev)
		n[slot]++
	}
	checked := 0
	for i := range betas {
		if n[i] < 50 {
			continue
		}
		checked++
		want, se := alpha*betas[i], math.Sqrt(alpha)*betas[i]/math.Sqrt(n[i])
		if got := sum[i] / n[i]; math.Abs(got-want) > 5*se {
			t.Errorf("slot %d: mean log interarrival %.3f over %v arrivals, want %.3f ± %.3f", i, got, n[i], want, 5*se)
		}
	}
	if checked < 40 {
		t.Errorf("only %d slots with 50 arrivals or more", checked)
	}
}
