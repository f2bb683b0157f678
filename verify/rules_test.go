package verify_test

import (
	"math"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/verify"
)

// TestCheckOptions: the machine size must be positive and the estimate
// factor 0 (meaning 1) or between 1 and 10^6.
func TestCheckOptions(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Runtime: 5, Estimate: 5, Procs: 1}}
	sch := []verify.Entry{{ID: 1, Procs: 1, Start: 0, End: 5}}
	for _, c := range []struct {
		opt verify.Options
		err string // "" for none
	}{
		{verify.Options{Procs: 1}, ""},
		{verify.Options{Procs: 0}, "machine size 0"},
		{verify.Options{Procs: -1}, "machine size -1"},
		{verify.Options{Procs: 1, EstimateFactor: 1}, ""},
		{verify.Options{Procs: 1, EstimateFactor: 1e6}, ""},
		{verify.Options{Procs: 1, EstimateFactor: 0.999}, "estimate factor 0.999"},
		{verify.Options{Procs: 1, EstimateFactor: 1e6 + 1}, "estimate factor"},
		{verify.Options{Procs: 1, EstimateFactor: -2}, "estimate factor -2"},
		{verify.Options{Procs: 1, EstimateFactor: math.NaN()}, "estimate factor NaN"},
	} {
		rep, err := verify.Check(jobs, sch, c.opt)
		switch {
		case c.err == "" && (err != nil || !rep.OK()):
			t.Errorf("%+v: error %v, report %+v; want a clean report", c.opt, err, rep)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%+v: error %v, want one with %q", c.opt, err, c.err)
		}
	}
	if _, err := verify.Check(append(jobs, jobs[0]), sch, verify.Options{Procs: 1}); err == nil || !strings.Contains(err.Error(), "job id 1 appears twice") {
		t.Errorf("a job id twice in the log: %v", err)
	}
}

// TestMaxViolations: every violation is counted, the first Max kept (20
// when Max is 0), and a violation without a line says so by leaving the
// line out.
func TestMaxViolations(t *testing.T) {
	var jobs []sim.Job
	for i := range 25 {
		jobs = append(jobs, sim.Job{ID: int64(i + 1), Submit: sim.Time(i), Runtime: 1, Estimate: 1, Procs: 1})
	}
	for _, c := range []struct{ max, kept int }{{0, 20}, {-3, 20}, {1, 1}, {2, 2}, {24, 24}, {25, 25}, {30, 25}} {
		rep, err := verify.Check(jobs, nil, verify.Options{Procs: 1, Max: c.max})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Count != 25 || len(rep.Violations) != c.kept || rep.Jobs != 25 || rep.Entries != 0 {
			t.Errorf("Max %d: count %d, kept %d, jobs %d, entries %d; want 25, %d, 25, 0", c.max, rep.Count, len(rep.Violations), rep.Jobs, rep.Entries, c.kept)
		}
	}
	rep, err := verify.Check(jobs[:1], nil, verify.Options{Procs: 1, Policy: verify.FCFS})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rep.Violations[0].String(), "missing: job 1 at t=0: job of the log absent from the schedule"; got != want {
		t.Errorf("violation %q, want %q", got, want)
	}
	if rep.PolicyChecked || rep.Note != "policy invariants not checked: the schedule breaks the basic rules" {
		t.Errorf("checked %v, note %q; want not checked, with the note", rep.PolicyChecked, rep.Note)
	}
	v := verify.Violation{Rule: verify.RuleEarly, JobID: 7, Time: 3, Line: 1, What: "x"}
	if got, want := v.String(), "early: job 7 at t=3 (line 1): x"; got != want {
		t.Errorf("violation %q, want %q", got, want)
	}
	// Without a policy, a broken schedule has no note.
	if rep, _ := verify.Check(jobs[:1], nil, verify.Options{Procs: 1}); rep.Note != "" || rep.PolicyChecked {
		t.Errorf("no policy: checked %v, note %q", rep.PolicyChecked, rep.Note)
	}
}

// TestEstimateFactorRoundsUp: planned times are the requested times times
// the factor, rounded up. Three processors; job 1 (t 0, 2 procs, 10 s
// requested) runs 0-10; job 2 (t 1, 3 procs) waits for it; job 3 (t 2, 1
// proc, 15 s) backfills at 2 and ends at 17, when job 2 starts. With factor
// 1.65 job 1 is planned to end at ceil(16.5) = 17, so EASY's shadow for job
// 2 is 17 and the schedule keeps it; truncated (16), or with factor 1
// (10), or 1.6 (16), job 2 starts late.
func TestEstimateFactorRoundsUp(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 10, Estimate: 10, Procs: 2},
		{ID: 2, Submit: 1, Runtime: 10, Estimate: 10, Procs: 3},
		{ID: 3, Submit: 2, Runtime: 15, Estimate: 15, Procs: 1},
	}
	sch := []verify.Entry{
		{ID: 1, Submit: 0, Procs: 2, Start: 0, End: 10},
		{ID: 2, Submit: 1, Procs: 3, Start: 17, End: 27},
		{ID: 3, Submit: 2, Procs: 1, Start: 2, End: 17},
	}
	for _, c := range []struct {
		factor float64
		late   bool
	}{{1.65, false}, {2, false}, {1.7, false}, {1.6, true}, {1, true}, {0, true}} {
		rep, err := verify.Check(jobs, sch, verify.Options{Procs: 3, Kill: true, Policy: verify.EASY, EstimateFactor: c.factor})
		if err != nil {
			t.Fatal(err)
		}
		if !rep.PolicyChecked {
			t.Fatalf("factor %v: not checked: %s", c.factor, rep.Note)
		}
		if late := !rep.OK(); late != c.late {
			t.Errorf("factor %v: violations %v, want late %v", c.factor, rep.Violations, c.late)
		}
		if c.late && (rep.Count != 1 || rep.Violations[0].Rule != verify.RuleEASY || rep.Violations[0].JobID != 2) {
			t.Errorf("factor %v: %v, want one EASY violation of job 2", c.factor, rep.Violations)
		}
	}
}

// TestOverrunNote: without kill, the reservation checks need every job to
// end by its requested time; the note counts those that do not (a job
// running exactly its requested time is not one).
func TestOverrunNote(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Runtime: 20, Estimate: 10, Procs: 1},
		{ID: 2, Runtime: 10, Estimate: 10, Procs: 1},
		{ID: 3, Runtime: 31, Estimate: 30, Procs: 1},
	}
	sch := []verify.Entry{{ID: 1, Procs: 1, Start: 0, End: 20}, {ID: 2, Procs: 1, Start: 20, End: 30}, {ID: 3, Procs: 1, Start: 30, End: 61}}
	for _, pol := range []verify.Policy{verify.EASY, verify.Conservative, verify.ConservativeBound} {
		rep, err := verify.Check(jobs, sch, verify.Options{Procs: 1, Policy: pol})
		if err != nil {
			t.Fatal(err)
		}
		want := pol.String() + " reservations not checked: 2 jobs run past their requested time and were not killed"
		if !rep.OK() || rep.PolicyChecked || !strings.HasPrefix(rep.Note, want) {
			t.Errorf("%v: ok %v, checked %v, note %q; want a note starting %q", pol, rep.OK(), rep.PolicyChecked, rep.Note, want)
		}
	}
	// Killed at the requested time, the same jobs run 10, 10 and 30 s.
	sch = []verify.Entry{{ID: 1, Procs: 1, Start: 0, End: 10}, {ID: 2, Procs: 1, Start: 10, End: 20}, {ID: 3, Procs: 1, Start: 20, End: 50}}
	rep, err := verify.Check(jobs, sch, verify.Options{Procs: 1, Kill: true, Policy: verify.EASY})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || !rep.PolicyChecked || rep.Note != "" {
		t.Errorf("killed: ok %v, checked %v, note %q, %v", rep.OK(), rep.PolicyChecked, rep.Note, rep.Violations)
	}
	// Killed, a job whose requested time equals its runtime runs its
	// runtime: the report says so.
	rep, _ = verify.Check(jobs[1:2], []verify.Entry{{ID: 2, Procs: 1, Start: 0, End: 12}}, verify.Options{Procs: 1, Kill: true})
	if rep.Count != 1 || rep.Violations[0].What != "runs 12 s (0 to 12), its runtime is 10 s" {
		t.Errorf("killed, requested time equal to the runtime: %v", rep.Violations)
	}
	// Killed, a job recorded with its full runtime breaks the duration rule.
	sch[0].End = 20
	rep, _ = verify.Check(jobs, sch, verify.Options{Procs: 1, Kill: true})
	if rep.Count == 0 || !strings.Contains(rep.Violations[0].What, "its requested time (killed) is 10 s") {
		t.Errorf("killed, full runtime recorded: %v", rep.Violations)
	}
}
