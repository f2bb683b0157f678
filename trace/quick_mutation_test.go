//go:build mutation

package trace_test

func init() { quick = true }
