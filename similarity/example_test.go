package similarity_test

import (
	"fmt"

	"github.com/hpcwl/hpcwl/similarity"
)

// A user's jobs are more alike within a session than across sessions.
func ExampleAnalyze() {
	r, err := similarity.Analyze(userTrace(), similarity.Options{MaxDistance: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range r.Distances {
		fmt.Printf("distance %d: processors %.2f\n", d.Distance, d.Mean[similarity.Procs])
	}
	// Output:
	// distance 0: processors 1.00
	// distance 1: processors 0.42
	// distance 2: processors 0.50
}
