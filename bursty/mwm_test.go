package bursty

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestFitMWM(t *testing.T) {
	// Span 3.9 s, target bin 1 s: 2^2 bins of 0.975 s holding 2, 0, 1, 1.
	m, err := FitMWM([]float64{0, 0.5, 2.5, 3.9}, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Finest scale: pairs (2,0), (1,1): E[U²]/E[W²] = 8/4, p = (2−1)/2.
	// Coarsest: (2,2) has no difference: an even split.
	if m.Levels != 2 || m.Bin != 0.975 || m.P[1] != 0.5 || m.P[0] != 1e6 {
		t.Errorf("%+v", m)
	}
	if _, err := FitMWM([]float64{5, 5}, 1); err == nil {
		t.Error("no span accepted")
	}
}

func TestMWMArrivals(t *testing.T) {
	m := MWM{Bin: 10, Levels: 6, P: []float64{0.5, 1, 2, 0.3, 5, 1}}
	r := rand.New(rand.NewPCG(1, 2))
	c := m.Counts(1000, r)
	var s float64
	for _, v := range c {
		s += v
	}
	if len(c) != 64 || !(math.Abs(s-1000) <= 1e-9) {
		t.Errorf("%d counts summing to %v", len(c), s)
	}
	a := m.Arrivals(777, r)
	if len(a) != 777 || !slices.IsSorted(a) || a[0] < 0 || a[776] >= 640 {
		t.Errorf("%d arrivals in [%v, %v]", len(a), a[0], a[len(a)-1])
	}
	if err := m.check(); err != nil {
		t.Error(err)
	}
	m.P[3] = 0
	if err := m.check(); err == nil {
		t.Error("p = 0 accepted")
	}
}
