package metrics

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the zone below, whatever the host has

	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// late is a hand-made schedule on 4 processors that starts long after
// time 0 and crosses a month boundary of its log's zone, where time 0 is
// 2020-01-31 21:00 local:
//
//	A: submit  1000, runs  1000-11000 on 4 procs  wait   0  (Jan 31 21:16 local), predicted 10000 s
//	B: submit 10799, runs 11000-11500 on 2 procs  wait 201  (Jan 31 23:59:59 local), predicted 1000 s
//	C: submit 10800, runs 11000-12000 on 2 procs  wait 200  (Feb 1 00:00 local), backfilled, predicted 1000 s
//	D: submit 12000, runs 12000-12100 on 1 proc   wait   0, predicted 50 s
//
// In UTC every job is in February for New York (UTC−5), in January for
// Tokyo (UTC+9).
func late(t *testing.T, zone string) (*sim.Result, *trace.Clock) {
	t.Helper()
	mk := func(id int64, sub, start, end sim.Time, procs int32, bf bool, initial sim.Time) sim.Outcome {
		return sim.Outcome{Job: sim.Job{ID: id, Submit: sub, Runtime: end - start, Estimate: 20000, Procs: procs, User: int32(id)},
			Start: start, End: end, Backfilled: bf, Initial: initial, Prediction: initial}
	}
	var h swf.Header
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	h.Set("UnixStartTime", strconv.FormatInt(time.Date(2020, 1, 31, 21, 0, 0, 0, loc).Unix(), 10))
	h.Set("TimeZoneString", zone)
	c := trace.New(h, nil, trace.Options{}).Clock()
	if got := c.Time(0).Format("2006-01-02 15:04"); got != "2020-01-31 21:00" {
		t.Fatalf("time 0 is %s local", got)
	}
	return &sim.Result{Procs: 4, Jobs: []sim.Outcome{
		mk(1, 1000, 1000, 11000, 4, false, 10000), mk(2, 10799, 11000, 11500, 2, false, 1000),
		mk(3, 10800, 11000, 12000, 2, true, 1000), mk(4, 12000, 12000, 12100, 1, false, 50),
	}}, c
}

// TestComputeLateStart checks every figure that depends on where the
// schedule starts: the makespan and the window run from the first submit
// (1000), not from time 0.
func TestComputeLateStart(t *testing.T) {
	for _, zone := range []string{"America/New_York", "Asia/Tokyo"} {
		t.Run(zone, func(t *testing.T) { testComputeLateStart(t, zone) })
	}
}

func testComputeLateStart(t *testing.T, zone string) {
	res, clock := late(t, zone)
	s, err := Compute(res, Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	if s.Makespan != 11100 || s.WindowStart != 1000 || s.WindowEnd != 12100 {
		t.Errorf("makespan %d, window [%d, %d]; want 11100, [1000, 12100]", s.Makespan, s.WindowStart, s.WindowEnd)
	}
	near(t, "utilization", s.Utilization, (4*10000+2*500+2*1000+1*100)/(4*11100.0))
	near(t, "throughput", s.Throughput, 4/(11100/604800.0))
	// One job waits on [10799, 10800), two on [10800, 11000).
	near(t, "queue mean", s.QueueMean, (1*1+2*200)/11100.0)
	if s.QueueMax != 2 {
		t.Errorf("queue max %d, want 2", s.QueueMax)
	}
	near(t, "backfilled", s.Backfilled, 0.25)
	near(t, "wait mean", s.Wait.Mean, 401/4.0)
	if s.Jobs != 4 || s.Excluded != 0 || s.Killed != 0 {
		t.Errorf("jobs %d, excluded %d, killed %d", s.Jobs, s.Excluded, s.Killed)
	}
	// Predictions on arrival: A and C exact, B and D off by a factor 2.
	a := s.Accuracy
	if a.Jobs != 4 || a.Exact != 0.5 || a.InitialRelAccuracy != 0.75 || a.InitialAbsError != (500+50)/4.0 || a.TimeWeighted {
		t.Errorf("accuracy %+v, want 4 jobs, exact 0.5, relative 0.75, absolute 137.5", a)
	}
	want := []struct {
		key  string
		jobs int
		wait float64
	}{{"2020-01", 2, 201.0 / 2}, {"2020-02", 2, 200.0 / 2}}
	if len(s.PerMonth) != len(want) {
		t.Fatalf("per month %+v, want %v", s.PerMonth, want)
	}
	for i, w := range want {
		g := s.PerMonth[i]
		if g.Key != w.key || g.Jobs != w.jobs || g.Wait.Mean != w.wait {
			t.Errorf("month %d: %s, %d jobs, mean wait %v; want %s, %d, %v", i, g.Key, g.Jobs, g.Wait.Mean, w.key, w.jobs, w.wait)
		}
	}
	// Without the clock the months are UTC from the epoch: all January 1970.
	s, err = Compute(res, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.PerMonth) != 1 || s.PerMonth[0].Key != "1970-01" || s.PerMonth[0].Jobs != 4 {
		t.Errorf("no clock: per month %+v", s.PerMonth)
	}
}

// TestComputeLateWindow: a warm-up counts from the first submit, a
// cool-down back from the last one.
func TestComputeLateWindow(t *testing.T) {
	res, _ := late(t, "America/New_York")
	s, err := Compute(res, Options{WarmUp: 9799, CoolDown: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Window [10799, 11999]: B and C measured; A before, D after.
	if s.WindowStart != 10799 || s.WindowEnd != 11999 || s.Jobs != 2 || s.Excluded != 2 {
		t.Fatalf("window [%d, %d], %d jobs, %d excluded", s.WindowStart, s.WindowEnd, s.Jobs, s.Excluded)
	}
	// Busy within the window: A 201 s x 4, B 500 s x 2, C 999 s x 2.
	near(t, "utilization", s.Utilization, (201*4+500*2+999*2)/(4*1200.0))
	near(t, "queue mean", s.QueueMean, (1*1+2*200)/1200.0)
	near(t, "backfilled", s.Backfilled, 0.5)
	// B completes within the window, C (end 12000) after it.
	near(t, "throughput", s.Throughput, 1/(1200/604800.0))
}

// TestComputeWindowEdges: a job submitted exactly at the end of the window
// (last submit less the cool-down) is measured; a window of no length is an
// error that gives the submission period; a window holding no submission
// measures nothing, with a backfilled fraction of 0; killed jobs are
// counted.
func TestComputeWindowEdges(t *testing.T) {
	res, _ := late(t, "America/New_York")
	res.Jobs[1].Killed = true
	s, err := Compute(res, Options{CoolDown: 1200})
	if err != nil {
		t.Fatal(err)
	}
	// Window [1000, 10800]: A, B and C (submitted at 10800) measured.
	if s.WindowEnd != 10800 || s.Jobs != 3 || s.Excluded != 1 || s.Killed != 1 {
		t.Errorf("window [%d, %d], %d jobs, %d excluded, %d killed; want [1000, 10800], 3, 1, 1",
			s.WindowStart, s.WindowEnd, s.Jobs, s.Excluded, s.Killed)
	}
	_, err = Compute(res, Options{WarmUp: 5500, CoolDown: 5500})
	if err == nil || !strings.Contains(err.Error(), "of the 11000 s submission period") {
		t.Errorf("empty window: error %v, want one naming the 11000 s submission period", err)
	}
	s, err = Compute(res, Options{WarmUp: 1, CoolDown: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s.Jobs != 2 || s.Backfilled != 0.5 {
		t.Errorf("window [1001, 11999]: %d jobs, backfilled %v; want 2, 0.5", s.Jobs, s.Backfilled)
	}
	// Window [11000, 12100]: the two jobs that waited until 11000 are
	// not in its queue.
	s, err = Compute(res, Options{WarmUp: 10000})
	if err != nil {
		t.Fatal(err)
	}
	if s.QueueMax != 0 || s.QueueMean != 0 {
		t.Errorf("window from 11000: queue max %d, mean %v; want 0, 0", s.QueueMax, s.QueueMean)
	}
	two := &sim.Result{Procs: 1, Jobs: []sim.Outcome{
		{Job: sim.Job{ID: 1, Submit: 0, Runtime: 5}, Start: 0, End: 5, Backfilled: true},
		{Job: sim.Job{ID: 2, Submit: 100, Runtime: 5}, Start: 100, End: 105},
	}}
	s, err = Compute(two, Options{WarmUp: 10, CoolDown: 10})
	if err != nil {
		t.Fatal(err)
	}
	if s.Jobs != 0 || s.Excluded != 2 || s.Backfilled != 0 {
		t.Errorf("no submission in the window: %d jobs, %d excluded, backfilled %v", s.Jobs, s.Excluded, s.Backfilled)
	}
}

// TestRel: the relative gain (base − x)/base, 0 when both are 0, NaN for a
// zero base only.
func TestRel(t *testing.T) {
	if g := rel(10, 4); g != 0.6 {
		t.Errorf("rel(10, 4) = %v, want 0.6", g)
	}
	if g := rel(0, 0); g != 0 {
		t.Errorf("rel(0, 0) = %v, want 0", g)
	}
	if g := rel(0, 3); !math.IsNaN(g) {
		t.Errorf("rel(0, 3) = %v, want NaN", g)
	}
}
