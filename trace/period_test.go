package trace

import (
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
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
