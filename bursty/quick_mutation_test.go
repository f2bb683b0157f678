//go:build mutation

package bursty

func init() { quick = true }
