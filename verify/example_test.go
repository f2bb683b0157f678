package verify_test

import (
	"fmt"

	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/verify"
)

// Two jobs on a machine of 4 processors; the schedule starts the second
// job while the first still holds 3 processors.
func ExampleCheck() {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 3},
		{ID: 2, Submit: 10, Runtime: 50, Estimate: 60, Procs: 2},
	}
	schedule := []verify.Entry{
		{ID: 1, Submit: 0, Procs: 3, Start: 0, End: 100, Line: 2},
		{ID: 2, Submit: 10, Procs: 2, Start: 10, End: 60, Line: 3},
	}
	rep, err := verify.Check(jobs, schedule, verify.Options{Procs: 4, Policy: verify.FCFS})
	if err != nil {
		panic(err)
	}
	fmt.Println(rep.OK(), rep.Count)
	for _, v := range rep.Violations {
		fmt.Println(v)
	}
	fmt.Println(rep.Note)
	// Output:
	// false 1
	// capacity: job 2 at t=10 (line 3): its start makes 5 processors busy on a machine of 4
	// policy invariants not checked: the schedule breaks the basic rules
}
