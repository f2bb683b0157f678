package trace_test

import (
	"fmt"

	"github.com/hpcwl/hpcwl/trace"
)

func ExampleLoad() {
	t, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	first := t.Jobs[0]
	clock := t.Clock()
	fmt.Println(t.Len(), "jobs on", t.Procs, "processors")
	fmt.Println("first job:", first.ID, "submitted", clock.Time(first.Submit).Format("Mon 2006-01-02 15:04 MST"),
		"on", first.Processors(), "processors for", first.Runtime, "s")
	fmt.Println("hour of week:", clock.HourOfWeek(first.Submit), "week:", clock.Week(first.Submit))
	// Output:
	// 28476 jobs on 100 processors
	// first job: 15 submitted Mon 1996-09-30 12:38 CEST on 4 processors for 3477 s
	// hour of week: 12 week: 1
}
