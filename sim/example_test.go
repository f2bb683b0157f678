package sim_test

import (
	"context"
	"fmt"

	"github.com/hpcwl/hpcwl/sim"
)

// A rigid replay of three jobs on a 4-processor machine under a minimal
// FCFS scheduler (package sched has the real ones: sched.New("easy")).
func ExampleRun() {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 120, Procs: 3},
		{ID: 2, Submit: 10, Runtime: 50, Estimate: 60, Procs: 2},
		{ID: 3, Submit: 20, Runtime: 30, Estimate: 60, Procs: 1},
	}
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), &fifo{}, sim.Config{Procs: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range res.Jobs {
		fmt.Printf("job %d: submit %d start %d end %d wait %d\n", o.ID, o.Submit, o.Start, o.End, o.Wait())
	}
	// Output:
	// job 1: submit 0 start 0 end 100 wait 0
	// job 2: submit 10 start 100 end 150 wait 90
	// job 3: submit 20 start 100 end 130 wait 80
}
