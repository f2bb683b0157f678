//go:build unix

package sched_test

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) the process has used so
// far, so that benchmarks on a shared machine can report it beside the
// wall-clock time, which the machine's load inflates.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
