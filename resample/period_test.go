package resample_test

import (
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/trace"
)

// A header period much longer than the jobs (gap.swf: 400 days before the
// first job, 148 after the last) must not dilute the default duration and
// the arrival rates.
func TestPeriodLeavesHeaderGapsOut(t *testing.T) {
	tr, err := trace.Load(testdata.Odd("gap.swf"), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	first, last := tr.Span()
	hEnd, _ := tr.HeaderEnd()
	tests := []struct {
		period     resample.Period
		start, end int64
		text       string
		warning    string
	}{
		// Submits 34,560,000 to 50,241,600 s: 15,681,600 s, 25.9 weeks.
		{resample.PeriodAuto, first, last, "submits", ": the log's period is submits, 25.9 weeks, leaving the gap out (--period header keeps it)"},
		{resample.PeriodHeader, 0, hEnd, "header", "include the gap"},
		{resample.PeriodSubmits, first, last, "submits", ""},
	}
	for _, tc := range tests {
		p, err := resample.Classify(tr, resample.ClassifyOptions{Period: tc.period})
		if err != nil {
			t.Fatal(err)
		}
		if p.Start != tc.start || p.End != tc.end || p.PeriodText() != tc.text {
			t.Errorf("%v: period %d..%d (%s), want %d..%d (%s)", tc.period, p.Start, p.End, p.PeriodText(), tc.start, tc.end, tc.text)
		}
		w := strings.Join(p.Warnings(), "\n")
		if tc.warning != "" && !strings.Contains(w, tc.warning) || tc.warning == "" && strings.Contains(w, "days before the first job") {
			t.Errorf("%v: warnings %q, want %q", tc.period, w, tc.warning)
		}
		wl, err := p.Generate(resample.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if wl.Params.Duration != tc.end-tc.start {
			t.Errorf("%v: default duration %d, want the period's %d", tc.period, wl.Params.Duration, tc.end-tc.start)
		}
	}
}
