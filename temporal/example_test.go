package temporal_test

import (
	"fmt"

	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/temporal"
	"github.com/hpcwl/hpcwl/trace"
)

// Jobs every 6 hours, busy by day (10 jobs at 12:00) and quiet at night (1
// job at 00:00), for a week: the 6-hour job counts repeat every day, so
// their 24-hour autocorrelation (lag 4) is high and the 12-hour one (lag 2),
// day against night, negative.
func ExampleBinned() {
	var jobs []trace.Job
	for day := int64(0); day < 7; day++ {
		jobs = append(jobs, trace.Job{Submit: day * 86400, Runtime: 60, Procs: 1})
		for range 10 {
			jobs = append(jobs, trace.Job{Submit: day*86400 + 12*3600, Runtime: 600, Procs: 4})
		}
	}
	t := trace.New(swf.Header{}, jobs, trace.Options{})
	b := temporal.Binned(t, temporal.Bin6Hours)
	fmt.Println(b[temporal.Jobs][:4])
	fmt.Printf("12 h %.2f, 24 h %.2f\n", temporal.ACF(b[temporal.Jobs], 2), temporal.ACF(b[temporal.Jobs], 4))
	// Output:
	// [1 0 10 0]
	// 12 h -0.15, 24 h 0.85
}
