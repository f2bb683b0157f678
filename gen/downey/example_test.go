package downey_test

import (
	"fmt"

	"github.com/hpcwl/hpcwl/gen/downey"
)

// Generate a few jobs for a 128-processor machine at an offered load of 0.7.
func ExampleNew() {
	g, err := downey.New(downey.Config{Jobs: 3, Procs: 128, Load: 0.7, Seed: 1})
	if err != nil {
		panic(err)
	}
	perDay, load := g.Expected()
	fmt.Printf("%.1f jobs/day, offered load %.2f\n", perDay, load)
	for {
		j, ok := g.Next()
		if !ok {
			break
		}
		fmt.Println(j.Submit, j.Runtime, j.Procs)
	}
	// Output:
	// 22.2 jobs/day, offered load 0.70
	// 0 3531 6
	// 2728 29466 2
	// 9848 7933 98
}

// Fit the uniform-log lifetime model to a sample of runtimes, omitting the
// shortest and longest 10% as the paper does.
func ExampleFitLifetimes() {
	runtimes := []float64{10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120}
	f, err := downey.FitLifetimes(runtimes, 0.1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("b0 = %.3f, b1 = %.3f, R2 = %.3f\n", f.Intercept, f.Slope, f.RSquared)
	// Output: b0 = -0.232, b1 = 0.144, R2 = 1.000
}
