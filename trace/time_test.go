package trace_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/hpcwl/hpcwl/trace"
)

// TestClockAgainstTime checks the clock's local hour and day against the
// time package's, in zones with and without daylight saving time, around
// the transitions and on both sides of the Unix epoch.
func TestClockAgainstTime(t *testing.T) {
	var locs []*time.Location
	for _, name := range []string{"Europe/Stockholm", "America/Los_Angeles", "Australia/Lord_Howe"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Logf("no zone data for %s: %v", name, err)
			continue
		}
		locs = append(locs, loc)
	}
	locs = append(locs, time.UTC, time.FixedZone("", -7*3600-1800), time.FixedZone("", 13*3600))
	rng := rand.New(rand.NewPCG(5, 6))
	for _, loc := range locs {
		for _, start := range []int64{0, 843480031, -86400*400 - 1234} {
			c := &trace.Clock{Start: start, Loc: loc}
			for k := 0; k < 5000; k++ {
				s := rng.Int64N(3*365*86400) - 365*86400
				if k%2 == 0 {
					s = s / 3600 * 3600 // on the hour, where transitions happen
				}
				lt := time.Unix(start+s, 0).In(loc)
				wantDay, wantHour := (int(lt.Weekday())+6)%7, lt.Hour()
				if d, h, how := c.DayOfWeek(s), c.HourOfDay(s), c.HourOfWeek(s); d != wantDay || h != wantHour || how != wantDay*24+wantHour {
					t.Fatalf("%v start %d s %d (%v): day %d hour %d hour-of-week %d, want %d %d", loc, start, s, lt, d, h, how, wantDay, wantHour)
				}
			}
		}
	}
}
