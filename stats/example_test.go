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

func ExampleBatchMeans() {
	// An AR(1) series of mean 10: x_t = 10 + 0.8 (x_{t-1} - 10) + e_t.
	rng := rand.New(rand.NewPCG(7, 7))
	x := make([]float64, 20000)
	prev := 0.0
	for i := range x {
		prev = 0.8*prev + rng.NormFloat64()
		x[i] = 10 + prev
	}
	ci, err := stats.BatchMeans(x, 0.95)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: mean %.2f, 95%% CI %.2f .. %.2f; batches of %d (autocorrelation time %.0f)\n",
		ci.Method, ci.Mean, ci.Low, ci.High, ci.BatchSize, ci.Tau)
	// Output:
	// batch means: mean 10.02, 95% CI 9.94 .. 10.09; batches of 107 (autocorrelation time 11)
}
