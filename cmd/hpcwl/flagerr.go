package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
)

// pflagInvalid matches the message pflag gives for a value it cannot parse:
// `invalid argument "V" for "-o, --name" flag: strconv.ParseX: ...`.
var pflagInvalid = regexp.MustCompile(`^invalid argument "((?:[^"\\]|\\.)*)" for "(?:-\w, )?--([\w-]+)" flag: (.*)$`)

// flagError rewrites pflag's parse errors, which quote strconv, into
// messages that say what the flag expects; other errors pass unchanged. The
// result is a usage error.
func flagError(cmd *cobra.Command, err error) error {
	m := pflagInvalid.FindStringSubmatch(err.Error())
	if m == nil {
		return usageError{err}
	}
	value, name, cause := m[1], m[2], m[3]
	if len(value) > 40 {
		value = value[:40] + "..."
	}
	typ := ""
	if f := cmd.Flags().Lookup(name); f != nil {
		typ = f.Value.Type()
	}
	outOfRange := strings.Contains(cause, "out of range")
	var want string
	switch typ {
	case "uint", "uint8", "uint16", "uint32", "uint64":
		want = "a whole number >= 0"
		if outOfRange {
			want += fmt.Sprintf(" no larger than the %s range", typ)
		}
	case "int", "int8", "int16", "int32", "int64":
		want = "a whole number (digits only, no exponent or fraction)"
		if outOfRange {
			want = "a whole number within the " + typ + " range"
		}
	case "float32", "float64":
		want = "a number (e.g. 0.7, 1e3)"
	case "bool":
		want = "true or false"
	case "duration":
		want = "a duration such as 90s, 20m or 1h30m"
	default:
		return usageError{fmt.Errorf("--%s: %q is not a valid value", name, m[1])}
	}
	if outOfRange {
		return usageError{fmt.Errorf("--%s: %s is out of range; expected %s", name, quoteShort(value), want)}
	}
	return usageError{fmt.Errorf("--%s: %s is not %s", name, quoteShort(value), want)}
}

// quoteShort quotes s (already shortened by the caller when needed).
func quoteShort(s string) string { return `"` + s + `"` }
