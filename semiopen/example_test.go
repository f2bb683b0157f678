package semiopen_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/hpcwl/hpcwl/semiopen"
)

// The closed class of Zakay's Fig. 3 (µ = 1, Z = 5) next to open users at
// λ = 0.3: the closed users take what the open ones leave, 0.7, and beyond
// the knee every added user lengthens the response time by 1/(µ-λ).
func ExampleMixed_MVA() {
	m := semiopen.Mixed{Lambda: 0.3, Think: 5, Service: 1}
	pts, err := m.MVA(20)
	if err != nil {
		panic(err)
	}
	for _, n := range []int{1, 5, 20} {
		p := pts[n-1]
		fmt.Printf("N=%2d R_c=%6.3f X=%.4f R_o=%6.3f %s (N/(µ-λ)-Z = %.3f)\n",
			n, p.ClosedResponse, p.Throughput, p.OpenResponse, p.Phase, m.FullUtilizationResponse(n))
	}
	// Output:
	// N= 1 R_c= 1.429 X=0.4556 R_o= 1.746 partial (N/(µ-λ)-Z = -3.571)
	// N= 5 R_c= 3.444 X=0.8921 R_o= 4.342 full (N/(µ-λ)-Z = 2.143)
	// N=20 R_c=23.571 X=1.0000 R_o=25.000 full (N/(µ-λ)-Z = 23.571)
}

// The re-open model with Shmueli's continuation probability: users arriving
// at λ = 0.5 submit 1.6 jobs each, and the server stays below saturation.
func ExampleReopen_Simulate() {
	m := semiopen.Reopen{Lambda: 0.5, Think: 1, Service: 1, Continue: semiopen.Shmueli{}, Users: 10000}
	r, err := m.Simulate(context.Background(), rand.New(rand.NewPCG(1, 0)))
	if err != nil {
		panic(err)
	}
	fmt.Printf("X=%.2f jobs/user=%.1f R=%.1f break jobs longer: %.2f\n", r.Throughput, r.JobsPerUser, r.Response, r.Bias.Dominance)
	// Output:
	// X=0.82 jobs/user=1.6 R=3.3 break jobs longer: 0.59
}
