package trace

import (
	"time"
)

// Clock converts a trace's relative times (seconds since UnixStartTime) to
// wall-clock time in the log's time zone.
//
// The zone comes from the header's TimeZoneString (an IANA name, so daylight
// saving time is accounted for); failing that, from its TimeZone offset; and
// failing both, UTC. The week starts on Monday 00:00 local time.
type Clock struct {
	// Start is the Unix time of relative time 0 (the header's UnixStartTime,
	// 0 when absent).
	Start int64
	// Loc is the log's time zone.
	Loc *time.Location
	// weekOrigin is the relative time of the Monday 00:00 local that begins
	// the week holding relative time 0.
	weekOrigin int64
}

// Clock returns the trace's clock.
func (t *Trace) Clock() *Clock {
	c := &Clock{Loc: time.UTC}
	if s, ok := t.Header.UnixStartTime(); ok {
		c.Start = s
	}
	if name, ok := t.Header.TimeZoneString(); ok {
		if loc, err := time.LoadLocation(name); err == nil {
			c.Loc = loc
		} else if off, ok := t.Header.TimeZone(); ok {
			c.Loc = time.FixedZone(name, int(off))
		}
	} else if off, ok := t.Header.TimeZone(); ok {
		c.Loc = time.FixedZone("", int(off))
	}
	t0 := c.Time(0)
	days := (int(t0.Weekday()) + 6) % 7 // days since Monday
	monday := time.Date(t0.Year(), t0.Month(), t0.Day()-days, 0, 0, 0, 0, c.Loc)
	c.weekOrigin = monday.Unix() - c.Start
	return c
}

// Time returns the local wall-clock time of relative time s.
func (c *Clock) Time(s int64) time.Time { return time.Unix(c.Start+s, 0).In(c.Loc) }

// HourOfDay returns the local hour of day of relative time s, in [0, 24).
func (c *Clock) HourOfDay(s int64) int { return c.HourOfWeek(s) % 24 }

// DayOfWeek returns the local day of week of s, 0 = Monday ... 6 = Sunday.
func (c *Clock) DayOfWeek(s int64) int { return c.HourOfWeek(s) / 24 }

// HourOfWeek returns the local hour of week of s, in [0, 168); hour 0 starts
// on Monday 00:00.
func (c *Clock) HourOfWeek(s int64) int {
	// One zone lookup for the offset, then arithmetic on local seconds
	// since the Unix epoch, a Thursday (time.Time's Weekday and Hour would
	// each look the zone up again).
	u := c.Start + s
	_, off := time.Unix(u, 0).In(c.Loc).Zone()
	local := u + int64(off)
	day := floorDiv(local, 86400)
	return int(floorMod(day+3, 7)*24 + (local-day*86400)/3600)
}

// floorDiv and floorMod divide rounding towards minus infinity.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// Week returns the index of the local week holding s; week 0 holds relative
// time 0 and weeks start on Monday 00:00. It ignores daylight-saving shifts,
// which move week boundaries by at most an hour.
func (c *Clock) Week(s int64) int {
	d := s - c.weekOrigin
	w := d / (7 * 86400)
	if d < 0 && d%(7*86400) != 0 {
		w--
	}
	return int(w)
}
