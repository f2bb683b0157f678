//go:build mutation

package temporal_test

func init() { quick = true }
