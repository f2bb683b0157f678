package clean_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hpcwl/hpcwl/clean"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

func loadSmall(t testing.TB) *trace.Trace {
	t.Helper()
	tr, err := trace.Load("testdata/small.swf", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func ids(tr *trace.Trace) []int64 {
	var v []int64
	for _, j := range tr.Jobs {
		v = append(v, j.ID)
	}
	return v
}

func TestCleanRules(t *testing.T) {
	tests := []struct {
		name    string
		opt     clean.Options
		want    []int64
		removed map[string]int
	}{
		{"defaults, oversize dropped", clean.Options{Oversize: clean.OversizeDrop},
			[]int64{1, 5, 7, 8, 9, 11, 12},
			map[string]int{"partial": 2, "negative-runtime": 1, "no-processors": 1, "oversize": 1}},
		{"keep partial and invalid", clean.Options{KeepPartial: true, KeepInvalid: true, Oversize: clean.OversizeKeep},
			[]int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, map[string]int{}},
		{"statuses", clean.Options{Statuses: []int{1}, Oversize: clean.OversizeKeep},
			[]int64{1, 6, 7, 9, 11}, map[string]int{"partial": 2, "negative-runtime": 1, "no-processors": 1, "status": 3}},
		{"unknown user and cancelled zero", clean.Options{DropUnknownUser: true, DropCancelledZero: true, Oversize: clean.OversizeKeep},
			[]int64{1, 6, 8, 9, 11, 12}, map[string]int{"partial": 2, "negative-runtime": 1, "no-processors": 1, "unknown-user": 1, "cancelled-zero": 1}},
		{"keep users", clean.Options{KeepUsers: []int{4, 5}, Oversize: clean.OversizeKeep},
			[]int64{8, 9, 11, 12}, map[string]int{"partial": 2, "negative-runtime": 1, "no-processors": 1, "user": 4}},
		{"drop users", clean.Options{DropUsers: []int{4, 5}, Oversize: clean.OversizeKeep},
			[]int64{1, 5, 6, 7}, map[string]int{"partial": 2, "negative-runtime": 1, "no-processors": 1, "user": 4}},
		{"window", clean.Options{From: 50, To: 100, Oversize: clean.OversizeKeep},
			[]int64{6, 7, 8, 9}, map[string]int{"partial": 2, "negative-runtime": 1, "no-processors": 1, "window": 4}},
		{"filters", clean.Options{Filters: []*clean.Filter{clean.MustParseFilter("user=4 and 7<job<10"),
			clean.MustParseFilter("job>=11")}, Oversize: clean.OversizeKeep},
			[]int64{1, 5, 6, 7}, map[string]int{"partial": 2, "negative-runtime": 1, "no-processors": 1, "filter": 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := loadSmall(t)
			out, rep, err := clean.Clean(tr, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(out); !slices.Equal(got, tt.want) {
				t.Errorf("kept %v, want %v", got, tt.want)
			}
			got := map[string]int{}
			for _, r := range rep.Removed {
				if r.Jobs > 0 {
					got[r.Reason] += r.Jobs
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.removed) {
				t.Errorf("removed %v, want %v", got, tt.removed)
			}
			if rep.Input != 12 || rep.Output != len(tt.want) || rep.RemovedJobs() != 12-len(tt.want) {
				t.Errorf("report counts %d -> %d", rep.Input, rep.Output)
			}
			if tr.Len() != 12 {
				t.Errorf("input trace changed")
			}
		})
	}
}

func TestCleanOversize(t *testing.T) {
	tr := loadSmall(t)
	_, _, err := clean.Clean(tr, clean.Options{})
	var oe *clean.OversizeJobError
	if !errors.As(err, &oe) || oe.Job != 6 || oe.Uses != 16 || oe.Procs != 8 || oe.Count != 1 {
		t.Fatalf("error = %v, want job 6 using 16 of 8", err)
	}
	if !strings.HasSuffix(err.Error(), "job 6 uses 16 processors but the machine has 8") {
		t.Errorf("message %q", err)
	}

	out, rep, err := clean.Clean(tr, clean.Options{Oversize: clean.OversizeClamp})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Clamped != 1 {
		t.Errorf("clamped %d, want 1", rep.Clamped)
	}
	for _, j := range out.Jobs {
		if j.ID == 6 && (j.Procs != 8 || j.ReqProcs != 8) {
			t.Errorf("job 6 clamped to %d/%d, want 8/8", j.Procs, j.ReqProcs)
		}
	}
	if tr.Jobs[5].Procs != 16 {
		t.Errorf("clamping changed the input")
	}

	// A larger machine size makes the job fit.
	big := loadSmall(t)
	big.Procs = 16
	if _, _, err := clean.Clean(big, clean.Options{}); err != nil {
		t.Errorf("with 16 processors: %v", err)
	}
}

func TestCleanNeedsMachineSize(t *testing.T) {
	tr := loadSmall(t)
	tr.Header.Delete("MaxProcs")
	tr.Procs = 0
	for _, o := range []clean.Oversize{clean.OversizeError, clean.OversizeDrop, clean.OversizeClamp} {
		_, _, err := clean.Clean(tr, clean.Options{Oversize: o})
		if !errors.Is(err, trace.ErrNoMachineSize) || !strings.Contains(err.Error(), "--procs") {
			t.Errorf("%v: error %v, want one saying to pass --procs", o, err)
		}
	}
	if _, _, err := clean.Clean(tr, clean.Options{Oversize: clean.OversizeKeep}); err != nil {
		t.Errorf("keep: %v", err)
	}
}

func TestCleanHeaderNotes(t *testing.T) {
	tr := loadSmall(t)
	out, _, err := clean.Clean(tr, clean.Options{Oversize: clean.OversizeDrop,
		Filters: []*clean.Filter{clean.MustParseFilter("user=4 and job<=8")}})
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	if err := out.WriteSWF(&sb); err != nil {
		t.Fatal(err)
	}
	text := sb.String()
	for _, want := range []string{
		"; MaxRecords: 6\n",
		"; MaxJobs: 12\n",
		"; Note: THIS IS A CLEANED VERSION OF THE LOG, made by hpcwl ",
		";       Parameters: filter=\"user=4 and job<=8\" flurries=none oversize=drop\n",
		";       The filters used removed 6 of 12 jobs:\n",
		";         partial-execution records (status 2, 3 or 4) (2 jobs removed)\n",
		";         user=4 and job<=8 (1 jobs removed)\n",
		";         jobs using more than the machine's 8 processors (1 jobs removed)\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("header lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "negative submit") {
		t.Errorf("header lists a rule that removed nothing:\n%s", text)
	}
	// The notes read back as a header.
	back, err := trace.Read(swf.NewReader(strings.NewReader(text)), trace.Options{})
	if err != nil || back.Len() != 6 {
		t.Fatalf("reading the cleaned log: %v", err)
	}
	if n := back.Header.Notes(); len(n) == 0 || !strings.HasPrefix(n[len(n)-1], "THIS IS A CLEANED VERSION") {
		t.Errorf("notes %q", n)
	}
}

func TestParseOversize(t *testing.T) {
	for _, s := range []string{"error", "drop", "clamp", "keep", "DROP"} {
		o, err := clean.ParseOversize(s)
		if err != nil || !strings.EqualFold(o.String(), s) {
			t.Errorf("%q: %v %v", s, o, err)
		}
	}
	if _, err := clean.ParseOversize("shrink"); err == nil || !strings.Contains(err.Error(), "error, drop, clamp, keep") {
		t.Errorf("bad policy: %v", err)
	}
}

func ExampleClean() {
	tr, _ := trace.Load("testdata/small.swf", trace.Options{})
	out, rep, _ := clean.Clean(tr, clean.Options{Oversize: clean.OversizeDrop})
	fmt.Println(out.Len(), "of", rep.Input, "jobs kept")
	for _, r := range rep.Removed {
		if r.Jobs > 0 {
			fmt.Printf("%s: %d\n", r.Reason, r.Jobs)
		}
	}
	// Output:
	// 7 of 12 jobs kept
	// partial: 2
	// negative-runtime: 1
	// no-processors: 1
	// oversize: 1
}

// TestWindowEndUpdatesEndTime checks that cutting the end of a log moves its
// header's EndTime there, so that the log's period is the shorter one.
func TestWindowEndUpdatesEndTime(t *testing.T) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// One week after the log's start, Mon Sep 23 14:00:31 CEST 1996.
	out, _, err := clean.Clean(tr, clean.Options{To: 7 * 86400})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := out.Header.Get("EndTime"); got != "Mon Sep 30 14:00:31 CEST 1996" {
		t.Errorf("EndTime = %q, want the window's end", got)
	}
	if got, _ := tr.Header.Get("EndTime"); got != "Fri Aug 29 10:55:01 CEST 1997" {
		t.Errorf("the input's header changed: EndTime = %q", got)
	}
}

// TestWindowStartMovesTimeZero checks that cutting the start of a log moves
// its time 0 to the window's start, keeping every job's wall-clock submit
// time.
func TestWindowStartMovesTimeZero(t *testing.T) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const from = 14 * 86400
	out, _, err := clean.Clean(tr, clean.Options{From: from, To: 21 * 86400})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := out.Header.Get("StartTime"); got != "Mon Oct 07 14:00:31 CEST 1996" {
		t.Errorf("StartTime = %q, want the window's start", got)
	}
	if got, _ := out.Header.Get("EndTime"); got != "Mon Oct 14 14:00:31 CEST 1996" {
		t.Errorf("EndTime = %q, want the window's end", got)
	}
	orig := map[int64]time.Time{}
	for _, j := range tr.Jobs {
		orig[j.ID] = tr.Clock().Time(j.Submit)
	}
	oc := out.Clock()
	for _, j := range out.Jobs {
		if j.Submit < 0 || j.Submit >= 7*86400 {
			t.Fatalf("job %d submitted at %d, outside the window [0, 7 days)", j.ID, j.Submit)
		}
		if got := oc.Time(j.Submit); !got.Equal(orig[j.ID]) || got.Location().String() != orig[j.ID].Location().String() {
			t.Fatalf("job %d submitted %v, was %v", j.ID, got, orig[j.ID])
		}
	}
}

// TestCleanBoundaries checks the rules at their edges on a hand-made log:
// a job of 0 processors is invalid (as one of -1), user 0 is a known user, a window
// without an end keeps every job from its start on (a job submitted at the
// start included), and the oversize error counts every job larger than
// the machine.
func TestCleanBoundaries(t *testing.T) {
	mk := func(procs int32, user int32, submit int64) trace.Job {
		return trace.Job{ID: submit + 1, Submit: submit, Wait: 0, Runtime: 10, Procs: procs, ReqProcs: procs, ReqTime: 10,
			User: user, Status: 1, Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1}
	}
	var h swf.Header
	h.Set("MaxProcs", "8")
	tr := trace.New(h, []trace.Job{mk(0, 1, 0), mk(1, 0, 10), mk(1, -1, 20), mk(9, 2, 30), mk(16, 2, 40), mk(2, 3, 50)}, trace.Options{})
	for _, tc := range []struct {
		name string
		opt  clean.Options
		want []int64
	}{
		{"0 processors invalid", clean.Options{Oversize: clean.OversizeKeep}, []int64{11, 21, 31, 41, 51}},
		{"user 0 known", clean.Options{Oversize: clean.OversizeKeep, DropUnknownUser: true}, []int64{11, 31, 41, 51}},
		{"window from 30, no end", clean.Options{Oversize: clean.OversizeKeep, From: 30}, []int64{31, 41, 51}},
		{"oversize dropped", clean.Options{Oversize: clean.OversizeDrop}, []int64{11, 21, 51}},
	} {
		out, _, err := clean.Clean(tr, tc.opt)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := ids(out); !slices.Equal(got, tc.want) {
			t.Errorf("%s: kept %v, want %v", tc.name, got, tc.want)
		}
	}
	_, _, err := clean.Clean(tr, clean.Options{})
	var oe *clean.OversizeJobError
	if !errors.As(err, &oe) || oe.Count != 2 || oe.Job != 31 ||
		!strings.HasSuffix(err.Error(), "job 31 uses 9 processors but the machine has 8 (and 1 more jobs are larger than the machine)") {
		t.Errorf("two oversize jobs: %v", err)
	}
	for o, want := range map[clean.Oversize]string{clean.OversizeError: "error", clean.OversizeKeep: "keep", 4: "Oversize(4)", -1: "Oversize(-1)"} {
		if got := o.String(); got != want {
			t.Errorf("Oversize(%d).String() = %q, want %q", int(o), got, want)
		}
	}
}

// TestCleanNotesText pins the header notes that say what a cleaning
// removed, for the user lists, the three kinds of window and clamping,
// and that a cleaning without a window end leaves EndTime alone.
func TestCleanNotesText(t *testing.T) {
	for _, tc := range []struct {
		name      string
		opt       clean.Options
		want, not []string
	}{
		{"users", clean.Options{KeepUsers: []int{4, 5}, DropUsers: []int{5}, Oversize: clean.OversizeKeep},
			[]string{"jobs of users other than 4,5; jobs of users 5 (6 jobs removed)"}, []string{"clamped"}},
		{"keep users", clean.Options{KeepUsers: []int{4}, Oversize: clean.OversizeKeep},
			[]string{";         jobs of users other than 4 (6 jobs removed)\n"}, nil},
		{"drop users", clean.Options{DropUsers: []int{4}, Oversize: clean.OversizeKeep},
			[]string{";         jobs of users 4 (2 jobs removed)\n"}, nil},
		{"window", clean.Options{From: 50, To: 100, Oversize: clean.OversizeKeep},
			[]string{"jobs submitted before 50 or at or after 100 (4 jobs removed)"}, nil},
		{"window end", clean.Options{To: 100, Oversize: clean.OversizeKeep},
			[]string{";         jobs submitted at or after 100 (2 jobs removed)\n"}, nil},
		{"window start", clean.Options{From: 50, Oversize: clean.OversizeKeep},
			[]string{";         jobs submitted before 50 (2 jobs removed)\n"}, nil},
		{"clamped", clean.Options{Oversize: clean.OversizeClamp},
			[]string{"Jobs larger than the machine were clamped to 8 processors (1 jobs)"}, nil},
	} {
		out, _, err := clean.Clean(loadSmall(t), tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		if err := out.WriteSWF(&sb); err != nil {
			t.Fatal(err)
		}
		text := sb.String()
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: header lacks %q:\n%s", tc.name, w, text)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(text, w) {
				t.Errorf("%s: header has %q:\n%s", tc.name, w, text)
			}
		}
	}
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := clean.Clean(tr, clean.Options{Oversize: clean.OversizeKeep})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := out.Header.Get("EndTime"); got != "Fri Aug 29 10:55:01 CEST 1997" {
		t.Errorf("no window: EndTime = %q, want the log's", got)
	}
}
