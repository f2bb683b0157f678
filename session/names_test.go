package session

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseReduction(t *testing.T) {
	for _, r := range []Reduction{Transitive, Full, Recent} {
		if got, err := ParseReduction(strings.ToUpper(r.String())); err != nil || got != r {
			t.Errorf("ParseReduction(%q) = %v, %v", r, got, err)
		}
	}
	for _, r := range []Reduction{3, 7} { // 3: the first value past the names
		if s, want := r.String(), fmt.Sprintf("Reduction(%d)", int(r)); s != want {
			t.Errorf("Reduction(%d).String() = %q, want %q", int(r), s, want)
		}
	}
	if _, err := ParseReduction("none"); err == nil || !strings.Contains(err.Error(), "transitive, full, recent") {
		t.Errorf("ParseReduction(none): %v", err)
	}
}

// TestFormatDuration pins the compact forms and reads each back.
func TestFormatDuration(t *testing.T) {
	for sec, want := range map[int64]string{0: "0", 1: "1s", 59: "59s", 60: "1m", 90: "1m30s", 3600: "1h", 5400: "1h30m",
		86400: "1d", 86401: "1d1s", 2*86400 + 3661: "2d1h1m1s", -90: "-1m30s"} {
		got := FormatDuration(sec)
		if got != want {
			t.Errorf("FormatDuration(%d) = %q, want %q", sec, got, want)
		}
		if sec >= 0 {
			if back, err := ParseDuration(got); err != nil || back != sec {
				t.Errorf("ParseDuration(%q) = %d, %v; want %d", got, back, err, sec)
			}
		}
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string // part of the error, "" for none
	}{
		{Options{Method: Arrival, Threshold: 0}, ""},
		{Options{Method: Arrival, Threshold: -1}, "must be >= 0"},
		{Options{Method: Method(len(methodNames))}, "unknown method"},
		{Options{Method: MaxCut, Threshold: 1200, Cut: 1}, ""},
		{Options{Method: MaxCut, Threshold: 1200}, "needs a cut > 0"},
		{Options{Method: LastCut, Threshold: 1200, Cut: -5}, "needs a cut > 0"},
		{Options{Method: Max, Threshold: 1200}, ""},
	} {
		err := c.o.Validate()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: error %v, want %q", c.o, err, c.want)
		}
	}
}

// TestThinkText pins the labels of the edges of a session graph's DOT
// drawing at the bounds of each unit: seconds below 2 minutes, whole
// minutes below 2 hours, tenths of hours below 2 days, then days.
func TestThinkText(t *testing.T) {
	for _, c := range []struct {
		sec  int64
		want string
	}{
		{0, "0s"}, {119, "119s"}, {120, "2m"}, {179, "2m"}, {7199, "119m"}, {7200, "2.0h"},
		{9000, "2.5h"}, {172799, "48.0h"}, {172800, "2.0d"}, {216000, "2.5d"},
	} {
		if got := thinkText(c.sec); got != c.want {
			t.Errorf("thinkText(%d) = %q, want %q", c.sec, got, c.want)
		}
	}
}
