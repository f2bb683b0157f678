package stats_test

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/hpcwl/hpcwl/stats"
)

func ExampleKSOneSample() {
	src := rand.New(rand.NewPCG(1, 1))
	e := distuv.Exponential{Rate: 1, Src: src}
	x := make([]float64, 1000)
	for i := range x {
		x[i] = e.Rand()
	}
	right := stats.KSOneSample(x, e.CDF)
	wrong := stats.KSOneSample(x, distuv.Exponential{Rate: 1.3}.CDF)
	fmt.Println(right.Reject(0.05), wrong.Reject(0.05))
	// Output:
	// false true
}
