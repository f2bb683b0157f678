package talby_test

import (
	"fmt"

	"github.com/hpcwl/hpcwl/gen/talby"
)

// Generate a year of a 400-processor machine from the published
// parameters and look at its users and sessions.
func ExampleGenerate() {
	p, err := talby.DefaultParams(400)
	if err != nil {
		fmt.Println(err)
		return
	}
	w, err := talby.Generate(p, talby.Config{Weeks: 52, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("Cm %.1f s, CL %.3f\n", p.Machine.Cm, p.Machine.CL)
	fmt.Println(w.Users > w.StartupUsers, w.Sessions > 0, len(w.Jobs) >= w.Sessions)
	// Output:
	// Cm 116.8 s, CL 0.596
	// true true true
}

// The probability that an LTLU user has no session in the 52nd week of
// activity (Talby 2006, Eq. 14 and Table 32).
func ExampleParams_Inactive() {
	p, _ := talby.DefaultParams(0)
	fmt.Printf("%.3f\n", p.Inactive(52, 0))
	// Output: 0.829
}
