package dist_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/hpcwl/hpcwl/dist"
)

// The whole-sample runtime model of Lublin and Feitelson (ln seconds) for a
// serial job: p = 0.78 − 0.0054.
func ExampleHyperGamma() {
	h := dist.HyperGamma{Shape1: 4.2, Scale1: 0.94, Shape2: 312, Scale2: 0.03, P: 0.7746,
		Src: rand.New(rand.NewPCG(1, 1))}
	fmt.Printf("mean ln runtime %.3f\n", h.Mean())
	fmt.Printf("median ln runtime %.3f\n", h.Quantile(0.5))
	fmt.Printf("P(runtime <= 1 h) %.3f\n", h.CDF(8.189)) // ln 3600
	// Output:
	// mean ln runtime 5.168
	// median ln runtime 4.369
	// P(runtime <= 1 h) 0.752
}

func ExampleTwoStageUniform() {
	// log2 of parallel job sizes on a 128-node machine (§4.4 whole sample).
	t := dist.TwoStageUniform{Low: 0.8, Med: 4.5, High: 7, P: 0.86}
	fmt.Printf("mean log2 size %.3f, P(size <= 16) %.3f\n", t.Mean(), t.CDF(4))
	// Output:
	// mean log2 size 3.084, P(size <= 16) 0.744
}
