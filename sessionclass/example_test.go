package sessionclass_test

import (
	"fmt"

	"github.com/hpcwl/hpcwl/sessionclass"
)

// Sessions of five clear kinds (daytime and night work on weekdays,
// weekend work, wide jobs and week-long batches) fall into Talby's five
// classes.
func ExampleClassify() {
	ss, _, err := sessionclass.Compute(classTrace(), 0, sessionclass.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	cl, err := sessionclass.Classify(ss, sessionclass.ClassifyOptions{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range cl.Classes {
		fmt.Printf("%-3s %3d sessions, median duration %6.0f s, median Pm %4.1f\n", c.Class, c.Sessions,
			c.Variables["D"].Median, c.Variables["Pm"].Median)
	}
	// Output:
	// IWD 240 sessions, median duration    700 s, median Pm  4.0
	// IWN 240 sessions, median duration   4000 s, median Pm  8.0
	// IW   80 sessions, median duration    900 s, median Pm  4.0
	// BHP  40 sessions, median duration   7200 s, median Pm 128.0
	// BHD   8 sessions, median duration 451800 s, median Pm 16.0
}
