package resample

import (
	"sort"
	"time"

	"github.com/hpcwl/hpcwl/trace"
)

// Week is the length of a week in seconds.
const Week = 7 * 86400

// calendar does week arithmetic in a log's local time, so that shifting a
// job by whole weeks keeps its local day of week and time of day across
// daylight-saving changes (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 3, section 4).
//
// Times are relative to the log's UnixStartTime, as in SWF. The local time
// of relative time t is l = t + offset(t); weeks are counted in local time
// from the Monday 00:00 that begins the week holding time 0 (week 0), as
// trace.Clock does.
type calendar struct {
	start  int64   // UnixStartTime
	segT   []int64 // relative start times of the zone-offset segments
	segOff []int64 // their UTC offsets, s
	origin int64   // local time of Monday 00:00 of week 0
}

// newCalendar covers relative times lo..hi (beyond them the nearest
// segment's offset applies).
func newCalendar(clk *trace.Clock, lo, hi int64) *calendar {
	c := &calendar{start: clk.Start}
	t := lo
	for {
		tm := time.Unix(c.start+t, 0).In(clk.Loc)
		_, off := tm.Zone()
		c.segT = append(c.segT, t)
		c.segOff = append(c.segOff, int64(off))
		_, end := tm.ZoneBounds()
		if end.IsZero() || end.Unix()-c.start > hi || len(c.segT) > 1<<16 {
			break
		}
		t = end.Unix() - c.start
	}
	t0 := time.Unix(c.start, 0).In(clk.Loc)
	sinceMonday := int64((int(t0.Weekday())+6)%7)*86400 + int64(t0.Hour()*3600+t0.Minute()*60+t0.Second())
	c.origin = c.local(0) - sinceMonday
	return c
}

// offset returns the UTC offset at relative time t.
func (c *calendar) offset(t int64) int64 {
	if len(c.segT) == 1 {
		return c.segOff[0]
	}
	i := sort.Search(len(c.segT), func(i int) bool { return c.segT[i] > t }) - 1
	if i < 0 {
		i = 0
	}
	return c.segOff[i]
}

// local returns the local time of relative time t.
func (c *calendar) local(t int64) int64 { return t + c.offset(t) }

// fromLocal returns the relative time whose local time is l. A local time
// skipped by a daylight-saving change maps an hour away; a repeated one
// maps to its first occurrence.
func (c *calendar) fromLocal(l int64) int64 {
	if len(c.segT) == 1 {
		return l - c.segOff[0]
	}
	o := c.offset(l)
	t := l - o
	if o2 := c.offset(t); o2 != o {
		if c.local(l-o2) == l {
			t = l - o2
		}
	}
	return t
}

// week returns the local week index of relative time t.
func (c *calendar) week(t int64) int { return weekOfLocal(c.local(t) - c.origin) }

// weekOfLocal returns floor(d / Week).
func weekOfLocal(d int64) int {
	w := d / Week
	if d < 0 && d%Week != 0 {
		w--
	}
	return int(w)
}

// weekStart returns the relative time at which local week k begins.
func (c *calendar) weekStart(k int) int64 { return c.fromLocal(c.origin + int64(k)*Week) }
