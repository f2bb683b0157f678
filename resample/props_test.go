package resample_test

import (
	"testing"

	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/trace"
)

// checkAligned checks that every generated job keeps its weekday and time
// of day (in the log's local time) and that each copy's jobs are its user's
// jobs, in order, with the original intervals.
func checkAligned(t *testing.T, orig *trace.Trace, w *resample.Workload) {
	t.Helper()
	clk := orig.Clock()
	bad := 0
	for i := range w.Jobs {
		j, o := &w.Jobs[i], &orig.Jobs[w.Source[i]]
		a, b := clk.Time(j.Submit), clk.Time(o.Submit)
		if a.Weekday() != b.Weekday() || a.Hour() != b.Hour() || a.Minute() != b.Minute() || a.Second() != b.Second() {
			if !dstGap(clk, j.Submit) && !dstGap(clk, o.Submit) {
				bad++
				if bad < 5 {
					t.Errorf("job %d: %v, original job %d: %v", j.ID, a, o.ID, b)
				}
			}
		}
		if o.User != w.CopyOf(i).User {
			t.Fatalf("job %d of copy %d (user %d) comes from user %d", j.ID, j.User, w.CopyOf(i).User, o.User)
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d jobs moved off their weekday or time of day", bad, len(w.Jobs))
	}
	// Per copy: the jobs follow their user's order, and the intervals in
	// local time are the original ones.
	local := func(t int64) int64 { _, off := clk.Time(t).Zone(); return t + int64(off) }
	last := map[int32]int{}
	for i := range w.Jobs {
		c := w.Jobs[i].User
		if k, ok := last[c]; ok {
			a, b := &orig.Jobs[w.Source[k]], &orig.Jobs[w.Source[i]]
			if a.Submit > b.Submit || a.Submit == b.Submit && a.ID >= b.ID {
				t.Fatalf("copy %d: job %d (original %d) after job %d (original %d)", c, w.Jobs[i].ID, b.ID, w.Jobs[k].ID, a.ID)
			}
			gotGap := local(w.Jobs[i].Submit) - local(w.Jobs[k].Submit)
			wantGap := local(b.Submit) - local(a.Submit)
			if gotGap != wantGap && !dstGap(clk, w.Jobs[i].Submit) && !dstGap(clk, w.Jobs[k].Submit) && !dstGap(clk, a.Submit) && !dstGap(clk, b.Submit) {
				t.Fatalf("copy %d: interval %d s in local time, originally %d s", c, gotGap, wantGap)
			}
		}
		last[c] = i
	}
}

// dstGap reports whether local time at t is within an hour of a
// daylight-saving change, where a local time can be skipped or repeated
// (a job submitted in a repeated hour may move by less than an hour to
// keep its copy's order).
func dstGap(clk *trace.Clock, t int64) bool {
	_, o1 := clk.Time(t - 3600).Zone()
	_, o2 := clk.Time(t + 3600).Zone()
	return o1 != o2
}
