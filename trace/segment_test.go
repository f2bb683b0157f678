package trace

import (
	"testing"

	"github.com/hpcwl/hpcwl/swf"
)

// TestSegments cuts a log of jobs at 0, 5, 10, 14 and 25 s into segments of
// 10 s: [0, 10) holds the first two, [10, 20) the next one with its submit
// now 4, and [20, 30) is incomplete (the log ends at 26 s) and left out.
func TestSegments(t *testing.T) {
	var h swf.Header
	h.Set("UnixStartTime", "1000")
	h.Set("TimeZoneString", "UTC")
	var jobs []Job
	for i, s := range []int64{0, 5, 10, 14, 25} {
		jobs = append(jobs, Job{ID: int64(i + 1), Submit: s, Runtime: 1, Procs: 1, ReqProcs: 1, Wait: 0})
	}
	tr := New(h, jobs, Options{Procs: 4})
	tr.Name = "x"
	segs := tr.Segments(10)
	if len(segs) != 2 {
		t.Fatalf("%d segments, want 2", len(segs))
	}
	if segs[0].Len() != 2 || segs[1].Len() != 2 {
		t.Fatalf("segment sizes %d, %d, want 2, 2", segs[0].Len(), segs[1].Len())
	}
	if s := segs[1].Jobs[0].Submit; s != 0 {
		t.Errorf("second segment's first submit %d, want 0 (10 - 10)", s)
	}
	if s := segs[1].Jobs[1].Submit; s != 4 {
		t.Errorf("second segment's second submit %d, want 4", s)
	}
	if v, _ := segs[1].Header.Get("UnixStartTime"); v != "1010" {
		t.Errorf("second segment's UnixStartTime %q, want 1010", v)
	}
	if segs[0].Name != "x [0, 10)" {
		t.Errorf("name %q", segs[0].Name)
	}
}

// TestSegmentsEnd: a log whose last job is submitted at 19 s ends at 20 s,
// so [10, 20) is complete; a header EndTime of 30 s makes [20, 30) a
// third, empty segment, whose header starts at 1020 and ends at 1030.
func TestSegmentsEnd(t *testing.T) {
	var h swf.Header
	h.Set("UnixStartTime", "1000")
	h.Set("TimeZoneString", "UTC")
	var jobs []Job
	for i, s := range []int64{0, 5, 10, 19} {
		jobs = append(jobs, Job{ID: int64(i + 1), Submit: s, Runtime: 1, Procs: 1, ReqProcs: 1, Wait: 0})
	}
	segs := New(h, jobs, Options{Procs: 4}).Segments(10)
	if len(segs) != 2 || segs[1].Len() != 2 || segs[1].Jobs[1].Submit != 9 {
		t.Fatalf("%d segments, want 2 with the jobs at 10 and 19 s (now 0 and 9) in the second", len(segs))
	}
	h.Set("EndTime", "Thu Jan  1 00:17:10 UTC 1970") // 1030
	segs = New(h, jobs, Options{Procs: 4}).Segments(10)
	if len(segs) != 3 || segs[2].Len() != 0 {
		t.Fatalf("%d segments, want 3, the last empty", len(segs))
	}
	for key, want := range map[string]string{"UnixStartTime": "1020", "StartTime": "Thu Jan 01 00:17:00 UTC 1970",
		"EndTime": "Thu Jan 01 00:17:10 UTC 1970"} {
		if v, _ := segs[2].Header.Get(key); v != want {
			t.Errorf("third segment's %s = %q, want %q", key, v, want)
		}
	}
	if segs[2].Procs != 4 {
		t.Errorf("third segment's procs %d, want 4", segs[2].Procs)
	}
}

// TestSegmentsBeforeZero: jobs submitted before relative time 0 (a log
// whose header starts after its first jobs) belong to no segment; the first
// segment starts at 0 with the jobs at 0 and 3 s.
func TestSegmentsBeforeZero(t *testing.T) {
	var jobs []Job
	for i, s := range []int64{-20, -5, 0, 3, 12} {
		jobs = append(jobs, Job{ID: int64(i + 1), Submit: s, Runtime: 1, Procs: 1, ReqProcs: 1})
	}
	segs := New(swf.Header{}, jobs, Options{Procs: 4}).Segments(10)
	if len(segs) != 1 || segs[0].Len() != 2 || segs[0].Jobs[0].ID != 3 || segs[0].Jobs[1].ID != 4 {
		t.Fatalf("segments %v, want one holding jobs 3 and 4", segs)
	}
}
