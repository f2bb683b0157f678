package feedback

import (
	"math"
	"testing"
	"time"

	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// TestLatenessByHand works the lateness of a small log out by hand. Jobs
// (user, recorded submit, simulated submit): (5, 50, never), (0, 100,
// 130), (0, 200, 260), (5, 400, 400), (none, 500, 520), (none, 600, 610).
// Lateness 30, 60, 0, 20, 10: mean 24 over the submitted span 100..600,
// relative 1 + 24/500, additional 2 · 24 / 4 = 12, median (rank 3 of 5)
// 20. Only user 0 has two submitted jobs: its additional lateness is
// 2 · 45 / 1 = 90; user 5 has one, the jobs without a user are no user.
func TestLatenessByHand(t *testing.T) {
	tr := mkTrace(100, tj{5, 50, 0, 1}, tj{0, 100, 0, 1}, tj{0, 200, 0, 1}, tj{5, 400, 0, 1}, tj{-1, 500, 0, 1}, tj{-1, 600, 0, 1})
	for _, c := range []struct {
		name           string
		sub            []sim.Time
		jobs           int
		mean, rel, add float64
		min, med, max  float64
		users          int
		userAdditional float64
	}{
		{"six jobs", []sim.Time{-1, 130, 260, 400, 520, 610}, 5, 24, 1 + 24.0/500, 12, 0, 20, 60, 1, 90},
		// One job submitted 10 s late: no span, no additional lateness.
		{"one job", []sim.Time{-1, 110, -1, -1, -1, -1}, 1, 10, 1, 0, 10, 10, 10, 0, 0},
		{"none", []sim.Time{-1, -1, -1, -1, -1, -1}, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	} {
		l := LatenessOf(tr, c.sub)
		if l.Jobs != c.jobs || l.Mean != c.mean || !(math.Abs(l.Relative-c.rel) <= 1e-12) || l.Additional != c.add ||
			l.Min != c.min || l.Median != c.med || l.Max != c.max {
			t.Errorf("%s: %+v", c.name, l)
		}
		if l.UserAdditional.N != c.users || l.UserAdditional.P50 != c.userAdditional {
			t.Errorf("%s: per-user additional lateness %+v, want %d users, median %v", c.name, l.UserAdditional, c.users, c.userAdditional)
		}
	}
}

// TestActivityByHand works the activity of a small log out by hand, with
// sessions by inter-arrival time (threshold 1 h). Jobs (user, recorded
// submit, wait, runtime; simulated submit and end):
//
//	user 1: (0, 0, 100; 0..200), (50, 10, 40; 60..300), (10000, 0, 200; 10100..10400)
//	user 2: (500, 0, 7000; 600..8600)
//	user 4: (20000, 0, 100; 20000..20050)
//	user 0: (100, 0, 10; never submitted)
//	no user: (0, 0, 0; 0..0)
//
// Users with an ID: 4. Activity lengths (first submit to last end),
// simulated 10400, 8000, 50 and recorded 10200, 7000, 100. Throughputs per
// week, jobs / max(length, 1 h): simulated 3/10400, 1/8000, 1/3600 weeks⁻¹
// · 604800 s, median 168; recorded 3/10200, 1/7000, 1/3600, median 168.
// Sessions: user 1's two (0..300 and 10100..10400; recorded 0..100 and
// 10000..10200), user 2's, user 4's and the job without a user (length
// 0): 5, mean length (300 + 300 + 8000 + 50 + 0) / 5 = 1730, recorded
// (100 + 200 + 7000 + 100 + 0) / 5 = 1480.
func TestActivityByHand(t *testing.T) {
	tr := mkTrace(100, tj{1, 0, 0, 100}, tj{1, 50, 10, 40}, tj{-1, 0, 0, 0}, tj{0, 100, 0, 10}, tj{2, 500, 0, 7000},
		tj{1, 10000, 0, 200}, tj{4, 20000, 0, 100})
	p, err := session.Identify(tr, session.Options{Method: session.Interarrival, Threshold: 3600})
	if err != nil {
		t.Fatal(err)
	}
	// Indexed like tr.Jobs (the trace keeps the order given).
	sub := []sim.Time{0, 60, 0, -1, 600, 10100, 20000}
	end := []sim.Time{200, 300, 0, -1, 8600, 10400, 20050}
	for i, j := range tr.Jobs {
		if want := []int64{0, 50, 0, 100, 500, 10000, 20000}[i]; j.Submit != want {
			t.Fatalf("job %d submitted at %d, want %d: the trace reordered the jobs", i, j.Submit, want)
		}
	}
	a := ActivityOf(p, sub, end)
	if a.Users != 4 {
		t.Errorf("users %d, want 4", a.Users)
	}
	for _, c := range []struct {
		name          string
		d             session.Dist
		min, med, max float64
	}{
		{"simulated length", a.Length, 50, 8000, 10400},
		{"recorded length", a.RecordedLength, 100, 7000, 10200},
	} {
		if c.d.N != 3 || c.d.Min != c.min || c.d.P50 != c.med || c.d.Max != c.max {
			t.Errorf("%s: %+v, want 3 users, %v / %v / %v", c.name, c.d, c.min, c.med, c.max)
		}
	}
	if a.Throughput != 168 || a.RecordedThroughput != 168 {
		t.Errorf("median throughput %v (recorded %v) jobs per week, want 168 and 168", a.Throughput, a.RecordedThroughput)
	}
	if a.Sessions != 5 || a.SessionLength != 1730 || a.RecordedSessionLength != 1480 {
		t.Errorf("sessions %d of mean length %v (recorded %v), want 5, 1730, 1480", a.Sessions, a.SessionLength, a.RecordedSessionLength)
	}
	// User 4's simulated job ending a week later (an activity of 604,850 s,
	// 0.99992 jobs per week) moves the median to user 2's 604800/8000.
	end[6] = 20000 + 604850
	a = ActivityOf(p, sub, end)
	if want := 604800.0 / 8000; !(math.Abs(a.Throughput-want) <= 1e-9) {
		t.Errorf("median throughput %v, want %v", a.Throughput, want)
	}
	// Nothing submitted: no session, mean lengths 0.
	none := []sim.Time{-1, -1, -1, -1, -1, -1, -1}
	if a := ActivityOf(p, none, none); a.Sessions != 0 || a.SessionLength != 0 || a.RecordedSessionLength != 0 {
		t.Errorf("nothing submitted: %d sessions of mean length %v (recorded %v), want 0, 0, 0", a.Sessions, a.SessionLength, a.RecordedSessionLength)
	}
}

// TestWeeklyCycleLaterStart: the number of weeks is the span from the
// first to the last submit, whatever the first. Submits at 1 week + 1 h and
// 4 weeks + 1 h (Monday 01:00 both) span 3 weeks: 2/3 per week at hour 1.
func TestWeeklyCycleLaterStart(t *testing.T) {
	clk := &trace.Clock{Start: time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC).Unix(), Loc: time.UTC}
	cy := WeeklyCycle(clk, []sim.Time{week + 3600, 4*week + 3600})
	if !(math.Abs(cy[1]-2.0/3) <= 1e-12) {
		t.Errorf("hour 1: %v per week, want 2/3", cy[1])
	}
}

// TestCycleDistance: the total variation distance between normalized
// cycles. (2, 2, 0) against (1, 0, 3) normalizes to (0.5, 0.5, 0) and
// (0.25, 0, 0.75): (0.25 + 0.5 + 0.75) / 2 = 0.75.
func TestCycleDistance(t *testing.T) {
	var a, b, c, zero Cycle
	a[0], a[1] = 2, 2
	b[0], b[2] = 1, 3
	c[0], c[1] = 5, 5
	for _, tc := range []struct {
		name string
		x, y Cycle
		want float64
	}{
		{"different shapes", a, b, 0.75},
		{"same shape", a, c, 0},
		{"disjoint", a, Cycle{5: 1}, 1},
		{"an empty cycle", a, zero, 0},
		{"both empty", zero, zero, 0},
	} {
		if got := tc.x.Distance(tc.y); !(math.Abs(got-tc.want) <= 1e-12) {
			t.Errorf("%s: distance %v, want %v", tc.name, got, tc.want)
		}
		if got := tc.y.Distance(tc.x); !(math.Abs(got-tc.want) <= 1e-12) {
			t.Errorf("%s, reversed: distance %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestDayShare: weekdays 08:00 to 18:00 count; 07:00, 18:00 and Saturday
// do not. Monday 08:00 (1), Monday 17:00 (2), Monday 18:00 (4), Monday
// 07:00 (8), Friday 10:00 (16), Saturday 10:00 (32): 19/63.
func TestDayShare(t *testing.T) {
	var c Cycle
	c[8], c[17], c[18], c[7], c[4*24+10], c[5*24+10] = 1, 2, 4, 8, 16, 32
	if got := c.DayShare(); !(math.Abs(got-19.0/63) <= 1e-12) {
		t.Errorf("day share %v, want 19/63", got)
	}
	if got := (Cycle{}).DayShare(); got != 0 {
		t.Errorf("empty cycle: day share %v, want 0", got)
	}
}
