package sched

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/sched/schedtest"
	"github.com/hpcwl/hpcwl/sim"
)

// The hand-made logs of the queue priority tests, on 10 processors, every
// runtime equal to its requested time. Submit times start at 10000 s so
// that F1's 870 * log10(s) term differs little between jobs (at s near
// 10000 s a 10 s later submit adds 870 * log10(1.001) = 0.38) and its
// n * log10(r) term decides.
//
// Log A: job 1 holds the whole machine from 10000 to 10100; jobs 2-6
// arrive meanwhile and are all waiting at 10100 (w = wait at 10100):
//
//	job  submit  n  r    w   WFP3 (w/r)^3 n  UNICEP w/(log2 n r)  F1 (rel.)  area  r
//	2    10010   6  100  90  4.374           0.348                12.00      600   100
//	3    10020   4  300  80  0.076           0.133                10.29      1200  300
//	4    10030   8  50   70  21.95           0.467                14.35      400   50
//	5    10040   2  10   60  432             6.0                  3.13       20    10
//	6    10050   1  200  50  0.016           serial: first        3.81       200   200
//
// (F1 relative: n log10(r) + 870 log10(s/10010).)
func priorityLogA() []sim.Job {
	return []sim.Job{
		pjob(1, 10000, 100, 10), pjob(2, 10010, 100, 6), pjob(3, 10020, 300, 4),
		pjob(4, 10030, 50, 8), pjob(5, 10040, 10, 2), pjob(6, 10050, 200, 1),
	}
}

// Log B: job 1 again holds the machine until 10100; then jobs a = 2
// (n 5, r 10), b = 3 (n 5, r 1000), c = 4 (n 9, r 20), d = 5 (submitted at
// 10095, n 5, r 5) wait.
func priorityLogB() []sim.Job {
	return []sim.Job{
		pjob(1, 10000, 100, 10), pjob(2, 10010, 10, 5), pjob(3, 10020, 1000, 5),
		pjob(4, 10030, 20, 9), pjob(5, 10095, 5, 5),
	}
}

func pjob(id, submit, run, procs int) sim.Job {
	return sim.Job{ID: int64(id), Submit: sim.Time(submit), Runtime: sim.Time(run), Estimate: sim.Time(run), Procs: int32(procs), Index: -1}
}

// orderAt records a scheduler's queue order at the pass of one instant.
type orderAt struct {
	*Maui
	at  sim.Time
	got []int64
}

func (o *orderAt) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	if v.Now() == o.at {
		for _, r := range o.ordered(v) {
			o.got = append(o.got, v.ID(r))
		}
	}
	return o.Maui.Schedule(v, dst)
}

// TestQueuePriorityOrder checks each priority function's queue order on
// log A at 10100, worked out by hand from the table above: every function
// gives a different order.
func TestQueuePriorityOrder(t *testing.T) {
	want := map[string][]int64{
		"fcfs":   {2, 3, 4, 5, 6},
		"wfp3":   {5, 4, 2, 3, 6},
		"unicep": {6, 5, 4, 2, 3},
		"f1":     {5, 6, 3, 2, 4},
		"saf":    {5, 6, 4, 2, 3},
		"sjf":    {5, 4, 2, 6, 3},
		"ljf":    {4, 2, 3, 5, 6},
	}
	if len(want) != len(PriorityNames()) {
		t.Fatalf("orders for %d functions, %d registered", len(want), len(PriorityNames()))
	}
	for name, w := range want {
		t.Run(name, func(t *testing.T) {
			m, err := NewEASYPriority(name, 0)
			if err != nil {
				t.Fatal(err)
			}
			o := &orderAt{Maui: m, at: 10100}
			if _, err := sim.Run(context.Background(), sim.NewReplay(priorityLogA()), o, sim.Config{Procs: 10}); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(o.got, w) {
				t.Errorf("order at 10100 %v, want %v", o.got, w)
			}
		})
	}
}

// TestQueuePriorityGolden checks EASY's schedule under each priority
// function on logs A and B against start times worked out by hand
// (derivations below, times relative to 10000; "shadow S extra E" is the
// head's reservation).
//
// Log A, FCFS: at 100 jobs 2 and 3 start (free 0); head 4 (8 procs) gets
// shadow 400 (job 2's end frees only 6 by 200). At 200 job 2 ends (free
// 6): 5 ends by 400 (210) and 6 ends by 400 (400), both backfill. At 400
// jobs 3 and 6 end and 4 starts.
//
// Log A, WFP3: at 100 order 5,4,2,3,6: 5 and 4 start (free 0); head 2
// shadow 150 extra 4. At 110 5 ends (free 2); order 2,3,6; 6 (1 proc, ends
// 310 > 150) fits the extra processors and starts. At 150 4 ends: 2 starts
// (free 3), head 3 shadow 250 (2's end); 3 starts at 250.
//
// Log A, SJF (order 5,4,2,6,3) and LJF (4,2,3,5,6) give the same starts:
// SJF as WFP3; LJF starts 4 at 100 (free 2), head 2 shadow 150 extra 4,
// backfills 5 (ends 110 <= 150); at 110 6 uses an extra processor; at 150
// 2 starts, 3 at 250.
//
// Log A, UNICEP: at 100 order 6,5,4,2,3: 6 and 5 start (free 7), head 4
// shadow 110 extra 1; 2 and 3 neither end by 110 nor fit 1 processor. At
// 110 4 starts (free 1), head 2 shadow 160; at 160 2 starts, head 3 shadow
// 260. SAF (order 5,6,4,2,3) gives the same starts.
//
// Log A, F1 (order 5,6,3,2,4, fixed): at 100 5, 6 and 3 start (free 3),
// head 2 (6 procs) shadow 300 (5's end gives 5, 6's end 6) extra 0; 4 (8)
// does not fit. At 300 2 starts; head 4 shadow 400; at 400 4 starts.
//
// Log B, FCFS: at 100 a and b start (free 0), head c shadow 1100 (b's
// end) extra 1; at 110 a ends and d (ends 115 <= 1100) backfills; c starts
// at 1100.
//
// Log B, LJF (order c,a,b,d): c starts at 100 (free 1), head a shadow 120
// extra 5; at 120 a and b start, head d shadow 130 (a's end); d at 130.
//
// Log B, SJF (order d,a,c,b), SAF (same order), WFP3 and UNICEP (order
// a,c,d,b at 100 and c before b after) and F1 (a,d,c,b): at 100 a and d
// start (under WFP3 and UNICEP d backfills: it ends at 105, before c's
// shadow 110), head c shadow 110 extra 1; b (ends 1100 or later) cannot
// backfill. At 110 c starts, head b shadow 130; b starts at 130.
func TestQueuePriorityGolden(t *testing.T) {
	a := map[string]map[int64]sim.Time{
		"fcfs":   {1: 0, 2: 100, 3: 100, 4: 400, 5: 200, 6: 200},
		"wfp3":   {1: 0, 2: 150, 3: 250, 4: 100, 5: 100, 6: 110},
		"sjf":    {1: 0, 2: 150, 3: 250, 4: 100, 5: 100, 6: 110},
		"ljf":    {1: 0, 2: 150, 3: 250, 4: 100, 5: 100, 6: 110},
		"unicep": {1: 0, 2: 160, 3: 260, 4: 110, 5: 100, 6: 100},
		"saf":    {1: 0, 2: 160, 3: 260, 4: 110, 5: 100, 6: 100},
		"f1":     {1: 0, 2: 300, 3: 100, 4: 400, 5: 100, 6: 100},
	}
	other := map[int64]sim.Time{1: 0, 2: 100, 3: 130, 4: 110, 5: 100}
	b := map[string]map[int64]sim.Time{
		"fcfs":   {1: 0, 2: 100, 3: 100, 4: 1100, 5: 110},
		"ljf":    {1: 0, 2: 120, 3: 120, 4: 100, 5: 130},
		"sjf":    other,
		"saf":    other,
		"wfp3":   other,
		"unicep": other,
		"f1":     other,
	}
	for _, c := range []struct {
		log  string
		jobs func() []sim.Job
		want map[string]map[int64]sim.Time
	}{{"A", priorityLogA, a}, {"B", priorityLogB, b}} {
		for _, name := range PriorityNames() {
			t.Run(c.log+"/"+name, func(t *testing.T) {
				w, ok := c.want[name]
				if !ok {
					t.Fatalf("no hand-worked schedule for %s", name)
				}
				m, err := NewEASYPriority(name, 0)
				if err != nil {
					t.Fatal(err)
				}
				res, err := sim.Run(context.Background(), sim.NewReplay(c.jobs()), m, sim.Config{Procs: 10})
				if err != nil {
					t.Fatal(err)
				}
				for _, o := range res.Jobs {
					if want := w[o.ID] + 10000; o.Start != want {
						t.Errorf("job %d starts at %d, want %d", o.ID, o.Start-10000, want-10000)
					}
				}
			})
		}
	}
}

// TestEASYPriorityParam: the registry builds EASY with a priority from
// the parameter, plain EASY for fcfs, and lists the valid names otherwise.
func TestEASYPriorityParam(t *testing.T) {
	s, err := NewWithOptions("easy", Options{Params: map[string]string{"priority": "WFP3"}})
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := s.(*Maui); !ok || m.Name() != "easy-wfp3" {
		t.Fatalf("got %T %v", s, s)
	}
	if s, err := NewWithOptions("easy", Options{Params: map[string]string{"priority": "fcfs"}}); err != nil {
		t.Fatal(err)
	} else if _, ok := s.(*EASY); !ok {
		t.Fatalf("fcfs: got %T, want plain EASY", s)
	}
	_, err = NewWithOptions("easy", Options{Params: map[string]string{"priority": "lifo"}})
	if err == nil || !strings.Contains(err.Error(), "valid: f1, fcfs, ljf, saf, sjf, unicep, wfp3") {
		t.Fatalf("unknown priority: got %v", err)
	}
}

// TestQueuePriorityScores checks each function's tier and score on
// hand-computed values.
func TestQueuePriorityScores(t *testing.T) {
	for _, c := range []struct {
		name       string
		w, r, n, s float64
		tier       int
		score      float64
	}{
		{"wfp3", 90, 100, 6, 1, 0, 0.729 * 6},
		{"wfp3", 50, 25, 3, 1, 0, 8 * 3},
		{"unicep", 80, 300, 4, 1, 1, 80.0 / 600},
		{"unicep", 50, 200, 1, 1, 0, 0.25},
		{"f1", 0, 100, 6, 10010, 0, -3492.3777},
		{"f1", 7, 1000, 2, 1, 0, -6},
		{"saf", 9, 300, 4, 1, 0, -1200},
		{"sjf", 9, 300, 4, 1, 0, -300},
		{"ljf", 9, 300, 4, 1, 0, 4},
		{"fcfs", 9, 300, 4, 77, 0, -77},
	} {
		tier, score := queuePriorities[c.name].rank(c.w, c.r, c.n, c.s)
		if tier != c.tier || !(math.Abs(score-c.score) <= 1e-4) {
			t.Errorf("%s(w %v, r %v, n %v, s %v) = tier %d score %v, want %d %v", c.name, c.w, c.r, c.n, c.s, tier, score, c.tier, c.score)
		}
	}
}

// TestQueuePriorityConformance runs EASY under every priority function
// through the invariants every scheduler keeps, on random workloads with
// overrunning jobs, killed or not.
func TestQueuePriorityConformance(t *testing.T) {
	for _, name := range PriorityNames() {
		f := func() sim.Scheduler { s, _ := NewEASYPriority(name, 0); return s }
		t.Run(name, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				c := schedtest.Workload(rt, false)
				c.Kill = rapid.Bool().Draw(rt, "kill")
				if err := schedtest.Check(c, f, false); err != nil {
					rt.Fatal(err)
				}
			})
		})
	}
}
