//go:build mutation

package resample_test

import "flag"

func init() {
	quick = true
	if err := flag.Set("rapid.checks", quickChecks); err != nil {
		panic(err)
	}
}
