package main

import (
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// unsetAnnotation marks a flag whose zero default means "not given": such a
// flag takes the default its help names when left out, and refuses an
// explicit 0 (or a negative value), which would otherwise be taken silently
// for the default. Every command follows this one rule.
const unsetAnnotation = "hpcwl-unset-when-zero"

// positiveFlags marks the named flags of cmd with unsetAnnotation. It panics
// on an unknown name, a mistake in the command's wiring.
func positiveFlags(cmd *cobra.Command, names ...string) {
	for _, n := range names {
		if err := cmd.Flags().SetAnnotation(n, unsetAnnotation, []string{"true"}); err != nil {
			panic(err)
		}
	}
}

// checkPositiveFlags returns a usage error for a marked flag given as 0 or
// below. A value that does not parse is left to the command's own checks.
func checkPositiveFlags(cmd *cobra.Command) error {
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if err != nil || f.Annotations[unsetAnnotation] == nil {
			return
		}
		v := f.Value.String()
		var x float64
		var perr error
		if f.Value.Type() == "string" {
			var s int64
			s, perr = parseSpan(v)
			x = float64(s)
		} else {
			x, perr = strconv.ParseFloat(v, 64)
		}
		if perr == nil && !(x > 0) {
			err = usagef("--%s %s: must be above 0; leave --%s out for its default", f.Name, v, f.Name)
		}
	})
	return err
}
