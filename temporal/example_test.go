package temporal_test

import (
	"fmt"

	"github.com/hpcwl/hpcwl/temporal"
	"github.com/hpcwl/hpcwl/trace"
)

// A log whose jobs all arrive on weekdays between 9:00 and 17:00 has a
// strong daily cycle: its job counts per 6 hours correlate at 24 hours and
// anti-correlate at 12 hours.
func ExampleAnalyze() {
	var jobs []trace.Job
	for day := range 28 {
		if day%7 >= 5 {
			continue // weekend
		}
		for h := 9; h < 17; h++ {
			jobs = append(jobs, trace.Job{Submit: int64(day*86400 + h*3600), Runtime: 600, Procs: 4, AvgCPU: -1})
		}
	}
	t := trace.New(swfHeader(), jobs, trace.Options{})
	r, err := temporal.Analyze(t, temporal.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, ts := range r.Tests[2:4] {
		fmt.Printf("%s, lag %d h: jobs ACF %.2f\n", ts.Name, ts.Span()/3600, ts.ACF.Get(temporal.Jobs))
	}
	// Output:
	// daily, lag 12 h: jobs ACF -0.54
	// daily, lag 24 h: jobs ACF 0.72
}
