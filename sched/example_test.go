package sched_test

import (
	"context"
	"fmt"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
)

// The worked EASY scenario of spec talby section 11.2: job 2 gets the
// reservation at 100; job 4 ends before it and is backfilled; job 5 uses
// the 2 extra processors; job 3 fits neither rule and waits.
func ExampleNew() {
	s, err := sched.New("easy")
	if err != nil {
		fmt.Println(err)
		return
	}
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 6},
		{ID: 2, Submit: 0, Runtime: 50, Estimate: 50, Procs: 8},
		{ID: 3, Submit: 0, Runtime: 200, Estimate: 200, Procs: 3},
		{ID: 4, Submit: 0, Runtime: 50, Estimate: 50, Procs: 3},
		{ID: 5, Submit: 0, Runtime: 10000, Estimate: 10000, Procs: 1},
	}
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), s, sim.Config{Procs: 10})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range res.Jobs {
		fmt.Printf("job %d starts at %d backfilled=%v\n", o.ID, o.Start, o.Backfilled)
	}
	_, err = sched.New("magic")
	fmt.Println(err)
	// Output:
	// job 1 starts at 0 backfilled=false
	// job 2 starts at 100 backfilled=false
	// job 3 starts at 150 backfilled=false
	// job 4 starts at 0 backfilled=true
	// job 5 starts at 0 backfilled=true
	// unknown scheduler "magic"; valid: conservative, easy, easy-x2, fcfs, flex, maui, pbas, pbas-indirect, sjbf, sjf, ups, ups-recency, wbas
}
