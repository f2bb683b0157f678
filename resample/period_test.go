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

// TestPeriodOneGap: with a gap at one end only, the automatic period
// leaves that gap out and keeps the header's other end. The jobs of users 1
// and 2 run from Monday 2001-01-01 09:01 (32,460 s) to week 29's Friday,
// 27 July, 09:02 (17,917,320 s). With the header ending 70 days later (5
// October) the period is 0 to the last submit; with the jobs moved 10
// weeks later (6,080,460 to 23,965,320 s, 5 October 09:02) and the header
// ending a day after the last, 6 October 09:02 (24,051,720 s), it is the
// first submit to the header's end.
func TestPeriodOneGap(t *testing.T) {
	tail := synth(30, "UTC", map[int32][2]int{1: {0, 29}, 2: {0, 29}})
	tail.Header.Set("EndTime", "Fri Oct 5 09:02:00 UTC 2001")
	lead := synth(30, "UTC", map[int32][2]int{1: {0, 29}, 2: {0, 29}})
	for i := range lead.Jobs {
		lead.Jobs[i].Submit += 10 * week
	}
	lead.Header.Set("EndTime", "Sat Oct 6 09:02:00 UTC 2001")
	tests := []struct {
		name       string
		tr         *trace.Trace
		start, end int64
		text       string
	}{
		{"tail", tail, 0, 17917320, "header start to last submit"},
		{"lead", lead, 6080460, 24051720, "first submit to header end"},
	}
	for _, tc := range tests {
		p, err := resample.Classify(tc.tr, resample.ClassifyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if p.Start != tc.start || p.End != tc.end || p.PeriodText() != tc.text {
			t.Errorf("%s: period %d..%d (%s), want %d..%d (%s)", tc.name, p.Start, p.End, p.PeriodText(), tc.start, tc.end, tc.text)
		}
	}
}

// TestHeaderSourceLines: a resampled log's header gives the source's
// SHA-256 when it is known (a log read from a file), and the command when
// one is given.
func TestHeaderSourceLines(t *testing.T) {
	file, err := trace.Load(testdata.Odd("gap.swf"), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mem := synth(30, "UTC", spans30)
	for _, tr := range []*trace.Trace{file, mem} {
		w, err := resample.Generate(tr, resample.ClassifyOptions{}, resample.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{"", "hpcwl resample"} {
			h := w.Trace(cmd).Header
			sha, ok := h.Get(resample.KeySHA256)
			if ok != (tr.SHA256 != "") || sha != tr.SHA256 {
				t.Errorf("%s: SHA-256 line %q (%v), want %q", tr.Name, sha, ok, tr.SHA256)
			}
			c, ok := h.Get(resample.KeyCommand)
			if ok != (cmd != "") || c != cmd {
				t.Errorf("%s: command line %q (%v), want %q", tr.Name, c, ok, cmd)
			}
		}
	}
	// The period in the parameters: the automatic one with the bounds it
	// took (gap.swf's submits), or the one asked for.
	for _, c := range []struct {
		period resample.Period
		want   string
	}{{resample.PeriodAuto, " period=auto:submits "}, {resample.PeriodHeader, " period=header "}} {
		w, err := resample.Generate(file, resample.ClassifyOptions{Period: c.period}, resample.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := w.Trace("").Header.Get(resample.KeyParams); !strings.Contains(v, c.want) {
			t.Errorf("%v: parameters %q, want %q", c.period, v, c.want)
		}
	}
}
