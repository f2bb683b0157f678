package metrics

import (
	"strconv"
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
//	A: submit  1000, runs  1000-11000 on 4 procs  wait   0  (Jan 31 21:16 local)
//	B: submit 10799, runs 11000-11500 on 2 procs  wait 201  (Jan 31 23:59:59 local)
//	C: submit 10800, runs 11000-12000 on 2 procs  wait 200  (Feb 1 00:00 local), backfilled
//	D: submit 12000, runs 12000-12100 on 1 proc   wait   0
//
// In UTC every job is in February for New York (UTC−5), in January for
// Tokyo (UTC+9).
func late(t *testing.T, zone string) (*sim.Result, *trace.Clock) {
	t.Helper()
	mk := func(id int64, sub, start, end sim.Time, procs int32, bf bool) sim.Outcome {
		return sim.Outcome{Job: sim.Job{ID: id, Submit: sub, Runtime: end - start, Estimate: 20000, Procs: procs, User: int32(id)},
			Start: start, End: end, Backfilled: bf}
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
		mk(1, 1000, 1000, 11000, 4, false), mk(2, 10799, 11000, 11500, 2, false),
		mk(3, 10800, 11000, 12000, 2, true), mk(4, 12000, 12000, 12100, 1, false),
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
	if s.Jobs != 4 || s.Excluded != 0 {
		t.Errorf("jobs %d, excluded %d", s.Jobs, s.Excluded)
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
