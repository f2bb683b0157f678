package resample

import (
	"testing"
	"time"

	"github.com/hpcwl/hpcwl/trace"
)

// TestCalendarDaylightSaving checks local and fromLocal to the second
// around the two daylight-saving changes of 2001 in Stockholm: local time
// is the zone's, and fromLocal inverts it (a local time of the autumn
// hour, which occurs twice, to one of its two times; one of the spring
// hour, which never occurs, to a time an hour away).
func TestCalendarDaylightSaving(t *testing.T) {
	loc, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2001, 1, 4, 14, 30, 20, 0, time.UTC).Unix()
	c := newCalendar(&trace.Clock{Start: start, Loc: loc}, 0, 60*Week)
	spring := time.Date(2001, 3, 25, 1, 0, 0, 0, time.UTC).Unix() - start
	autumn := time.Date(2001, 10, 28, 1, 0, 0, 0, time.UTC).Unix() - start
	for _, change := range []int64{spring, autumn} {
		for d := int64(-7200); d <= 7200; d++ {
			if d > 3 && d < 3597 && d%300 != 0 || d < -3 && d > -7197 && d%300 != 0 {
				continue // every 5 min, and every second near the changes
			}
			rt := change + d
			_, off := time.Unix(start+rt, 0).In(loc).Zone()
			l := c.local(rt)
			if l != rt+int64(off) {
				t.Fatalf("local(%d) = %d, want %d (offset %d s)", rt, l, rt+int64(off), off)
			}
			// A local time of the autumn hour occurs twice: fromLocal
			// may give either time; elsewhere it gives rt back.
			got := c.fromLocal(l)
			twice := change == autumn && d >= -3600 && d < 3600
			if got != rt && (!twice || c.local(got) != l || got-rt != 3600 && rt-got != 3600) {
				t.Fatalf("fromLocal(local(%d)) = %d, want %d", rt, got, rt)
			}
		}
	}
	// 02:30 on 25 March never occurs in Stockholm.
	skipped := c.local(spring-1) + 1 + 1800
	if got := c.local(c.fromLocal(skipped)); got-skipped != 3600 && skipped-got != 3600 {
		t.Errorf("a skipped local time maps to local %d, want an hour from %d", got, skipped)
	}
}

// TestCalendarFixedOffset checks a zone without daylight saving but with
// an offset (Tokyo, UTC+9): local and fromLocal add and remove 9 hours.
func TestCalendarFixedOffset(t *testing.T) {
	loc, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	c := newCalendar(&trace.Clock{Start: 978307200, Loc: loc}, 0, 60*Week)
	for _, rt := range []int64{0, 1, 86399, 30 * Week} {
		if l := c.local(rt); l != rt+9*3600 || c.fromLocal(l) != rt {
			t.Errorf("local(%d) = %d, fromLocal back %d; want %d and %d", rt, l, c.fromLocal(l), rt+9*3600, rt)
		}
	}
}

// TestWeekOfLocal checks the floor division of local seconds into weeks,
// on both sides of week 0 and at the week boundaries.
func TestWeekOfLocal(t *testing.T) {
	for d, want := range map[int64]int{0: 0, 1: 0, Week - 1: 0, Week: 1, 3*Week + 5: 3, -1: -1, -Week + 1: -1, -Week: -1, -Week - 1: -2, -2 * Week: -2} {
		if got := weekOfLocal(d); got != want {
			t.Errorf("weekOfLocal(%d) = %d, want %d", d, got, want)
		}
	}
}

// TestPickWeighted checks the weighted choice at the edges of each
// weight's interval, zero weights skipped, and an overshoot.
func TestPickWeighted(t *testing.T) {
	w := []float64{0, 2, 0, 3}
	for _, c := range []struct {
		x    float64
		want int
	}{{0, 1}, {1.99, 1}, {2, 3}, {4.99, 3}, {5, 3}, {7, 3}} {
		if got := pickWeighted(w, c.x); got != c.want {
			t.Errorf("pickWeighted(%v, %v) = %d, want %d", w, c.x, got, c.want)
		}
	}
	if got := pickWeighted([]float64{1, 1, 1}, 1.5); got != 1 {
		t.Errorf("pickWeighted([1 1 1], 1.5) = %d, want 1", got)
	}
	if got := pickWeighted([]float64{0, 0}, 0); got != -1 {
		t.Errorf("no positive weight: %d, want -1", got)
	}
}
