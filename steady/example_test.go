package steady_test

import (
	"context"
	"fmt"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/steady"
	"github.com/hpcwl/hpcwl/trace"
)

// ExampleAnalyze replays KTH-SP2 rigidly on nodes half as fast: the
// users keep submitting at the recorded pace and the machine saturates.
func ExampleAnalyze() {
	t, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	s, _ := sched.New("easy")
	res, _, err := sim.Simulate(context.Background(), t, s, sim.Options{PrepareOptions: sim.PrepareOptions{Machine: sim.Machine{Speed: 0.5}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := steady.Analyze(res)
	fmt.Printf("offered load %.2f, saturated %v (%.1f more outstanding jobs a week over %d weeks)\n",
		r.OfferedLoad, r.Saturated, r.Slope, len(r.Weeks))
	// Output:
	// offered load 1.40, saturated true (82.6 more outstanding jobs a week over 47 weeks)
}
