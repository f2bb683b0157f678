package sessiondist_test

import (
	"fmt"

	"github.com/hpcwl/hpcwl/sessiondist"
)

// Last measures a think time from the end of the previous batch's last
// job, Max from the latest end of all earlier jobs.
func ExampleCompareLastMax() {
	r, err := sessiondist.CompareLastMax(lastMaxTrace(), 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("common batches:", r.CommonBatches)
	fmt.Println("think times, Last:", r.CommonLast)
	fmt.Println("think times, Max:", r.CommonMax)
	// Output:
	// common batches: 3
	// think times, Last: [50 10100]
	// think times, Max: [50 300]
}
