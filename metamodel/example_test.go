package metamodel_test

import (
	"fmt"

	"github.com/hpcwl/hpcwl/metamodel"
)

// The variables of a 1024-processor machine by Table 28, then Table 26.
func ExampleFromMachine() {
	p, err := metamodel.FromMachine(1024)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("Cm %.1f s, JD %.1f, CL %.3f, Am %.1f s\n", p.Cm, p.JD, p.CL, p.Am)
	// Output: Cm 33.1 s, JD 377.0, CL 0.512, Am 65.1 s
}
