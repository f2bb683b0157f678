//go:build !unix

package main

// cpuTime is not measured on this platform.
func cpuTime() (int64, bool) { return 0, false }
