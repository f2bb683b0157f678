//go:build mutation

package resample_test

import "flag"

func init() {
	quick = true
	if err := flag.Set("rapid.checks", "20"); err != nil {
		panic(err)
	}
}
