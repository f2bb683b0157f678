package locality_test

import (
	"fmt"

	"github.com/hpcwl/hpcwl/locality"
	"github.com/hpcwl/hpcwl/trace"
)

// Example measures the locality of the embedded KTH-SP2 log.
func Example() {
	t, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range locality.Attrs {
		d := locality.StackDepth(t, a)
		fmt.Printf("%s: mean stack depth %.1f\n", a.Name, d.Mean)
	}
	h := locality.Hurst(t, locality.HurstOptions{})
	fmt.Printf("self-similar: %v\n", h.H > 0.5 && h.H < 1)
	// Output:
	// runtime: mean stack depth 38.4
	// estimate: mean stack depth 7.6
	// procs: mean stack depth 4.8
	// self-similar: true
}
