package resample_test

import (
	"context"
	"testing"

	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/hpcwl/hpcwl/userclass"
)

func TestParseRegeneration(t *testing.T) {
	tests := []struct {
		in      string
		want    resample.Regeneration
		wantErr bool
	}{
		{"gap", resample.RegenGap, false},
		{"", resample.RegenGap, false},
		{"immediate", resample.RegenImmediate, false},
		{"Immediate", 0, true},
		{"now", 0, true},
	}
	for _, tc := range tests {
		got, err := resample.ParseRegeneration(tc.in)
		if (err != nil) != tc.wantErr || err == nil && got != tc.want {
			t.Errorf("ParseRegeneration(%q) = %v, %v; want %v (error %v)", tc.in, got, err, tc.want, tc.wantErr)
		}
		if err == nil && tc.in != "" && got.String() != tc.in {
			t.Errorf("%q reads back as %q", tc.in, got.String())
		}
	}
}

func TestParseUserClass(t *testing.T) {
	for i, s := range []string{"LTLU", "lthu", "StWe", "STWD"} {
		c, err := resample.ParseUserClass(s)
		if err != nil || c != userclass.Class(i) {
			t.Errorf("ParseUserClass(%q) = %v, %v; want class %d", s, c, err, i)
		}
	}
	for _, s := range []string{"", "LTL", "-", "STWDX"} {
		if _, err := resample.ParseUserClass(s); err == nil {
			t.Errorf("ParseUserClass(%q) accepted", s)
		}
	}
}

// TestClassUsers checks that ClassUsers splits the users that package
// userclass classifies on the log alone, class by class.
func TestClassUsers(t *testing.T) {
	tr := synth(30, "UTC", spans30)
	r, err := userclass.Analyze([]*trace.Trace{tr}, userclass.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[userclass.Class]map[int32]bool{}
	for _, u := range r.UserRows() {
		if want[u.Class] == nil {
			want[u.Class] = map[int32]bool{}
		}
		want[u.Class][u.ID] = true
	}
	seen := 0
	for c := userclass.Class(0); c < userclass.NumClasses; c++ {
		got, err := resample.ClassUsers(tr, c, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want[c]) {
			t.Errorf("class %v: %d users, want %d", c, len(got), len(want[c]))
		}
		for id := range got {
			if !want[c][id] {
				t.Errorf("class %v: user %d is not of the class", c, id)
			}
		}
		seen += len(got)
	}
	if seen != len(r.UserRows()) || seen == 0 {
		t.Errorf("%d users in the four classes, want all %d", seen, len(r.UserRows()))
	}
}

func TestMachineSizeErrorText(t *testing.T) {
	e := &resample.MachineSizeError{Names: []string{"a.swf", "b.swf"}, Procs: []int{64, 128}}
	want := "resample: the logs' machine sizes differ (a.swf: 64 processors, b.swf: 128 processors); " +
		"choose the mixed machine: the largest (--machine max) or a size N (--machine N), jobs wider than it dropped or clamped (--oversize drop|clamp)"
	if e.Error() != want {
		t.Errorf("got %q\nwant %q", e.Error(), want)
	}
}

// TestWeekStarts pins the week starts of a log that begins on Monday
// 2001-01-01 00:00 UTC, 01:00 in Stockholm: local week k begins at
// k weeks less the UTC offset, 1 h in winter and 2 h from Monday 26 March
// (week 12) to Monday 22 October (week 42; summer time ends on Sunday 28
// October, in week 42, so week 43 begins at 1 h again).
func TestWeekStarts(t *testing.T) {
	tr := synth(50, "Europe/Stockholm", map[int32][2]int{1: {0, 49}, 2: {0, 49}})
	p, err := resample.Classify(tr, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := p.WeekStarts(50)
	if len(got) != 49 {
		t.Fatalf("%d week starts, want 49 (weeks 1 to 49)", len(got))
	}
	for i, s := range got {
		k := int64(i + 1)
		off := int64(3600)
		if k >= 12 && k <= 42 {
			off = 7200
		}
		if s != k*week-off {
			t.Errorf("week %d starts at %d, want %d", k, s, k*week-off)
		}
	}
	w, err := p.Generate(resample.Options{Seed: 1, Duration: 20 * week})
	if err != nil {
		t.Fatal(err)
	}
	ws := w.WeekStarts()
	if len(ws) != w.Params.Weeks-1 || w.Params.Weeks < 20 {
		t.Fatalf("%d week starts of %d weeks, want one less, at least 20", len(ws), w.Params.Weeks)
	}
	for i := range ws {
		if ws[i] != got[i] || ws[i] != w.WeekStart(i+1) {
			t.Errorf("workload week %d starts at %d, the log's at %d", i+1, ws[i], got[i])
		}
	}
}

// TestTBUOSCopy checks that every simulated job names its copy: the job
// is one of the copy's user's jobs (from the copy's first), and its user
// is the copy's simulated user (long-term slot s is user s+1, every other
// copy has a user of its own above them).
func TestTBUOSCopy(t *testing.T) {
	tr := synth(30, "UTC", spans30)
	p, err := resample.Classify(tr, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := sched.New("fcfs")
	run, err := p.TBUOS(context.Background(), s, resample.TBUOSOptions{Options: resample.Options{Seed: 2, Duration: 40 * week}})
	if err != nil {
		t.Fatal(err)
	}
	userOf := map[*resample.Copy]int32{}
	copyOf := map[int32]*resample.Copy{}
	for i := range run.Result.Jobs {
		o := &run.Result.Jobs[i]
		c := run.Copy(i)
		k := int(o.ID & (1<<24 - 1))
		if k < c.From || k >= len(c.Sub().Jobs) {
			t.Fatalf("job %d: index %d outside the copy's jobs %d..%d", i, k, c.From, len(c.Sub().Jobs)-1)
		}
		j := &tr.Jobs[c.Sub().Jobs[k]]
		if j.User != c.User || int64(o.Procs) != int64(j.Procs) || int64(o.Runtime) != j.Runtime {
			t.Fatalf("job %d (%d processors, %d s) is not job %d of user %d (%d, %d s)", i, o.Procs, o.Runtime, k, c.User, j.Procs, j.Runtime)
		}
		if c.Slot >= 0 && o.User != c.Slot+1 || c.Slot < 0 && o.User <= int32(run.Params.LongTerm) {
			t.Fatalf("job %d of copy slot %d has user %d", i, c.Slot, o.User)
		}
		if u, ok := userOf[c]; ok && u != o.User {
			t.Fatalf("copy %p has users %d and %d", c, u, o.User)
		}
		userOf[c] = o.User
		if c.Slot < 0 {
			if d, ok := copyOf[o.User]; ok && d != c {
				t.Fatalf("user %d has two temporary copies", o.User)
			}
			copyOf[o.User] = c
		}
	}
	if len(copyOf) == 0 || len(userOf) == len(copyOf) {
		t.Fatalf("%d copies with jobs, %d temporary: want both kinds", len(userOf), len(copyOf))
	}
}
