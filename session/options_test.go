package session

import (
	"strings"
	"testing"
)

func TestParseDuration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		err  string
	}{
		{"90s", 90, ""}, {"20m", 1200, ""}, {"60min", 3600, ""}, {"1h", 3600, ""},
		{"1h30m", 5400, ""}, {"2d", 172800, ""}, {"1d12h", 129600, ""}, {"0", 0, ""},
		{"60", 0, "has no unit"}, {"", 0, "empty"}, {"-5m", 0, "bad duration"},
		{"1.5s", 0, "whole number"}, {"soon", 0, "bad duration"}, {"5x", 0, "90s, 20m, 1h"},
		// The day count's bounds: 0 and 100,000 days are accepted, 100,001 is not.
		{"0d", 0, ""}, {"0d1h", 3600, ""}, {"100000d", 8640000000, ""}, {"100001d", 0, "bad duration"},
	} {
		got, err := ParseDuration(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseDuration(%q) = %d, %v; want error containing %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseDuration(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Options
		err  string
	}{
		{"arrival:60m", Options{Arrival, 3600, 0}, ""},
		{"arrival", Options{Arrival, 3600, 0}, ""},
		{"a0", Options{Interarrival, 0, 0}, ""},
		{"a60", Options{Interarrival, 3600, 0}, ""},
		{"madon:30m", Options{Interarrival, 1800, 0}, ""},
		{"last:20m", Options{Last, 1200, 0}, ""},
		{"max+cut:20m:2h", Options{MaxCut, 1200, 7200}, ""},
		{"last+cut", Options{LastCut, 1200, 3600}, ""},
		{"arrival:60", Options{}, "no unit"},
		{"arrival:1h:1h", Options{}, "only last+cut"},
		{"sessions", Options{}, "unknown session method"},
		{"max+cut:20m:0", Options{}, "needs a cut"},
		{"a9", Options{Interarrival, 540, 0}, ""},
		{"interarrival:90s", Options{Interarrival, 90, 0}, ""},
		{"a", Options{}, "unknown session method"},
	} {
		got, err := ParseSpec(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseSpec(%q) = %v, %v; want error containing %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseSpec(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
		if back, err := ParseSpec(got.String()); err != nil || back != got {
			t.Errorf("round trip of %q via %q gave %+v, %v", tc.in, got.String(), back, err)
		}
	}
}

// TestSpecString pins the form in which options are written (in output
// headers and provenance): Madon's aN where the threshold is whole minutes.
func TestSpecString(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Interarrival, 3600, 0}, "a60"}, {Options{Interarrival, 0, 0}, "a0"},
		{Options{Interarrival, 90, 0}, "interarrival:1m30s"}, {Options{Arrival, 3600, 0}, "arrival:1h"},
		{Options{MaxCut, 1200, 3600}, "max+cut:20m:1h"}, {Options{Method(6), 60, 0}, "Method(6):1m"},
	} {
		if got := c.o.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.o, got, c.want)
		}
	}
}
