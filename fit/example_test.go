package fit_test

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/hpcwl/hpcwl/fit"
)

func ExampleGamma() {
	src := rand.New(rand.NewPCG(1, 1))
	g := distuv.Gamma{Alpha: 2.5, Beta: 0.5, Src: src} // scale 2
	x := make([]float64, 10000)
	for i := range x {
		x[i] = g.Rand()
	}
	d, res, err := fit.Gamma(x, nil)
	fmt.Printf("shape %.1f scale %.1f %v %v\n", d.Alpha, 1/d.Beta, res.Status, err)
	// Output:
	// shape 2.5 scale 2.0 converged <nil>
}

func ExampleSelectGaussianMixture() {
	src := rand.New(rand.NewPCG(2, 2))
	x := make([]float64, 2000)
	for i := range x {
		if i%2 == 0 {
			x[i] = src.NormFloat64()
		} else {
			x[i] = 10 + 2*src.NormFloat64()
		}
	}
	best, _, err := fit.SelectGaussianMixture(x, 4, nil)
	fmt.Println(best.G, best.Model, err)
	// Output:
	// 2 V <nil>
}
