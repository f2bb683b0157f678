package resample_test

import (
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/resample"
)

func TestParseClass(t *testing.T) {
	for _, c := range []resample.Class{resample.LongTerm, resample.Temporary, resample.Discarded, resample.Rare} {
		if got, err := resample.ParseClass(c.String()); err != nil || got != c {
			t.Errorf("ParseClass(%q) = %v, %v", c, got, err)
		}
	}
	if _, err := resample.ParseClass("permanent"); err == nil || !strings.Contains(err.Error(), "long-term, temporary, discarded, rare") {
		t.Errorf("ParseClass(permanent): %v", err)
	}
}

// TestWeeks checks the log's length in weeks, rounded up, for logs that
// do not start at time 0.
func TestWeeks(t *testing.T) {
	for _, c := range []struct {
		start, end int64
		want       int
	}{{0, 30 * week, 30}, {5 * week, 35 * week, 30}, {5 * week, 35*week + 1, 31}, {5 * week, 35*week - 1, 30}, {day, day + 1, 1}} {
		if got := (&resample.Pools{Start: c.start, End: c.end}).Weeks(); got != c.want {
			t.Errorf("from %d to %d: %d weeks, want %d", c.start, c.end, got, c.want)
		}
	}
}
