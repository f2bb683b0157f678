package sacct_test

import (
	"fmt"
	"strings"

	"github.com/hpcwl/hpcwl/sacct"
)

func ExampleRead() {
	out := `JobIDRaw|User|Submit|Start|End|ElapsedRaw|TimelimitRaw|NCPUS|State
11|alice|2024-03-01T10:00:00|2024-03-01T10:00:30|2024-03-01T10:10:30|600|60|16|COMPLETED
11.batch||2024-03-01T10:00:30|2024-03-01T10:00:30|2024-03-01T10:10:30|600||16|COMPLETED
12|bob|2024-03-01T10:05:00|2024-03-01T10:10:30|2024-03-01T10:12:00|90|10|8|FAILED
`
	t, sum, err := sacct.Read(strings.NewReader(out), "jobs.txt", sacct.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d jobs, %d step skipped, machine of %d\n", sum.Jobs, sum.Steps, t.Procs)
	for _, j := range t.Jobs {
		fmt.Printf("job %d: submit %d, wait %d, run %d, %d procs, requested %d s, user %d, status %d\n",
			j.ID, j.Submit, j.Wait, j.Runtime, j.Procs, j.ReqTime, j.User, j.Status)
	}
	// Output:
	// 2 jobs, 1 step skipped, machine of 16
	// job 1: submit 0, wait 30, run 600, 16 procs, requested 3600 s, user 1, status 1
	// job 2: submit 300, wait 330, run 90, 8 procs, requested 600 s, user 2, status 0
}
