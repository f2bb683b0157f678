package session

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// durationForms lists what [ParseDuration] accepts, for error messages.
const durationForms = `a number with a unit: 90s, 20m, 1h, 1h30m, 2d; or 0`

// ParseDuration parses a duration with a unit, as in "90s", "20m", "60min",
// "1h", "1h30m" or "2d", and returns it in whole seconds. A bare "0" is
// accepted; a bare non-zero number is rejected because its unit would be a
// guess. Negative, fractional-second and non-finite values are rejected with
// the accepted forms.
func ParseDuration(s string) (int64, error) {
	in := strings.TrimSpace(strings.ToLower(s))
	if in == "0" {
		return 0, nil
	}
	if in == "" {
		return 0, fmt.Errorf("empty duration; use %s", durationForms)
	}
	if _, err := strconv.ParseFloat(in, 64); err == nil {
		return 0, fmt.Errorf("duration %q has no unit; use %s", s, durationForms)
	}
	var days int64
	if i := strings.Index(in, "d"); i > 0 {
		n, err := strconv.ParseInt(in[:i], 10, 64)
		if err != nil || n < 0 || n > 100000 {
			return 0, fmt.Errorf("bad duration %q; use %s", s, durationForms)
		}
		days, in = n, in[i+1:]
		if in == "" {
			return days * 86400, nil
		}
	}
	in = strings.ReplaceAll(in, "min", "m")
	in = strings.ReplaceAll(in, "sec", "s")
	d, err := time.ParseDuration(in)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("bad duration %q; use %s", s, durationForms)
	}
	if d%time.Second != 0 {
		return 0, fmt.Errorf("duration %q is not a whole number of seconds; use %s", s, durationForms)
	}
	return days*86400 + int64(d/time.Second), nil
}

// FormatDuration formats seconds compactly: "0", "90s", "20m", "1h",
// "1h30m", "2d".
func FormatDuration(sec int64) string {
	if sec == 0 {
		return "0"
	}
	var b strings.Builder
	if sec < 0 {
		b.WriteByte('-')
		sec = -sec
	}
	for _, u := range []struct {
		n    int64
		name string
	}{{86400, "d"}, {3600, "h"}, {60, "m"}, {1, "s"}} {
		if sec >= u.n {
			fmt.Fprintf(&b, "%d%s", sec/u.n, u.name)
			sec %= u.n
		}
	}
	return b.String()
}
