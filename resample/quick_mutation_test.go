//go:build mutation

package resample_test

func init() { quick = true }
