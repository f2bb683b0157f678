package verify_test

import (
	"testing"

	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/verify"
)

// check runs verify.Check with kill and returns the violations as text.
func check(t *testing.T, jobs []sim.Job, sch []verify.Entry, procs int, pol verify.Policy) (*verify.Report, []string) {
	t.Helper()
	rep, err := verify.Check(jobs, sch, verify.Options{Procs: procs, Kill: true, Policy: pol})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, v := range rep.Violations {
		out = append(out, v.String())
	}
	return rep, out
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestCapacityZeroLength: a job of zero length occupies nothing, so it
// neither hides nor causes an over-allocation. Four processors: job 1
// holds all of them on [0, 10); job 2 (2 processors) starts at 5, over the
// machine; job 3 (2 processors, 0 s) at 5 as well.
func TestCapacityZeroLength(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Runtime: 10, Estimate: 10, Procs: 4},
		{ID: 2, Runtime: 5, Estimate: 5, Procs: 2},
		{ID: 3, Runtime: 0, Estimate: 5, Procs: 2},
	}
	sch := []verify.Entry{
		{ID: 1, Procs: 4, Start: 0, End: 10, Line: 2},
		{ID: 2, Procs: 2, Start: 5, End: 10, Line: 3},
		{ID: 3, Procs: 2, Start: 5, End: 5, Line: 4},
	}
	_, got := check(t, jobs, sch, 4, verify.AnyPolicy)
	want := []string{"capacity: job 2 at t=5 (line 3): its start makes 6 processors busy on a machine of 4"}
	if !equal(got, want) {
		t.Errorf("violations %q, want %q", got, want)
	}
	// Without job 2, the zero-length job fits, and a job starting when
	// another ends uses its processors.
	sch[1] = verify.Entry{ID: 2, Procs: 2, Start: 10, End: 15, Line: 3}
	if rep, got := check(t, jobs, sch, 4, verify.AnyPolicy); !rep.OK() {
		t.Errorf("valid schedule: %q", got)
	}
}

// TestAllocEdges checks the processors named for each job: a job starting
// at time 0 is checked, a negative or reversed range is outside the
// machine, a job of zero length holds no processor, an overlap on several
// processors is reported once, naming the first.
func TestAllocEdges(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Runtime: 10, Estimate: 10, Procs: 2},
		{ID: 2, Submit: 5, Runtime: 0, Estimate: 5, Procs: 1},
		{ID: 3, Submit: 10, Runtime: 5, Estimate: 5, Procs: 2},
	}
	base := func(a1, a2, a3 []verify.Interval) []verify.Entry {
		return []verify.Entry{
			{ID: 1, Submit: 0, Procs: 2, Start: 0, End: 10, Line: 2, Alloc: a1},
			{ID: 2, Submit: 5, Procs: 1, Start: 5, End: 5, Line: 3, Alloc: a2},
			{ID: 3, Submit: 10, Procs: 2, Start: 10, End: 15, Line: 4, Alloc: a3},
		}
	}
	iv := func(lo, hi int) []verify.Interval { return []verify.Interval{{lo, hi}} }
	for _, c := range []struct {
		name  string
		sch   []verify.Entry
		procs int
		want  []string
	}{
		{"valid, zero-length job on a held processor", base(iv(0, 1), iv(1, 1), iv(0, 1)), 2, nil},
		{"outside at time 0", base(iv(1, 2), iv(0, 0), iv(0, 1)), 2,
			[]string{"allocation: job 1 at t=0 (line 2): allocated processors outside 0-1"}},
		{"negative", base(iv(-1, 0), iv(0, 0), iv(0, 1)), 2,
			[]string{"allocation: job 1 at t=0 (line 2): allocated processors outside 0-1"}},
		{"reversed", base(iv(0, 1), iv(0, 0), []verify.Interval{{1, 0}, {0, 0}, {1, 1}}), 2,
			[]string{"allocation: job 3 at t=10 (line 4): allocated processors outside 0-1"}},
		{"zero-length job on processor 0 of 3", base(iv(0, 1), iv(0, 0), iv(0, 1)), 3, nil},
		{"count", base(iv(0, 1), iv(0, 0), iv(0, 2)), 3,
			[]string{"allocation: job 3 at t=10 (line 4): 3 processors allocated for a job of 2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, got := check(t, jobs, c.sch, c.procs, verify.AnyPolicy)
			if !equal(got, c.want) || !rep.AllocChecked {
				t.Errorf("violations %q (checked %v), want %q", got, rep.AllocChecked, c.want)
			}
		})
	}
	// Two jobs at once on both processors: one report, at the second's
	// start, naming the first processor.
	jobs[1] = sim.Job{ID: 2, Submit: 5, Runtime: 5, Estimate: 5, Procs: 2}
	sch := base(iv(0, 1), iv(0, 1), iv(0, 1))
	sch[1].Procs, sch[1].End = 2, 10
	_, got := check(t, jobs, sch, 4, verify.AnyPolicy)
	want := []string{"allocation: job 2 at t=5 (line 3): processor 0 is still held by job 1 (until 10)"}
	if !equal(got, want) {
		t.Errorf("violations %q, want %q", got, want)
	}
	// Without named processors nothing is checked.
	if rep, _ := check(t, jobs, base(nil, nil, nil), 4, verify.AnyPolicy); rep.AllocChecked {
		t.Error("allocation checked without named processors")
	}
}

// TestFCFSNamesLatestStart: a job starting before earlier arrivals is
// compared with the latest start among them, the first to reach it.
func TestFCFSNamesLatestStart(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 10, Estimate: 10, Procs: 1},
		{ID: 2, Submit: 1, Runtime: 10, Estimate: 10, Procs: 1},
		{ID: 3, Submit: 2, Runtime: 10, Estimate: 10, Procs: 1},
	}
	sch := []verify.Entry{
		{ID: 1, Submit: 0, Procs: 1, Start: 10, End: 20, Line: 2},
		{ID: 2, Submit: 1, Procs: 1, Start: 10, End: 20, Line: 3},
		{ID: 3, Submit: 2, Procs: 1, Start: 5, End: 15, Line: 4},
	}
	_, got := check(t, jobs, sch, 3, verify.FCFS)
	want := []string{"fcfs-order: job 3 at t=5 (line 4): starts before job 1 (started at 10), which arrived earlier"}
	if !equal(got, want) {
		t.Errorf("violations %q, want %q", got, want)
	}
}

// TestDuplicateNamesFirstLine: a job scheduled twice is reported at its
// second line, naming the first.
func TestDuplicateNamesFirstLine(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Runtime: 10, Estimate: 10, Procs: 1},
		{ID: 2, Runtime: 10, Estimate: 10, Procs: 1},
		{ID: 3, Runtime: 10, Estimate: 10, Procs: 1},
	}
	sch := []verify.Entry{
		{ID: 1, Procs: 1, Start: 0, End: 10, Line: 2},
		{ID: 2, Procs: 1, Start: 10, End: 20, Line: 3},
		{ID: 3, Procs: 1, Start: 20, End: 30, Line: 4},
		{ID: 2, Procs: 1, Start: 30, End: 40, Line: 5},
	}
	_, got := check(t, jobs, sch, 1, verify.AnyPolicy)
	want := []string{"duplicate: job 2 at t=30 (line 5): already scheduled on line 3"}
	if !equal(got, want) {
		t.Errorf("violations %q, want %q", got, want)
	}
}
