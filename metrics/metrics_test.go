package metrics

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat"
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// tiny is a hand-made result on 4 processors:
//
//	A: submit 0, runs 0-10 on 2 procs     wait 0,  response 10, slowdown 1, bsld 1
//	B: submit 0, runs 10-12 on 4 procs    wait 10, response 12, slowdown 6, bsld 12/10
//	C: submit 5, runs 12-12 on 1 proc     wait 7,  response 7,  slowdown max(1, 7/max(0, 1)) = 7, bsld max(1, 7/10) = 1
func tiny() *sim.Result {
	mk := func(id int64, sub, start, end sim.Time, procs int32, user int32) sim.Outcome {
		return sim.Outcome{Job: sim.Job{ID: id, Submit: sub, Runtime: end - start, Estimate: 100, Procs: procs, User: user},
			Start: start, End: end}
	}
	return &sim.Result{Procs: 4, Jobs: []sim.Outcome{
		mk(1, 0, 0, 10, 2, 7), mk(2, 0, 10, 12, 4, 3), mk(3, 5, 12, 12, 1, 7),
	}}
}

func near(t *testing.T, name string, got, want float64) {
	t.Helper()
	// An infinite want needs the same infinity: 1e-9·|want| would be infinite.
	if !(got == want || !math.IsInf(want, 0) && math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))) {
		t.Errorf("%s = %v, want %v", name, got, want)
	}
}

func TestComputeByHand(t *testing.T) {
	s, err := Compute(tiny(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "wait mean", s.Wait.Mean, 17.0/3)
	near(t, "wait median", s.Wait.Median, 7) // smallest value whose cumulative fraction reaches 1/2
	near(t, "wait p95", s.Wait.P95, 10)
	near(t, "wait max", s.Wait.Max, 10)
	near(t, "response mean", s.Response.Mean, 29.0/3)
	near(t, "slowdown mean", s.Slowdown.Mean, 14.0/3) // C has zero runtime: counted as 1 s
	if s.ZeroRuntime != 1 {
		t.Errorf("zero-runtime jobs %d, want 1", s.ZeroRuntime)
	}
	near(t, "bsld mean", s.BoundedSlowdown.Mean, (1+1.2+1)/3)
	near(t, "utilization", s.Utilization, 28.0/48)
	if s.Makespan != 12 {
		t.Errorf("makespan %d, want 12", s.Makespan)
	}
	near(t, "throughput", s.Throughput, 3/(12.0/604800))
	near(t, "queue mean", s.QueueMean, 17.0/12) // 1 job on [0,5), 2 on [5,10), 1 on [10,12)
	if s.QueueMax != 2 {
		t.Errorf("queue max %d, want 2", s.QueueMax)
	}
	if len(s.PerUser) != 2 || s.PerUser[0].Key != "3" || s.PerUser[1].Key != "7" || s.PerUser[1].Jobs != 2 {
		t.Errorf("per user %+v", s.PerUser)
	}
	near(t, "user 7 mean wait", s.PerUser[1].Wait.Mean, 3.5)
	if len(s.PerMonth) != 1 || s.PerMonth[0].Key != "1970-01" {
		t.Errorf("per month %+v", s.PerMonth)
	}
}

func TestWarmUpCoolDown(t *testing.T) {
	s, err := Compute(tiny(), Options{WarmUp: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s.Jobs != 1 || s.Excluded != 2 || s.WindowStart != 1 {
		t.Errorf("jobs %d excluded %d window %d", s.Jobs, s.Excluded, s.WindowStart)
	}
	// Utilization within [1, 12]: A 9 s x 2, B 2 s x 4.
	near(t, "utilization", s.Utilization, 26.0/44)
	if _, err := Compute(tiny(), Options{WarmUp: 3, CoolDown: 3}); err == nil {
		t.Error("a window of nothing: no error")
	}
	if _, err := Compute(tiny(), Options{Tau: -1}); err == nil {
		t.Error("negative tau: no error")
	}
}

func TestTau(t *testing.T) {
	s, err := Compute(tiny(), Options{Tau: 1})
	if err != nil {
		t.Fatal(err)
	}
	// B: 12/2 = 6; C: 7/1 = 7.
	near(t, "bsld mean", s.BoundedSlowdown.Mean, (1+6+7)/3.0)
}

func TestEmpty(t *testing.T) {
	s, err := Compute(&sim.Result{Procs: 4}, Options{})
	if err != nil || s.Jobs != 0 {
		t.Fatalf("%+v %v", s, err)
	}
	if q := QueueLength(&sim.Result{}); len(q) != 0 {
		t.Errorf("queue %v", q)
	}
}

// TestSummarizeMatchesGonum checks the selection-based quantiles against
// gonum's stat.Quantile (Empirical) on sorted copies.
func TestSummarizeMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for n := 1; n < 300; n += 7 {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(rng.IntN(50)) // many ties
		}
		sorted := slices.Clone(x)
		slices.Sort(sorted)
		s := summarize(x)
		if m := stat.Quantile(0.5, stat.Empirical, sorted, nil); s.Median != m {
			t.Errorf("n=%d median %v, gonum %v", n, s.Median, m)
		}
		if q := stat.Quantile(0.95, stat.Empirical, sorted, nil); s.P95 != q {
			t.Errorf("n=%d p95 %v, gonum %v", n, s.P95, q)
		}
		if s.Max != sorted[n-1] {
			t.Errorf("n=%d max %v", n, s.Max)
		}
	}
}

func TestJobCountTrim(t *testing.T) {
	s, err := Compute(tiny(), Options{WarmUpJobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s.Jobs != 1 || s.Excluded != 2 || s.WindowStart != 5 || s.Wait.Mean != 7 {
		t.Errorf("jobs %d excluded %d window %d wait %v", s.Jobs, s.Excluded, s.WindowStart, s.Wait.Mean)
	}
	for _, o := range []Options{{WarmUpJobs: 2, CoolDownJobs: 1}, {WarmUpJobs: 3}, {CoolDownJobs: 5}} {
		if _, err := Compute(tiny(), o); err == nil {
			t.Errorf("%+v: trimming every job, no error", o)
		}
	}
	if _, err := Compute(tiny(), Options{WarmUpJobs: -1}); err == nil {
		t.Error("negative job count accepted")
	}
}

// TestJobCountTrimCoolDown checks the cool-down by job count on four jobs
// submitted at 0, 10, 20 and 30 s that wait 1, 2, 3 and 4 s: the last job
// by submit time is left out (mean wait 2 s, window ending at the last kept
// submit, 20 s), and with one job of warm-up too the first (2.5 s, window
// 10 to 20 s); a trim that leaves a window of no length is refused.
func TestJobCountTrimCoolDown(t *testing.T) {
	res := &sim.Result{Procs: 4}
	for i := range 4 {
		sub := sim.Time(10 * i)
		res.Jobs = append(res.Jobs, sim.Outcome{Job: sim.Job{ID: int64(i + 1), Submit: sub, Runtime: 5, Estimate: 5, Procs: 1, User: 1},
			Start: sub + sim.Time(i+1), End: sub + sim.Time(i+1) + 5})
	}
	for _, c := range []struct {
		o                    Options
		jobs, excluded       int
		wait                 float64
		windowStart, windEnd sim.Time
	}{
		{Options{CoolDownJobs: 1}, 3, 1, 2, 0, 20},
		{Options{WarmUpJobs: 1, CoolDownJobs: 1}, 2, 2, 2.5, 10, 20},
	} {
		s, err := Compute(res, c.o)
		if err != nil {
			t.Fatalf("%+v: %v", c.o, err)
		}
		if s.Jobs != c.jobs || s.Excluded != c.excluded || s.Wait.Mean != c.wait || s.WindowStart != c.windowStart || s.WindowEnd != c.windEnd {
			t.Errorf("%+v: %d jobs, %d excluded, mean wait %v, window %d to %d; want %d, %d, %v, %d to %d", c.o,
				s.Jobs, s.Excluded, s.Wait.Mean, s.WindowStart, s.WindowEnd, c.jobs, c.excluded, c.wait, c.windowStart, c.windEnd)
		}
	}
	// One job of warm-up and two of cool-down keep the job at 10 s alone:
	// a window from 10 s to 10 s, of no length, is refused.
	if _, err := Compute(res, Options{WarmUpJobs: 1, CoolDownJobs: 2}); err == nil || !strings.Contains(err.Error(), "leave no window") {
		t.Errorf("a window of no length: %v", err)
	}
}

// TestConfidenceIntervals: on a long run of independent waits the batch
// means interval holds the mean; on a short one it says why there is none.
func TestConfidenceIntervals(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	res := &sim.Result{Procs: 1}
	for i := range 5000 {
		w := sim.Time(rng.IntN(200))
		res.Jobs = append(res.Jobs, sim.Outcome{Job: sim.Job{ID: int64(i), Submit: sim.Time(100 * i), Runtime: 20, Procs: 1},
			Start: sim.Time(100*i) + w, End: sim.Time(100*i) + w + 20})
	}
	s, err := Compute(res, Options{CILevel: 0.95})
	if err != nil {
		t.Fatal(err)
	}
	w := s.CI.Wait
	if w.Method != "batch means" || !(w.Low < s.Wait.Mean && s.Wait.Mean < w.High) || w.High-w.Low > 10 || w.Note != "" {
		t.Errorf("wait interval %+v around %v", w, s.Wait.Mean)
	}
	// Deferred, the intervals are the same, each computed from its own
	// series (runtimes vary here so that the slowdowns differ).
	for i := range res.Jobs {
		if i%3 == 0 {
			res.Jobs[i].End = res.Jobs[i].Start + sim.Time(i%7)
		}
	}
	s2, err := Compute(res, Options{CILevel: 0.9, WarmUpJobs: 10})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Compute(res, Options{CILevel: 0.9, WarmUpJobs: 10, DeferIntervals: true})
	if err != nil || d.CI != nil {
		t.Fatalf("deferred: %v, %+v", err, d.CI)
	}
	d.FinishIntervals()
	if d.CI == nil || !reflect.DeepEqual(*d.CI, *s2.CI) || d.CI.Slowdown == d.CI.BoundedSlowdown {
		t.Errorf("deferred intervals %+v, want %+v", d.CI, s2.CI)
	}
	res.Jobs = res.Jobs[:5]
	s, err = Compute(res, Options{CILevel: 0.95})
	if err != nil {
		t.Fatal(err)
	}
	if s.CI.Wait.Note == "" || !math.IsNaN(s.CI.Wait.Low) {
		t.Errorf("5 jobs: %+v", s.CI.Wait)
	}
	if _, err := Compute(res, Options{CILevel: 1}); err == nil {
		t.Error("level 1 accepted")
	}
}

// TestNoIntervalsAskedAndTimeWindow checks that a level of 0 asks for no
// intervals, computed at once or deferred, and that a warm-up leaving a
// window of no length is refused: tiny's jobs are submitted from 0 s and
// end by 12 s, so a warm-up of 12 s leaves the window [12 s, 12 s].
func TestNoIntervalsAskedAndTimeWindow(t *testing.T) {
	for _, o := range []Options{{}, {DeferIntervals: true}} {
		s, err := Compute(tiny(), o)
		if err != nil {
			t.Fatal(err)
		}
		s.FinishIntervals()
		if s.CI != nil {
			t.Errorf("%+v: intervals %+v, none asked", o, s.CI)
		}
	}
	if _, err := Compute(tiny(), Options{WarmUp: 11}); err != nil {
		t.Errorf("warm-up 11 s: %v", err)
	}
	if _, err := Compute(tiny(), Options{WarmUp: 12}); err == nil || !strings.Contains(err.Error(), "warm-up 12 s and cool-down 0 s leave no window") {
		t.Errorf("warm-up 12 s: %v, want no window", err)
	}
}
