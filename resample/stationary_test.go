package resample_test

import (
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// loadLog is a log on a 10-processor machine whose week w has load x[w]:
// x[w] jobs of 10 processors running a week each, submitted at the week's
// hours 1, 2, ..., by users 1 to 3 in turn.
func loadLog(x []int) *trace.Trace {
	var h swf.Header
	h.Set("UnixStartTime", "978307200") // a Monday, 00:00 UTC
	h.Set("TimeZoneString", "UTC")
	h.Set("MaxProcs", "10")
	var jobs []trace.Job
	for w, n := range x {
		for i := 0; i < n; i++ {
			jobs = append(jobs, trace.Job{ID: int64(len(jobs) + 1), Submit: int64(w*week + (i+1)*3600), Wait: 0,
				Runtime: week, Procs: 10, ReqProcs: -1, ReqTime: -1, User: int32(1 + len(jobs)%3), Group: -1, App: -1,
				Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1, Status: 1, AvgCPU: -1, UsedMem: -1, ReqMem: -1})
		}
	}
	t := trace.New(h, jobs, trace.Options{})
	t.Name = "loads"
	return t
}

// TestWeeklySegmentsByHand segments the 16 weekly loads
// 1 2 4 3 1 2 4 3 7 9 8 10 7 9 8 10 with segments of at least 4 weeks.
//
// The week-to-week differences 1 2 -1 -2 1 2 -1 4 2 -1 2 -3 2 -1 2 have
// median 1 and absolute deviations from it with median 1, so sigma =
// 1/(0.6745 sqrt 2) and the penalty is P 2 sigma^2 ln 16 = 6.0943 P. The
// whole series has a squared error of 164 about its mean 5.5; cut after
// week 7 the halves have 10 each (means 2.5 and 8.5), a gain of 144, the
// best cut: made when 144 > 6.0943 P, P < 23.63. Neither half gains from
// its only allowed cut (after its fourth week: two equal halves).
func TestWeeklySegmentsByHand(t *testing.T) {
	x := []int{1, 2, 4, 3, 1, 2, 4, 3, 7, 9, 8, 10, 7, 9, 8, 10}
	// The same loads after 0 and after 2 weeks without jobs: the period
	// (first to last submit) starts in week 0 or 2.
	for _, lead := range []int{0, 2} {
		weeks := append(make([]int, lead), x...)
		p, err := resample.Classify(loadLog(weeks), resample.ClassifyOptions{Period: resample.PeriodSubmits})
		if err != nil {
			t.Fatal(err)
		}
		load, w0 := p.WeeklyLoad(10)
		if w0 != lead || len(load) != len(x) {
			t.Fatalf("WeeklyLoad: %d weeks from %d, want %d from %d", len(load), w0, len(x), lead)
		}
		for w := range x {
			if !(math.Abs(load[w]-float64(x[w])) <= 1e-12) {
				t.Errorf("lead %d, week %d: load %v, want %d", lead, w, load[w], x[w])
			}
		}
		segmentsByHand(t, p, int64(lead))
	}
}

func segmentsByHand(t *testing.T, p *resample.Pools, lead int64) {
	t.Helper()
	sd := math.Sqrt(10.0 / 7) // squared error 10 over 8 weeks
	first, last := lead*week+3600, (lead+15)*week+10*3600
	w := int(lead)
	two := []resample.Segment{
		{FirstWeek: w, LastWeek: w + 7, Start: first, End: (lead + 8) * week, MeanLoad: 2.5, SDLoad: sd},
		{FirstWeek: w + 8, LastWeek: w + 15, Start: (lead + 8) * week, End: last + 1, MeanLoad: 8.5, SDLoad: sd},
	}
	one := []resample.Segment{{FirstWeek: w, LastWeek: w + 15, Start: first, End: last + 1, MeanLoad: 5.5,
		SDLoad: math.Sqrt(164.0 / 15)}}
	for _, tc := range []struct {
		opt  resample.SegmentOptions
		want []resample.Segment
	}{
		{resample.SegmentOptions{MinWeeks: 4}, two}, // the default penalty, 1
		{resample.SegmentOptions{MinWeeks: 4, Penalty: 23}, two},
		{resample.SegmentOptions{MinWeeks: 4, Penalty: 24}, one},
		{resample.SegmentOptions{}, one},            // 13 weeks at least: no cut fits
		{resample.SegmentOptions{MinWeeks: 8}, two}, // the only cut allowed
		{resample.SegmentOptions{MinWeeks: 9}, one},
		{resample.SegmentOptions{MinWeeks: 1, Penalty: 1e9}, one},
	} {
		segs, err := p.WeeklySegments(10, tc.opt)
		if err != nil {
			t.Errorf("%+v: %v", tc.opt, err)
			continue
		}
		if len(segs) != len(tc.want) {
			t.Errorf("lead %d, %+v: %d segments %+v, want %d", lead, tc.opt, len(segs), segs, len(tc.want))
			continue
		}
		for i, s := range segs {
			w := tc.want[i]
			if s.FirstWeek != w.FirstWeek || s.LastWeek != w.LastWeek || s.Start != w.Start || s.End != w.End ||
				!(math.Abs(s.MeanLoad-w.MeanLoad) <= 1e-9) || !(math.Abs(s.SDLoad-w.SDLoad) <= 1e-6) {
				t.Errorf("lead %d, %+v: segment %d = %+v, want %+v", lead, tc.opt, i, s, w)
			}
			if s.Weeks() != w.LastWeek-w.FirstWeek+1 {
				t.Errorf("segment %d: %d weeks", i, s.Weeks())
			}
		}
	}
	for _, opt := range []resample.SegmentOptions{{MinWeeks: -1}, {Penalty: -1}, {Penalty: math.Inf(1)}, {Penalty: math.NaN()}} {
		if _, err := p.WeeklySegments(10, opt); err == nil {
			t.Errorf("%+v accepted", opt)
		}
	}
	if _, err := p.WeeklySegments(0, resample.SegmentOptions{}); err == nil {
		t.Error("a machine of 0 processors accepted")
	}
}

// TestLongestSegment takes the first of the longest.
func TestLongestSegment(t *testing.T) {
	seg := func(a, b int) resample.Segment { return resample.Segment{FirstWeek: a, LastWeek: b} }
	for _, tc := range []struct {
		segs []resample.Segment
		want int
	}{
		{[]resample.Segment{seg(0, 7), seg(8, 15)}, 0},
		{[]resample.Segment{seg(0, 2), seg(3, 7), seg(8, 12)}, 1},
		{[]resample.Segment{seg(0, 2), seg(3, 4), seg(5, 12)}, 2},
	} {
		if got := resample.LongestSegment(tc.segs); got != tc.want {
			t.Errorf("LongestSegment(%v) = %d, want %d", tc.segs, got, tc.want)
		}
	}
}

// TestWeeklySegmentsTie: the loads 1 (6 weeks), 5 (4 weeks), 1 (6 weeks)
// with segments of at least 6 weeks gain 9.6 by a cut after week 5 or after
// week 9 (48 squared error about the mean 2, 38.4 left on the other side),
// less elsewhere; the first of the two is made, and no further cut fits.
func TestWeeklySegmentsTie(t *testing.T) {
	p, err := resample.Classify(loadLog([]int{1, 1, 1, 1, 1, 1, 5, 5, 5, 5, 1, 1, 1, 1, 1, 1}),
		resample.ClassifyOptions{Period: resample.PeriodSubmits})
	if err != nil {
		t.Fatal(err)
	}
	segs, err := p.WeeklySegments(10, resample.SegmentOptions{MinWeeks: 6})
	if err != nil {
		t.Fatal(err)
	}
	if len(segs) != 2 || segs[0].LastWeek != 5 || segs[1].FirstWeek != 6 {
		t.Errorf("segments %+v, want weeks 0-5 and 6-15", segs)
	}
}

// TestSegmentBounds resamples the part of loadLog's 16 weeks from its
// first job (3600 s) to the first job of week 14 (14 weeks and 3600 s),
// which holds the job at its start and not the one at its end: the 70 jobs
// of weeks 0-13.
func TestSegmentBounds(t *testing.T) {
	x := []int{1, 2, 4, 3, 1, 2, 4, 3, 7, 9, 8, 10, 7, 9, 8, 10}
	p, err := resample.Classify(loadLog(x), resample.ClassifyOptions{Period: resample.PeriodSubmits})
	if err != nil {
		t.Fatal(err)
	}
	sp, err := p.Segment(resample.Segment{FirstWeek: 0, LastWeek: 13, Start: 3600, End: 14*week + 3600})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(sp.Trace.Jobs); n != 70 {
		t.Errorf("%d jobs in the segment, want 70", n)
	}
}
