package trace

import (
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/swf"
)

func TestHeaderGaps(t *testing.T) {
	tests := []struct {
		file       string
		lead, tail int64
	}{
		{"gap.swf", 400 * 86400, 730*86400 - (400*86400 + 363*43200)},
		{"status.swf", 0, 0},
	}
	for _, tc := range tests {
		tr, err := Load(testdata.Odd(tc.file), Options{Lenient: true})
		if err != nil {
			t.Fatal(err)
		}
		g := tr.HeaderGaps()
		if g.Lead != tc.lead || g.Tail != tc.tail {
			t.Errorf("%s: gaps %+v, want lead %d tail %d", tc.file, g, tc.lead, tc.tail)
		}
		if g.Any() != strings.Contains(g.String(), "days before") {
			t.Errorf("%s: description %q", tc.file, g.String())
		}
	}
}

func TestDetectGapsThreshold(t *testing.T) {
	tests := []struct {
		first, last, end int64
		hasEnd           bool
		want             Gaps
	}{
		{GapThreshold, 100 * 86400, 100*86400 + GapThreshold, true, Gaps{}},
		{GapThreshold + 1, 100 * 86400, 100*86400 + GapThreshold + 1, true, Gaps{GapThreshold + 1, GapThreshold + 1}},
		{0, 100 * 86400, 400 * 86400, false, Gaps{}},
	}
	for _, tc := range tests {
		if got := DetectGaps(tc.first, tc.last, tc.end, tc.hasEnd); got != tc.want {
			t.Errorf("DetectGaps(%d, %d, %d, %v) = %+v, want %+v", tc.first, tc.last, tc.end, tc.hasEnd, got, tc.want)
		}
	}
}

// TestGapsString pins the sentences: a lead alone, a tail alone, both, none.
func TestGapsString(t *testing.T) {
	for _, tc := range []struct {
		g    Gaps
		want string
	}{
		{Gaps{Lead: 29 * 86400}, "the header's period starts 29.0 days before the first job (more than 28 days without jobs)"},
		{Gaps{Tail: 30*86400 + 43200}, "ends 30.5 days after the last job (more than 28 days without jobs)"},
		{Gaps{Lead: 36 * 3600 * 24, Tail: 1}, "the header's period starts 36.0 days before the first job and ends 0.0 days after the last job (more than 28 days without jobs)"},
		{Gaps{}, ""},
	} {
		if got := tc.g.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.g, got, tc.want)
		}
		if tc.g.Any() != (tc.want != "") {
			t.Errorf("%+v: Any() = %v", tc.g, tc.g.Any())
		}
	}
	if g := New(swf.Header{}, nil, Options{}).HeaderGaps(); g != (Gaps{}) {
		t.Errorf("no jobs: gaps %+v", g)
	}
}
