package lublin

import (
	"math"
	"math/rand/v2"
	"strings"
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
		if got := sum[i] / n[i]; !(math.Abs(got-want) <= 5*se) {
			t.Errorf("slot %d: mean log interarrival %.3f over %v arrivals, want %.3f ± %.3f", i, got, n[i], want, 5*se)
		}
	}
	if checked < 40 {
		t.Errorf("only %d slots with 50 arrivals or more", checked)
	}
}

// TestAverageSmallMachines: one processor is refused as a machine size;
// two pass that check, but the paper's size range for them, u_med = log2 2
// - 1.5 = -0.5, falls below u_low = 0.8 and validation names it; 16
// processors give u_low 0.8, u_med 1.5, u_hi 4.
func TestAverageSmallMachines(t *testing.T) {
	fits := []LogFit{{"whole", WholeParams, false}}
	if _, err := Average(fits, 1); err == nil || !strings.Contains(err.Error(), "machine size 1") {
		t.Errorf("1 processor: %v", err)
	}
	if _, err := Average(fits, 2); err == nil || !strings.Contains(err.Error(), "u_med = -0.5") {
		t.Errorf("2 processors: %v", err)
	}
	p, err := Average(fits, 16)
	if err != nil || p.ULow != 0.8 || p.UMed != 1.5 || p.UHi != 4 {
		t.Errorf("16 processors: %v, %v %v %v", err, p.ULow, p.UMed, p.UHi)
	}
}

// TestAverageAllSerial: a log whose jobs are all serial has no parallel
// jobs to give p2 = Pow2Prob/(1 - SerialProb); it is refused by name.
func TestAverageAllSerial(t *testing.T) {
	p := WholeParams
	p.SerialProb, p.Pow2Prob = 1, 0
	if _, err := Average([]LogFit{{"serial", p, false}}, 128); err == nil || !strings.Contains(err.Error(), "log serial: serial_prob = 1") {
		t.Errorf("all serial: %v", err)
	}
}
