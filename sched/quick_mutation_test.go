//go:build mutation

package sched

import "flag"

func init() {
	quick = true
	if err := flag.Set("rapid.checks", quickChecks); err != nil {
		panic(err)
	}
}
