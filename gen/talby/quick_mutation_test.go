//go:build mutation

package talby

func init() { quick = true }
