package userclass_test

import (
	"fmt"

	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/hpcwl/hpcwl/userclass"
)

// A user who works in two sessions a week apart: jobs, sessions, jobs per
// week and the share of the user's sessions in each class.
func ExampleCompute() {
	h := int64(3600)
	t := newTrace([]trace.Job{
		{User: 1, Submit: 9 * h, Runtime: 300, Procs: 4},
		{User: 1, Submit: 9*h + 600, Runtime: 300, Procs: 4},
		{User: 1, Submit: 7*24*h + 22*h, Runtime: 7200, Procs: 8},
	})
	ss, _, err := sessionclass.Compute(t, 0, sessionclass.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ss[0].Class, ss[1].Class = sessionclass.IWD, sessionclass.IWN
	us, err := userclass.Compute(t, 0, ss, 64)
	if err != nil {
		fmt.Println(err)
		return
	}
	x := us[0].X
	fmt.Printf("J %.0f, S %.0f, JW %.2f, %%IWD %.2f, %%IWN %.2f, D %.2f days\n",
		x[userclass.J], x[userclass.S], x[userclass.JW], x[userclass.FracIWD], x[userclass.FracIWN], x[userclass.Days])
	// Output:
	// J 3, S 2, JW 2.75, %IWD 0.50, %IWN 0.50, D 7.62 days
}
