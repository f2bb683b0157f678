//go:build mutation

package trace_test

import (
	"fmt"
	"os"
	"time"
)

// watchdog bounds the tests' run under the mutation tag: they take under
// 10 s even on a loaded machine, so a run of more than watchdog is a
// mutant that loops for ever (a reader that never reaches the end of its
// input). The tests then fail, and the mutant counts as killed, after
// watchdog instead of after 30 times the first run.
const watchdog = 120 * time.Second

func init() {
	quick = true
	time.AfterFunc(watchdog, func() {
		fmt.Fprintf(os.Stderr, "FAIL: the tests ran for more than %v (an endless loop?)\n", watchdog)
		os.Exit(1)
	})
}
