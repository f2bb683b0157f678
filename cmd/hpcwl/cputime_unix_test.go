//go:build unix

package main

import "syscall"

// cpuTime returns the user and system CPU time of the process so far in
// nanoseconds, and true.
func cpuTime() (int64, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), true
}
