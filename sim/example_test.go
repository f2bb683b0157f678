package sim_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
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

// A log replayed as it is read: the records reach the engine one by one as
// simulated time reaches their submit times (here from a string; from a
// file, trace.OpenScanner).
func ExampleStream() {
	log := `; MaxProcs: 4
1 0 -1 100 3 -1 -1 3 120 -1 1 7 -1 -1 -1 -1 -1 -1
2 10 -1 50 2 -1 -1 2 60 -1 1 8 -1 -1 -1 -1 -1 -1
3 15 -1 -1 1 -1 -1 1 60 -1 1 8 -1 -1 -1 -1 -1 -1
4 20 -1 30 1 -1 -1 1 60 -1 1 7 -1 -1 -1 -1 -1 -1
`
	sc, err := trace.NewScanner(swf.NewReader(strings.NewReader(log)), trace.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	st, err := sim.NewStream(sc, sim.PrepareOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := sim.Run(context.Background(), st, &fifo{}, sim.Config{Procs: st.Workload().Procs})
	if err == nil {
		err = st.Err() // a log out of submit order, or a bad record
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range res.Jobs {
		fmt.Printf("job %d (record %d): start %d end %d\n", o.ID, o.Index+1, o.Start, o.End)
	}
	fmt.Printf("%d records, %d left out\n", st.Records(), st.Workload().Dropped)
	// Output:
	// job 1 (record 1): start 0 end 100
	// job 2 (record 2): start 100 end 150
	// job 4 (record 4): start 100 end 130
	// 4 records, 1 left out
}
