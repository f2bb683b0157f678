//go:build mutation

package verify_test

func init() { quick = true }
