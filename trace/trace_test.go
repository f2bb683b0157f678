package trace_test

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

func load(t *testing.T, text string, opt trace.Options) *trace.Trace {
	t.Helper()
	r := swf.NewReader(strings.NewReader(text))
	r.Name = "test.swf"
	tr, err := trace.Read(r, opt)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestMachineSize(t *testing.T) {
	tests := []struct {
		name   string
		header string
		opt    trace.Options
		want   int
	}{
		{"MaxProcs", "; MaxProcs: 128\n; MaxNodes: 16\n", trace.Options{}, 128},
		{"MaxNodes fallback", "; MaxNodes: 16\n", trace.Options{}, 16},
		{"override", "; MaxProcs: 128\n", trace.Options{Procs: 64}, 64},
		{"breakdown", "; MaxProcs: 1664 (72, 1368, 224)\n", trace.Options{}, 1664},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := load(t, tc.header+"1 0 0 10 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n", tc.opt)
			if got, err := tr.MachineSize(); err != nil || got != tc.want {
				t.Errorf("MachineSize = %d, %v; want %d", got, err, tc.want)
			}
		})
	}
	tr := load(t, "; Version: 2\n1 0 0 10 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n", trace.Options{})
	_, err := tr.MachineSize()
	if !errors.Is(err, trace.ErrNoMachineSize) || !strings.Contains(err.Error(), "--procs") {
		t.Errorf("no machine size: err = %v, want ErrNoMachineSize saying how to pass --procs", err)
	}
}

func TestDerivedValues(t *testing.T) {
	tr := load(t, "; MaxProcs: 8\n"+
		"1 100 20 50 -1 -1 -1 4 60 -1 1 7 1 -1 -1 -1 -1 -1\n"+
		"2 110 -1 50 2 -1 -1 4 60 -1 1 3 1 -1 -1 -1 -1 -1\n"+
		"3 90 0 30 1 -1 -1 1 60 -1 1 7 1 -1 -1 -1 -1 -1\n", trace.Options{})
	j := tr.Jobs[0]
	if j.Processors() != 4 || j.Start() != 120 || j.End() != 170 || j.Response() != 70 || j.Area() != 200 {
		t.Errorf("job 1 derived: procs %d start %d end %d response %d area %v",
			j.Processors(), j.Start(), j.End(), j.Response(), j.Area())
	}
	j = tr.Jobs[1]
	if j.Processors() != 2 || j.Start() != -1 || j.End() != -1 || j.Response() != -1 {
		t.Errorf("job 2 (unknown wait): procs %d start %d end %d", j.Processors(), j.Start(), j.End())
	}
	us := tr.Users()
	if len(us) != 2 || us[0].ID != 3 || us[1].ID != 7 {
		t.Fatalf("users = %+v", us)
	}
	if got := us[1].Jobs; len(got) != 2 || got[0] != 2 || got[1] != 0 {
		t.Errorf("user 7's jobs = %v, want [2 0] (by submit time)", got)
	}
	if first, last := tr.Span(); first != 90 || last != 110 {
		t.Errorf("span = %d..%d", first, last)
	}
}

// TestDerivedBoundaries works the derived values out at their edges: a
// zero submit time, wait or runtime is known, -1 is not; the processors
// fall back from allocated to requested to -1.
func TestDerivedBoundaries(t *testing.T) {
	for _, tt := range []struct {
		name                 string
		j                    trace.Job
		procs                int
		start, end, response int64
		area                 float64
	}{
		{"all zero", trace.Job{Procs: 0, ReqProcs: 3}, 3, 0, 0, 0, 0},
		{"zero wait", trace.Job{Submit: 5, Runtime: 7, Procs: 2, ReqProcs: 9}, 2, 5, 12, 7, 14},
		{"no processors", trace.Job{Submit: 5, Wait: 1, Runtime: 7, Procs: -1, ReqProcs: 0}, -1, 6, 13, 8, 0},
		{"unknown wait", trace.Job{Submit: 5, Wait: -1, Runtime: 7, Procs: 1}, 1, -1, -1, -1, 7},
		{"unknown submit", trace.Job{Submit: -1, Wait: 3, Runtime: 7, Procs: 1}, 1, -1, -1, 10, 7},
		{"unknown runtime", trace.Job{Submit: 5, Wait: 3, Runtime: -1, Procs: 4}, 4, 8, -1, -1, 0},
	} {
		j := tt.j
		if p, s, e, r, a := j.Processors(), j.Start(), j.End(), j.Response(), j.Area(); p != tt.procs || s != tt.start || e != tt.end || r != tt.response || a != tt.area {
			t.Errorf("%s: procs %d start %d end %d response %d area %v; want %d %d %d %d %v",
				tt.name, p, s, e, r, a, tt.procs, tt.start, tt.end, tt.response, tt.area)
		}
	}
}

func TestClock(t *testing.T) {
	// KTH-SP2's header: UnixStartTime 843480031 is Mon Sep 23 14:00:31 CEST 1996.
	tr := load(t, "; UnixStartTime: 843480031\n; TimeZone: 3600\n; TimeZoneString: Europe/Stockholm\n; MaxProcs: 100\n", trace.Options{})
	c := tr.Clock()
	if got := c.Time(0).Format("Mon Jan 02 15:04:05 MST 2006"); got != "Mon Sep 23 14:00:31 CEST 1996" {
		t.Errorf("Time(0) = %s", got)
	}
	tests := []struct {
		s                    int64
		hour, day, how, week int
	}{
		{0, 14, 0, 14, 0},
		{10 * 3600, 0, 1, 24, 0},                       // Tue 00:00:31
		{6*86400 + 9*3600 + 59*60 + 28, 23, 6, 167, 0}, // Sun 23:59:59
		{6*86400 + 9*3600 + 59*60 + 29, 0, 0, 0, 1},    // Mon 00:00:00, next week
		{-14 * 3600, 0, 0, 0, 0},                       // Mon 00:00:31, same week
		{-15 * 3600, 23, 6, 167, -1},                   // Sun 23:00:31, the week before
		{-14*3600 - 31 - 7*86400, 0, 0, 0, -1},         // Mon 00:00:00 a week before: week -1 starts
		{-14*3600 - 32 - 7*86400, 23, 6, 167, -2},      // a second before it
	}
	for _, tc := range tests {
		if h, d, how, w := c.HourOfDay(tc.s), c.DayOfWeek(tc.s), c.HourOfWeek(tc.s), c.Week(tc.s); h != tc.hour || d != tc.day || how != tc.how || w != tc.week {
			t.Errorf("s=%d: hour %d day %d hour-of-week %d week %d; want %d %d %d %d",
				tc.s, h, d, how, w, tc.hour, tc.day, tc.how, tc.week)
		}
	}
	// Without a time zone the clock runs in UTC.
	utc := load(t, "; UnixStartTime: 0\n", trace.Options{}).Clock()
	if utc.HourOfDay(3600) != 1 || utc.DayOfWeek(0) != 3 { // 1970-01-01 was a Thursday
		t.Errorf("UTC clock: hour %d day %d", utc.HourOfDay(3600), utc.DayOfWeek(0))
	}
}

// TestClockZones: a TimeZoneString the zone database does not know falls
// back to the TimeZone offset, named as given; a TimeZone alone gives an
// unnamed fixed zone.
func TestClockZones(t *testing.T) {
	for _, tc := range []struct {
		header, want string
	}{
		{"; UnixStartTime: 0\n; TimeZone: -18000\n; TimeZoneString: Nowhere/Else\n", "1969-12-31 19:00:00 Nowhere/Else -18000"},
		{"; UnixStartTime: 0\n; TimeZone: 7200\n", "1970-01-01 02:00:00  7200"},
		{"; UnixStartTime: 0\n; TimeZoneString: Nowhere/Else\n", "1970-01-01 00:00:00 UTC 0"},
	} {
		c := load(t, tc.header, trace.Options{}).Clock()
		name, off := c.Time(0).Zone()
		if got := c.Time(0).Format("2006-01-02 15:04:05 ") + name + " " + strconv.Itoa(off); got != tc.want {
			t.Errorf("%q: %s, want %s", tc.header, got, tc.want)
		}
	}
}

// TestCloneSortUsers: Clone copies jobs and header; SortBySubmit orders by
// submit time, then job number, keeping equal jobs in place; Users orders
// a user's jobs the same way; user 0 is a user, -1 is not counted.
func TestCloneSortUsers(t *testing.T) {
	var h swf.Header
	h.Add("MaxProcs", "8")
	jobs := []trace.Job{{ID: 4, Submit: 20, User: 0}, {ID: 3, Submit: 20, User: 0}, {ID: 1, Submit: 10, User: -1},
		{ID: 2, Submit: 30, User: 0, Runtime: 1}, {ID: 2, Submit: 30, User: 5, Runtime: 2}, {ID: 2, Submit: 30, User: 0, Runtime: 3}}
	tr := trace.New(h, jobs, trace.Options{})
	c := tr.Clone()
	c.Jobs[0].ID = 99
	c.Header.Set("MaxProcs", "9")
	if tr.Jobs[0].ID != 4 || fmt.Sprint(tr.Header.Get("MaxProcs")) != "8true" || c.Procs != 8 || len(c.Jobs) != 6 {
		t.Fatalf("the clone shares the original's jobs or header: %+v, %q", tr.Jobs[0], tr.Header.Lines)
	}
	if n := tr.NumUsers(); n != 2 {
		t.Errorf("NumUsers = %d, want 2 (users 0 and 5)", n)
	}
	us := tr.Users()
	if len(us) != 3 || us[0].ID != -1 || us[1].ID != 0 || us[2].ID != 5 || fmt.Sprint(us[1].Jobs) != "[1 0 3 5]" {
		t.Errorf("users %+v, want -1, 0 with jobs [1 0 3 5], 5", us)
	}
	tr.SortBySubmit()
	var got []string
	for _, j := range tr.Jobs {
		got = append(got, fmt.Sprintf("%d@%d/%d", j.ID, j.Submit, j.Runtime))
	}
	if s := strings.Join(got, " "); s != "1@10/0 3@20/0 4@20/0 2@30/1 2@30/2 2@30/3" {
		t.Errorf("sorted: %s", s)
	}
}

func TestLoadBuiltin(t *testing.T) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() != 28476 || tr.Procs != 100 || len(tr.SHA256) != 64 {
		t.Errorf("builtin:KTH-SP2: %d jobs, %d procs, sha %q", tr.Len(), tr.Procs, tr.SHA256)
	}
	if _, err := trace.Load("builtin:NOPE", trace.Options{}); err == nil || !strings.Contains(err.Error(), "builtin:KTH-SP2") {
		t.Errorf("unknown builtin: err = %v, want the list of available ones", err)
	}
}

func TestFromSWFRange(t *testing.T) {
	j := swf.NewJob()
	j.User = 1 << 40
	if _, err := trace.FromSWF(&j); err == nil || !strings.Contains(err.Error(), "User ID") {
		t.Errorf("err = %v, want out-of-range error naming User ID", err)
	}
	// The int32 range's ends are kept; one past the low end is refused.
	j = swf.NewJob()
	j.User, j.Group = math.MaxInt32, math.MinInt32
	if tj, err := trace.FromSWF(&j); err != nil || tj.User != math.MaxInt32 || tj.Group != math.MinInt32 {
		t.Errorf("ends of the range: %+v, %v", tj, err)
	}
	j.Queue = math.MinInt32 - 1
	if _, err := trace.FromSWF(&j); !errors.Is(err, trace.ErrOutOfRange) || !strings.Contains(err.Error(), "field 15 (Queue Number)") {
		t.Errorf("err = %v, want out-of-range error naming field 15", err)
	}
}

func TestCheck(t *testing.T) {
	mk := func(ids, subs []int64) *trace.Trace {
		jobs := make([]trace.Job, len(ids))
		for i := range ids {
			jobs[i] = trace.Job{ID: ids[i], Submit: subs[i]}
		}
		tr := trace.New(swf.Header{}, jobs, trace.Options{})
		tr.Name = "x.swf"
		return tr
	}
	tests := []struct {
		name      string
		ids, subs []int64
		want      []string
	}{
		{"clean", []int64{1, 2, 3}, []int64{0, 5, 5}, nil},
		{"duplicate", []int64{1, 2, 2, 1}, []int64{0, 1, 2, 3}, []string{"2 job(s) reuse an earlier job number (first: job 2)"}},
		{"unsorted", []int64{1, 2, 3}, []int64{0, 10, 5}, []string{"1 job(s) are submitted before the job above them (first: job 3)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mk(tt.ids, tt.subs).Check()
			if len(got) != len(tt.want) {
				t.Fatalf("warnings %q, want %d", got, len(tt.want))
			}
			for i := range got {
				if !strings.Contains(got[i], tt.want[i]) {
					t.Errorf("warning %q lacks %q", got[i], tt.want[i])
				}
			}
		})
	}
}
