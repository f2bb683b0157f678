package scale_test

import (
	"fmt"

	"github.com/hpcwl/hpcwl/scale"
	"github.com/hpcwl/hpcwl/trace"
)

func ExampleApply() {
	t, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := scale.Apply(t, scale.Options{Method: scale.Interarrival, Factor: 1.2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("offered load %.4f -> %.4f (x%.5f)\n", r.LoadBefore, r.LoadAfter, r.Achieved)
	for _, w := range r.Warnings {
		fmt.Println(w.Property)
	}
	// Output:
	// offered load 0.7011 -> 0.8413 (x1.20000)
	// daily cycle
}
