package resample_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/trace"
)

func TestParseClass(t *testing.T) {
	for _, c := range []resample.Class{resample.LongTerm, resample.Temporary, resample.Discarded, resample.Rare} {
		if got, err := resample.ParseClass(c.String()); err != nil || got != c {
			t.Errorf("ParseClass(%q) = %v, %v", c, got, err)
		}
	}
	if _, err := resample.ParseClass("permanent"); err == nil || !strings.Contains(err.Error(), "long-term, temporary, discarded, rare") {
		t.Errorf("ParseClass(permanent): %v", err)
	}
}

// TestWeeks checks the log's length in weeks, rounded up, for logs that
// do not start at time 0.
func TestWeeks(t *testing.T) {
	for _, c := range []struct {
		start, end int64
		want       int
	}{{0, 30 * week, 30}, {5 * week, 35 * week, 30}, {5 * week, 35*week + 1, 31}, {5 * week, 35*week - 1, 30}, {day, day + 1, 1}} {
		if got := (&resample.Pools{Start: c.start, End: c.end}).Weeks(); got != c.want {
			t.Errorf("from %d to %d: %d weeks, want %d", c.start, c.end, got, c.want)
		}
	}
}

// TestLongTermCycle checks that each long-term slot repeats its user's
// activity every cycle, the number of local weeks the log touches (30
// here), over a generated period of 200 weeks.
func TestLongTermCycle(t *testing.T) {
	p, err := resample.Classify(synth(30, "UTC", spans30), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := p.Generate(resample.Options{Seed: 3, Duration: 200 * week})
	if err != nil {
		t.Fatal(err)
	}
	if w.Params.CycleWeeks != 30 {
		t.Fatalf("cycle of %d weeks, want 30", w.Params.CycleWeeks)
	}
	last := map[int32]int{}
	repeats := 0
	for _, c := range w.Copies {
		if c.Class != resample.LongTerm {
			continue
		}
		if prev, ok := last[c.Slot]; ok {
			repeats++
			if c.Shift-prev != 30 {
				t.Errorf("slot %d: copies shifted by %d then %d weeks, want 30 apart", c.Slot, prev, c.Shift)
			}
		}
		last[c.Slot] = c.Shift
	}
	if repeats < 4*len(last) {
		t.Errorf("%d repeated copies for %d slots over 200 weeks, want at least 4 each", repeats, len(last))
	}
}

// TestUsableJobs checks which jobs enter the users' sub-traces: those with
// a user (0 included), a submit time and a runtime of 0 or more and a
// processor count, that are not partial-execution records (status 2, 3 or
// 4); the others are counted as filtered.
func TestUsableJobs(t *testing.T) {
	tr := synth(30, "UTC", spans30)
	edits := []func(j *trace.Job){
		// usable
		func(j *trace.Job) { j.Submit = 0 },
		func(j *trace.Job) { j.Runtime = 0 },
		func(j *trace.Job) { j.User = 0 },
		func(j *trace.Job) { j.Status = 0 },
		func(j *trace.Job) { j.Status = 5 },
		func(j *trace.Job) { j.Procs, j.ReqProcs = -1, 2 },
		// filtered
		func(j *trace.Job) { j.User = -1 },
		func(j *trace.Job) { j.Runtime = -1 },
		func(j *trace.Job) { j.Procs, j.ReqProcs = 0, -1 },
		func(j *trace.Job) { j.Status = 2 },
		func(j *trace.Job) { j.Status = 3 },
		func(j *trace.Job) { j.Status = 4 },
	}
	for i, e := range edits {
		e(&tr.Jobs[i])
	}
	p, err := resample.Classify(tr, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Filtered != 6 {
		t.Errorf("%d jobs filtered, want 6", p.Filtered)
	}
	// Every usable job is in a pool, user 0's among them.
	n := 0
	for _, c := range p.Counts() {
		n += c.Jobs
	}
	if n != len(tr.Jobs)-6 {
		t.Errorf("%d jobs in the pools, want %d", n, len(tr.Jobs)-6)
	}
	if p.Start != 0 {
		t.Errorf("period starts at %d, want 0 (the first usable submit)", p.Start)
	}
}

// TestShortLogBoundary: a period of exactly the long-term span (12 weeks
// from the first submit, --period submits) is too short; a second more is
// enough.
func TestShortLogBoundary(t *testing.T) {
	for _, c := range []struct {
		extra   int64
		wantErr bool
	}{{0, true}, {1, false}} {
		tr := synth(12, "UTC", map[int32][2]int{1: {0, 11}, 2: {0, 11}})
		first := tr.Jobs[0].Submit
		j := tr.Jobs[len(tr.Jobs)-1]
		j.ID, j.Submit = j.ID+1, first+12*week+c.extra
		tr = trace.New(tr.Header, append(tr.Jobs, j), trace.Options{})
		_, err := resample.Classify(tr, resample.ClassifyOptions{Period: resample.PeriodSubmits})
		var se *resample.ShortLogError
		if !c.wantErr {
			if err != nil {
				t.Errorf("12 weeks and %d s: %v", c.extra, err)
			}
			continue
		}
		if !errors.As(err, &se) || se.Weeks != 12 || se.Need != 12 {
			t.Errorf("12 weeks: got %v (%+v), want a ShortLogError of 12 weeks, needing 12", err, se)
		}
	}
}

// TestCalendarBeforeChange: a log starting a week before a daylight-saving
// change (Monday 19 March 2001, 00:00 in Stockholm, UTC+1) counts its weeks
// in the offset it starts with: week 1 begins on Monday 26 March 00:00,
// now UTC+2, a week less an hour after the start; week 2 a week later.
func TestCalendarBeforeChange(t *testing.T) {
	tr := synth(30, "Europe/Stockholm", map[int32][2]int{1: {0, 29}, 2: {0, 29}})
	h := tr.Header
	h.Set("UnixStartTime", "984956400") // 2001-03-18 23:00 UTC
	tr = trace.New(h, tr.Jobs, trace.Options{})
	p, err := resample.Classify(tr, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := p.WeekStarts(3)
	if want := []int64{week - 3600, 2*week - 3600}; !slices.Equal(got, want) {
		t.Errorf("week starts %v, want %v", got, want)
	}
}

// TestRarePeriodBounds: a rare period holds the jobs submitted at its
// first and last second. User 1's jobs of week 3 run Monday to Friday at
// 09:01; the period from Monday's to Friday's holds all five, and the
// user's other 145 jobs stay long-term. A period without jobs (user 2's
// in week 25, after the user's last) makes no rare user.
func TestRarePeriodBounds(t *testing.T) {
	tr := synth(30, "UTC", spans30)
	at := func(d int64) int64 { return 3*week + d*day + 9*3600 + 60 }
	p, err := resample.Classify(tr, resample.ClassifyOptions{Rare: []resample.RarePeriod{
		{User: 1, Begin: at(0), End: at(4)}, {User: 2, Begin: 25 * week, End: 26 * week}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rare) != 1 || len(p.Rare[0].Jobs) != 5 || p.Rare[0].First != at(0) || p.Rare[0].Last != at(4) {
		t.Fatalf("rare users %d, want one of 5 jobs from %d to %d", len(p.Rare), at(0), at(4))
	}
	if c := p.Counts(); c[resample.LongTerm].Jobs+c[resample.Temporary].Jobs+c[resample.Discarded].Jobs+c[resample.Rare].Jobs != len(tr.Jobs) {
		t.Errorf("counts %v do not hold the %d jobs", c, len(tr.Jobs))
	}
}

// TestBoundaryRuleAtEquality: the boundary windows' ends at equality. Under
// the default rule a temporary user is discarded when its last job is at or
// before the start plus the window (user 2) or its first at or after the
// end less the window (user 3); under --discard touch when its first job is
// before the first window's end (not at it: user 4) or its last after the
// second window's start (not at it: user 5). Each window is set to put a
// user's job exactly at its edge; user 1 is long-term and sets the period,
// 0 to its last job.
func TestBoundaryRuleAtEquality(t *testing.T) {
	tr := synth(30, "UTC", map[int32][2]int{1: {0, 29}, 2: {1, 3}, 3: {25, 27}, 4: {5, 8}, 5: {20, 22}})
	first, last := map[int32]int64{}, map[int32]int64{}
	for _, j := range tr.Jobs {
		if _, ok := first[j.User]; !ok {
			first[j.User] = j.Submit
		}
		last[j.User] = j.Submit
	}
	end := last[1]
	tests := []struct {
		name      string
		opt       resample.ClassifyOptions
		user      int32
		discarded bool
	}{
		{"last at the first window's end", resample.ClassifyOptions{Boundary: last[2]}, 2, true},
		{"first at the second window's start", resample.ClassifyOptions{Boundary: end - first[3]}, 3, true},
		{"touch, first at the first window's end", resample.ClassifyOptions{Boundary: first[4], Touch: true}, 4, false},
		{"touch, last at the second window's start", resample.ClassifyOptions{Boundary: end - last[5], Touch: true}, 5, false},
	}
	for _, tc := range tests {
		p, err := resample.Classify(tr, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if p.Start != 0 || p.End != end {
			t.Fatalf("period %d..%d, want 0..%d", p.Start, p.End, end)
		}
		in := func(us []*resample.User) bool {
			return slices.ContainsFunc(us, func(u *resample.User) bool { return u.ID == tc.user })
		}
		if in(p.Discarded) != tc.discarded || in(p.Temporary) == tc.discarded {
			t.Errorf("%s: user %d discarded %v, want %v", tc.name, tc.user, in(p.Discarded), tc.discarded)
		}
	}
}

// TestWeeksBySpan: with WeeksBySpan a user's weeks active are its span
// rounded up to whole weeks, at least 1; otherwise the weeks holding a job.
// User 2's jobs run from week 10's Monday to week 12's Monday, 09:02: a
// span of exactly 2 weeks, in 3 weeks; user 3 has one job.
func TestWeeksBySpan(t *testing.T) {
	tr := synth(30, "UTC", map[int32][2]int{1: {0, 29}, 2: {10, 12}, 3: {15, 15}})
	var jobs []trace.Job
	for _, j := range tr.Jobs {
		if j.User == 2 && j.Submit > 12*week+day || j.User == 3 && j.Submit > 15*week+day {
			continue
		}
		jobs = append(jobs, j)
	}
	tr = trace.New(tr.Header, jobs, trace.Options{})
	for _, c := range []struct {
		bySpan     bool
		two, three int
	}{{true, 2, 1}, {false, 3, 1}} {
		p, err := resample.Classify(tr, resample.ClassifyOptions{WeeksBySpan: c.bySpan})
		if err != nil {
			t.Fatal(err)
		}
		got := map[int32]int{}
		for _, u := range p.Temporary {
			got[u.ID] = u.WeeksActive
		}
		if got[2] != c.two || got[3] != c.three {
			t.Errorf("by span %v: weeks active %v, want user 2 %d, user 3 %d", c.bySpan, got, c.two, c.three)
		}
	}
}

// TestRarePeriodsOrdered: a user's rare behaviours are listed by start,
// whatever the order given, and a period of one second holds the job
// submitted in it. User 1 of spans30 submits Monday to Friday at 09:01.
func TestRarePeriodsOrdered(t *testing.T) {
	tr := synth(30, "UTC", spans30)
	mon := func(w int64) int64 { return w*week + 9*3600 + 60 }
	p, err := resample.Classify(tr, resample.ClassifyOptions{Rare: []resample.RarePeriod{
		{User: 1, Begin: mon(10), End: mon(10) + day}, {User: 2, Begin: mon(5), End: mon(5)}, {User: 1, Begin: mon(3), End: mon(3)}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range p.Rare {
		got = append(got, fmt.Sprintf("%d:%d", u.ID, len(u.Jobs)))
		if u.First != u.Period.Begin {
			t.Errorf("rare behaviour %v starts at %d", *u.Period, u.First)
		}
	}
	if want := []string{"1:1", "1:2"}; !slices.Equal(got, want) {
		t.Errorf("rare behaviours %v, want %v (user 2 submits at 09:02)", got, want)
	}
}
