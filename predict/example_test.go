package predict_test

import (
	"context"
	"fmt"

	"github.com/hpcwl/hpcwl/predict"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
)

// A user's three jobs under EASY++ (the mean of the user's last two
// terminated jobs, capped at the estimate): the first two are predicted by
// their estimates, the third by the history.
func ExampleNew() {
	p, err := predict.New("easy++", predict.Env{})
	if err != nil {
		panic(err)
	}
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 3600, Procs: 1, User: 7},
		{ID: 2, Submit: 10, Runtime: 300, Estimate: 3600, Procs: 1, User: 7},
		{ID: 3, Submit: 1000, Runtime: 250, Estimate: 3600, Procs: 1, User: 7},
	}
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), sched.NewFCFS(), sim.Config{Procs: 4, Predictor: p})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Spec())
	for _, o := range res.Jobs {
		fmt.Printf("job %d: predicted %d s, ran %d s\n", o.ID, o.Initial, o.Ran())
	}
	// Output:
	// ruh:n=2,stat=mean,cap=true,prop=false
	// job 1: predicted 3600 s, ran 100 s
	// job 2: predicted 3600 s, ran 300 s
	// job 3: predicted 200 s, ran 250 s
}
