package resample_test

import (
	"fmt"

	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/trace"
)

// Example classifies the users of the embedded KTH-SP2 log and generates a
// two-year workload with 30% more users.
func Example() {
	t, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	pools, err := resample.Classify(t, resample.ClassifyOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := pools.Counts()
	fmt.Printf("long-term %d users, temporary %d, discarded %d\n",
		c[resample.LongTerm].Users, c[resample.Temporary].Users, c[resample.Discarded].Users)
	w, err := pools.Generate(resample.Options{Duration: 104 * resample.Week, LoadFactor: 1.3, Seed: 7})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d long-term copies at a time, %.2f temporary users arriving per week\n", w.Params.LongTerm, w.Params.WeeklyRate)
	fmt.Println("jobs keep their weekday:", t.Clock().DayOfWeek(w.Jobs[0].Submit) == t.Clock().DayOfWeek(t.Jobs[w.Source[0]].Submit))
	// Output:
	// long-term 102 users, temporary 84, discarded 28
	// 133 long-term copies at a time, 2.23 temporary users arriving per week
	// jobs keep their weekday: true
}
