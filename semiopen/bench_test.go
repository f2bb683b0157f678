package semiopen

import (
	"context"
	"math/rand/v2"
	"testing"
)

// BenchmarkMVA solves the mixed model for 1..1000 closed users.
func BenchmarkMVA(b *testing.B) {
	m := Mixed{Lambda: 0.3, Think: 5, Service: 1}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.MVA(1000); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReopen simulates one run of the thesis's size: 10,000 users,
// Shmueli's p(r), λ = 0.5 (about 16,000 jobs).
func BenchmarkReopen(b *testing.B) {
	m := Reopen{Lambda: 0.5, Think: 1, Service: 1, Continue: Shmueli{}, Users: 10000}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Simulate(context.Background(), rand.New(rand.NewPCG(1, 0))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSimulateMixed writes the mixed model with 5 closed users and
// λ = 0.3 over 20,000 time units (about 22,700 jobs) and replays it with
// Adjusted feedback.
func BenchmarkSimulateMixed(b *testing.B) {
	m := Mixed{Lambda: 0.3, Think: 5, Service: 1}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := SimulateMixed(context.Background(), m, 5, WorkloadOptions{}, rand.New(rand.NewPCG(1, 5))); err != nil {
			b.Fatal(err)
		}
	}
}
