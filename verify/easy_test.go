package verify_test

import (
	"testing"

	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/verify"
)

// TestEASYShadowByHand places EASY violations that only one instant of
// the replay sees, each worked out by hand.
func TestEASYShadowByHand(t *testing.T) {
	job := func(id, submit, run, est, procs int) sim.Job {
		return sim.Job{ID: int64(id), Submit: sim.Time(submit), Runtime: sim.Time(run), Estimate: sim.Time(est), Procs: int32(procs)}
	}
	e := func(id, submit, procs, start, end int) verify.Entry {
		return verify.Entry{ID: int64(id), Submit: sim.Time(submit), Procs: procs, Start: sim.Time(start), End: sim.Time(end), Line: id + 1}
	}
	for _, c := range []struct {
		name  string
		procs int
		jobs  []sim.Job
		sch   []verify.Entry
		want  []string
	}{
		// 6 processors. Jobs 1 and 2 (2 each) are planned to end at 100
		// and 200; at t=1 job 3 (4 processors) has 2 free, 4 at 100: its
		// shadow is 100, exactly enough. Job 4 (2 processors, 150 s)
		// backfills at 2 into processors job 3 needs at 100 and delays it
		// to 152. From t=2 on the shadow is 152 (job 4 counted), so only
		// t=1 sees the late start.
		{"shadow with exactly enough", 6,
			[]sim.Job{job(1, 0, 100, 100, 2), job(2, 0, 200, 200, 2), job(3, 1, 10, 10, 4), job(4, 2, 150, 150, 2)},
			[]verify.Entry{e(1, 0, 2, 0, 100), e(2, 0, 2, 0, 200), e(3, 1, 4, 152, 162), e(4, 2, 2, 2, 152)},
			[]string{"easy-shadow: job 3 at t=1 (line 4): oldest waiting job at t=1 with shadow time 100, starts at 152"}},
		// 4 processors, 2 busy: job 2 (2 processors) fits when it
		// arrives at 5 and starts at 8; no other instant lies between.
		{"fits exactly at arrival", 4,
			[]sim.Job{job(1, 0, 50, 100, 2), job(2, 5, 10, 10, 2)},
			[]verify.Entry{e(1, 0, 2, 0, 50), e(2, 5, 2, 8, 18)},
			[]string{"easy-shadow: job 2 at t=5 (line 3): oldest waiting job at t=5 with shadow time 5, starts at 8"}},
		// Job 1 ends at 50, half its requested time; job 2 fits then but
		// starts at 60. Job 3, of zero length, starting at 50 holds
		// nothing.
		{"early end", 4,
			[]sim.Job{job(1, 0, 50, 100, 4), job(2, 1, 10, 10, 4), job(3, 2, 0, 10, 4)},
			[]verify.Entry{e(1, 0, 4, 0, 50), e(2, 1, 4, 60, 70), e(3, 2, 4, 50, 50)},
			[]string{"easy-shadow: job 2 at t=50 (line 3): oldest waiting job at t=50 with shadow time 50, starts at 60"}},
		// Jobs 1 and 2 arrive together; job 1 starts at 0 and job 2, which
		// fits beside it, at 3.
		{"second of two arrivals", 4,
			[]sim.Job{job(1, 0, 10, 10, 2), job(2, 0, 10, 10, 2)},
			[]verify.Entry{e(1, 0, 2, 0, 10), e(2, 0, 2, 3, 13)},
			[]string{"easy-shadow: job 2 at t=0 (line 3): oldest waiting job at t=0 with shadow time 0, starts at 3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, got := check(t, c.jobs, c.sch, c.procs, verify.EASY)
			if !rep.PolicyChecked || !equal(got, c.want) || rep.Count != len(c.want) {
				t.Errorf("violations %q (count %d, checked %v: %s), want %q", got, rep.Count, rep.PolicyChecked, rep.Note, c.want)
			}
		})
	}
}

// TestConservativeBoundEdges: a job that ended at the instant another
// arrives plans nothing for it; a job of zero length neither.
func TestConservativeBoundEdges(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 10, Estimate: 100, Procs: 4},
		{ID: 2, Submit: 10, Runtime: 10, Estimate: 10, Procs: 4},
	}
	sch := []verify.Entry{
		{ID: 1, Submit: 0, Procs: 4, Start: 0, End: 10, Line: 2},
		{ID: 2, Submit: 10, Procs: 4, Start: 20, End: 30, Line: 3},
	}
	for _, pol := range []verify.Policy{verify.ConservativeBound, verify.Conservative} {
		rep, got := check(t, jobs, sch, 4, pol)
		if !rep.PolicyChecked || rep.Count != 1 || rep.Violations[0].JobID != 2 {
			t.Errorf("%v: violations %q, want one of job 2", pol, got)
		}
		if pol == verify.ConservativeBound {
			want := "conservative-bound: job 2 at t=20 (line 3): starts at 20, after 10, the latest its reservation at arrival (t=10) could be"
			if !equal(got, []string{want}) {
				t.Errorf("violations %q, want %q", got, want)
			}
		}
	}
}
