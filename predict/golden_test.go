package predict

import (
	"context"
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// job is a hand-made job: ID, submit, runtime, estimate, processors, user
// and executable (set in the test trace at the job's index).
type job struct {
	id                int64
	submit, run, est  sim.Time
	procs, user, exec int32
}

// want is a job's hand-worked predictions: on arrival, at the end, and the
// number of deadline misses.
type want struct {
	initial, last sim.Time
	misses        int32
}

// runJobs simulates jobs under FCFS on a machine of procs processors with
// predictor spec; the test trace gives the executables.
func runJobs(t *testing.T, spec string, procs int, jobs []job) *sim.Result {
	t.Helper()
	tr := &trace.Trace{}
	sj := make([]sim.Job, len(jobs))
	for i, j := range jobs {
		tr.Jobs = append(tr.Jobs, trace.Job{ID: j.id, App: j.exec})
		sj[i] = sim.Job{ID: j.id, Submit: j.submit, Runtime: j.run, Estimate: j.est, Procs: j.procs, User: j.user, Index: int32(i)}
	}
	p, err := New(spec, Env{Trace: tr})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), sim.NewReplay(sj), sched.NewFCFS(), sim.Config{Procs: procs, Predictor: p, RecordPredictions: true})
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	return res
}

// checkGolden simulates jobs (see runJobs) and compares every job's
// predictions with wants. It runs them a second time with user 1 renamed
// 0: user 0 is a user like any other (only a negative user is unknown), so
// the predictions must not change.
func checkGolden(t *testing.T, spec string, procs int, jobs []job, wants map[int64]want) {
	t.Helper()
	user0 := slices.Clone(jobs)
	for i := range user0 {
		if user0[i].user == 0 {
			t.Fatalf("%s: job %d already has user 0", spec, user0[i].id)
		}
		if user0[i].user == 1 {
			user0[i].user = 0
		}
	}
	for _, run := range []struct {
		name string
		jobs []job
	}{{"", jobs}, {" (user 1 as user 0)", user0}} {
		res := runJobs(t, spec, procs, run.jobs)
		for _, o := range res.Jobs {
			w := wants[o.ID]
			if o.Initial != w.initial || o.Prediction != w.last || o.Misses != w.misses {
				t.Errorf("%s%s: job %d: predicted %d on arrival, %d at the end, %d misses; want %d, %d, %d",
					spec, run.name, o.ID, o.Initial, o.Prediction, o.Misses, w.initial, w.last, w.misses)
			}
		}
	}
}

// ruhJobs start on arrival (100 processors). User 1's runtimes in
// termination order: 50 (job 2, ends 60), 100 (job 1, ends 100), 30 (job 3,
// ends 230), 20 (job 4, ends 320), 10 (job 5, ends 410).
var ruhJobs = []job{
	{1, 0, 100, 1000, 1, 1, -1},
	{2, 10, 50, 1000, 1, 1, -1},
	{3, 200, 30, 1000, 1, 1, -1},
	{4, 300, 20, 1000, 1, 1, -1},
	{5, 400, 10, 27, 1, 1, -1},
	{6, 500, 500, 2000, 1, 1, -1},
	{7, 350, 5, 60, 1, 2, -1},
}

func TestRUHGolden(t *testing.T) {
	// Median of the last 3 terminated jobs of the user, capped:
	// jobs 1-3: fewer than 3 terminated jobs, the estimate;
	// job 4: median(50, 100, 30) = 50;
	// job 5: median(100, 30, 20) = 30, capped at its estimate 27;
	// job 6: median(30, 20, 10) = 20; it runs 500 s and misses at 520, when
	// policy EG raises it to the estimate 2000;
	// job 7: user 2 has no history: the estimate.
	checkGolden(t, "ruh", 100, ruhJobs, map[int64]want{
		1: {1000, 1000, 0}, 2: {1000, 1000, 0}, 3: {1000, 1000, 0}, 4: {50, 50, 0},
		5: {27, 27, 0}, 6: {20, 2000, 1}, 7: {60, 60, 0},
	})
	// EASY++, the mean of the last 2: job 3: (50+100)/2 = 75; job 4:
	// (100+30)/2 = 65; job 5: (30+20)/2 = 25 (under the cap 27); job 6:
	// (20+10)/2 = 15, missed at 515, raised to 2000.
	checkGolden(t, "easy++", 100, ruhJobs, map[int64]want{
		1: {1000, 1000, 0}, 2: {1000, 1000, 0}, 3: {75, 75, 0}, 4: {65, 65, 0},
		5: {25, 25, 0}, 6: {15, 2000, 1}, 7: {60, 60, 0},
	})
	// Without the cap job 5 keeps median 30 (and runs 10 s).
	checkGolden(t, "ruh:cap=false", 100, ruhJobs, map[int64]want{
		1: {1000, 1000, 0}, 2: {1000, 1000, 0}, 3: {1000, 1000, 0}, 4: {50, 50, 0},
		5: {30, 30, 0}, 6: {20, 2000, 1}, 7: {60, 60, 0},
	})
}

// queued jobs wait on one processor: A runs 0-10, B 10-20, C 20-30, D
// 30-70.
var queued = []job{
	{1, 0, 10, 100, 1, 1, -1},
	{2, 1, 10, 100, 1, 1, -1},
	{3, 2, 10, 100, 1, 1, -1},
	{4, 3, 40, 100, 1, 1, -1},
}

func TestRUHPropagation(t *testing.T) {
	// History length 1. Without propagation every job keeps its arrival
	// prediction, the estimate 100 (no history when each arrived).
	checkGolden(t, "ruh:n=1", 1, queued, map[int64]want{
		1: {100, 100, 0}, 2: {100, 100, 0}, 3: {100, 100, 0}, 4: {100, 100, 0},
	})
	// With propagation, A's end at 10 revises the waiting B, C and D to
	// 10; D (40 s) then misses at 30+10 = 40 and EG restores the estimate.
	checkGolden(t, "ruh:n=1,prop=true", 1, queued, map[int64]want{
		1: {100, 100, 0}, 2: {100, 10, 0}, 3: {100, 10, 0}, 4: {100, 100, 1},
	})
}

// sbhJobs start on arrival. User 1's sessions: jobs 1-3 (session 0; job 3
// arrives 50 s after job 2 ended), jobs 4-8 (session 1: job 4 arrives
// 1480 s after job 3 ended).
var sbhJobs = []job{
	{1, 0, 100, 1000, 4, 1, -1},
	{2, 50, 300, 1000, 8, 1, -1},
	{3, 400, 120, 1000, 4, 1, -1},
	{4, 2000, 60, 500, 8, 1, -1},
	{5, 2100, 70, 500, 4, 1, -1},
	{6, 2200, 10, 9999, 16, 1, -1},
	{7, 2210, 5, 1000, 4, 1, -1},
	{8, 2300, 5, 30, 4, 1, -1},
	{9, 100, 10, 700, 4, 2, -1},
}

func TestSBHGolden(t *testing.T) {
	// Criteria PE/P/E/*, depth-first over all sessions:
	// 1, 2: nothing terminated: the estimate;
	// 3: PE (4, 1000) matches job 1 in session 0: 100; it runs 120 s,
	//    misses at 500 and EG raises it to the estimate 1000;
	// 4: PE (8, 500) nowhere; P (8): job 2 in session 0: 300;
	// 5: PE (4, 500) nowhere; P (4): session 1 has none, session 0 has
	//    jobs 1 and 3: median(100, 120) = 110;
	// 6: no PE, P or E match; *: session 1 holds jobs 4 and 5:
	//    median(60, 70) = 65;
	// 7: PE (4, 1000): session 0, jobs 1 and 3: 110;
	// 8: PE (4, 30) nowhere; P (4): session 1, jobs 5 and 7:
	//    median(5, 70) = 38, capped at the estimate 30;
	// 9: user 2 has no history: the estimate.
	dfs := map[int64]want{
		1: {1000, 1000, 0}, 2: {1000, 1000, 0}, 3: {100, 1000, 1}, 4: {300, 300, 0}, 5: {110, 110, 0},
		6: {65, 65, 0}, 7: {110, 110, 0}, 8: {30, 30, 0}, 9: {700, 700, 0},
	}
	checkGolden(t, "sbh:prop=false", 100, sbhJobs, dfs)
	// Breadth-first: the newest session with any match wins:
	// 5: session 1 matches E (500): job 4: 60 (it runs 70 s: missed, 500);
	// 7: session 1 matches P (4): job 5: 70.
	bfs := map[int64]want{
		1: {1000, 1000, 0}, 2: {1000, 1000, 0}, 3: {100, 1000, 1}, 4: {300, 300, 0}, 5: {60, 500, 1},
		6: {65, 65, 0}, 7: {70, 70, 0}, 8: {30, 30, 0}, 9: {700, 700, 0},
	}
	checkGolden(t, "sbh:prop=false,search=bfs", 100, sbhJobs, bfs)
	// Depth 1 searches the current session only: 4: nothing in session 1
	// yet: the estimate 500; 5: E (500) matches job 4: 60; 7: P: job 5: 70.
	d1 := map[int64]want{
		1: {1000, 1000, 0}, 2: {1000, 1000, 0}, 3: {100, 1000, 1}, 4: {500, 500, 0}, 5: {60, 500, 1},
		6: {65, 65, 0}, 7: {70, 70, 0}, 8: {30, 30, 0}, 9: {700, 700, 0},
	}
	checkGolden(t, "sbh:prop=false,depth=1", 100, sbhJobs, d1)
	// A session gap of 2000 s keeps user 1 in one session: job 5 then
	// matches P (4) in it: median(100, 120) = 110 as before, and job 7
	// PE (4, 1000): 110; job 4 P (8): 300. Job 6 (*): all five terminated
	// jobs: median(100, 300, 120, 60, 70) = 100.
	gap := map[int64]want{
		1: {1000, 1000, 0}, 2: {1000, 1000, 0}, 3: {100, 1000, 1}, 4: {300, 300, 0}, 5: {110, 110, 0},
		6: {100, 100, 0}, 7: {110, 110, 0}, 8: {30, 30, 0}, 9: {700, 700, 0},
	}
	checkGolden(t, "sbh:prop=false,gap=2000", 100, sbhJobs, gap)
}

func TestSBHPropagation(t *testing.T) {
	// Criterion * on one processor: A's end at 10 (session 0, runtime 10)
	// revises the waiting B, C and D to 10; then B's and C's ends keep the
	// median at 10; D misses at 40 and EG restores the estimate.
	checkGolden(t, "sbh:crit=*", 1, queued, map[int64]want{
		1: {100, 100, 0}, 2: {100, 10, 0}, 3: {100, 10, 0}, 4: {100, 100, 1},
	})
	checkGolden(t, "sbh:crit=*,prop=false", 1, queued, map[int64]want{
		1: {100, 100, 0}, 2: {100, 100, 0}, 3: {100, 100, 0}, 4: {100, 100, 0},
	})
}

// noest jobs start on arrival; user 1, one session, executables 7, 7, 9, 3.
var noest = []job{
	{1, 0, 100, 1000, 4, 1, 7},
	{2, 150, 30, 1000, 8, 1, 7},
	{3, 200, 50, 1000, 4, 1, 9},
	{4, 260, 3, 1000, 2, 1, 3},
}

func TestNoEstimateSBHGolden(t *testing.T) {
	// Criteria PX/P/X/*:
	// 1: nothing: 1 s; it misses at 1 (x10: 10) and at 10 (x10: 100) and
	//    ends at 100;
	// 2: PX (8, 7) and P (8) nowhere; X (7): job 1: 100;
	// 3: PX (4, 9) nowhere; P (4): job 1: 100;
	// 4: *: median(100, 30, 50) = 50.
	checkGolden(t, "sbh-noest", 100, noest, map[int64]want{
		1: {1, 100, 2}, 2: {100, 100, 0}, 3: {100, 100, 0}, 4: {50, 50, 0},
	})
	// Balanced with limit 50: job 1 goes 1 -> 10 -> 50 (the limit) -> at
	// 50, policy G from the limit: 50 + 60 = 110.
	checkGolden(t, "sbh-noest-balanced:limit=50", 100, noest, map[int64]want{
		1: {1, 110, 3}, 2: {100, 100, 0}, 3: {100, 100, 0}, 4: {50, 50, 0},
	})
}

// ctcSession is the CTC session of Talby's Table 16 (20 Sep 1996, user
// 289; arrivals in seconds from 19:49:20), each job starting on arrival.
var ctcSession = []job{
	{1, 0, 91, 300, 16, 289, 3012},
	{2, 192, 67, 300, 12, 289, 3012},
	{3, 505, 348, 300, 12, 289, 3012},
	{4, 553, 342, 300, 16, 289, 3012},
	{5, 965, 105, 300, 16, 289, 3012},
	{6, 1137, 87, 300, 16, 289, 3012},
	{7, 1247, 332, 300, 200, 289, 3032},
	{8, 1594, 314, 300, 100, 289, 3033},
	{9, 1975, 389, 300, 200, 289, 3033},
	{10, 2534, 168, 1800, 200, 289, 3033},
	{11, 2545, 352, 1800, 200, 289, 3033},
	{12, 2645, 348, 1800, 200, 289, 3033},
}

func TestSBHTable16(t *testing.T) {
	// One session (every think time is under 20 min); criteria PE/P/E/*:
	// 1: nothing terminated: the estimate 300;
	// 2 (12, 300): E (300) matches job 1: 91;
	// 3 (12, 300): PE matches job 2: 67; it runs 348 s: missed at 67
	//    (EG: the estimate 300) and at 300 (G from the estimate: 360);
	// 4 (16, 300): PE matches job 1 (job 3 still runs): 91; missed at 91
	//    and 300, as job 3: 360;
	// 5: PE (16, 300): jobs 1 and 4: median(91, 342) = 217 (rounded up);
	// 6: PE: jobs 1, 4, 5: median(91, 342, 105) = 105;
	// 7 (200, 300): E (300), jobs 1-6: median(67, 87, 91, 105, 342, 348)
	//    = 98; it runs 332 s: 300, then 360;
	// 8 (100, 300): E, jobs 1-7: median of 7 = 105; runs 314 s: 300, 360;
	// 9 (200, 300): PE, job 7: 332, capped at 300; runs 389 s: at 300 G
	//    gives 360, at 360 G gives 300 + 300 = 600;
	// 10-12 (200, 1800): P (200), jobs 7 and 9: median(332, 389) = 361
	//    (job 10 ends after 11 and 12 arrive).
	checkGolden(t, "sbh:prop=false", 400, ctcSession, map[int64]want{
		1: {300, 300, 0}, 2: {91, 91, 0}, 3: {67, 360, 2}, 4: {91, 360, 2}, 5: {217, 217, 0}, 6: {105, 105, 0},
		7: {98, 360, 2}, 8: {105, 360, 2}, 9: {300, 600, 2}, 10: {361, 361, 0}, 11: {361, 361, 0}, 12: {361, 361, 0},
	})
	// Criteria E/P/X: 7 (200, 300, 3032): E matches jobs 1-6: 98 as
	// above; 10 (200, 1800, 3033): E (1800) nowhere, P (200): 361.
	// Job 2: E (300): job 1: 91. The E criterion decides every job but 1,
	// 10, 11 and 12, so the predictions equal those above except 3, 4, 5,
	// 6 and 9: 3: E: jobs 1, 2: median(91, 67) = 79; 4: E, jobs 1, 2: 79;
	// 5: E, jobs 1-4: median(67, 91, 342, 348) = 217; 6: E, jobs 1-5:
	// median(67, 91, 105, 342, 348) = 105; 9: E, jobs 1-8:
	// median(67, 87, 91, 105, 314, 332, 342, 348) = 210; it runs 389 s and
	// misses three times: 300 (EG), 360, 600.
	checkGolden(t, "sbh:prop=false,crit=E/P/X", 400, ctcSession, map[int64]want{
		1: {300, 300, 0}, 2: {91, 91, 0}, 3: {79, 360, 2}, 4: {79, 360, 2}, 5: {217, 217, 0}, 6: {105, 105, 0},
		7: {98, 360, 2}, 8: {105, 360, 2}, 9: {210, 600, 3}, 10: {361, 361, 0}, 11: {361, 361, 0}, 12: {361, 361, 0},
	})
}

// TestSBHRecordedSessions takes the sessions from the log's recorded
// schedule instead of the simulation.
func TestSBHRecordedSessions(t *testing.T) {
	tr := &trace.Trace{}
	sj := make([]sim.Job, len(sbhJobs))
	for i, j := range sbhJobs {
		tj := trace.Job{ID: j.id, Submit: int64(j.submit), Runtime: int64(j.run), ReqTime: int64(j.est),
			Procs: j.procs, User: j.user, App: -1, Status: 1}
		if j.id == 3 {
			tj.Wait = 5000 // recorded end 5520, after job 4's arrival at 2000
		}
		tr.Jobs = append(tr.Jobs, tj)
		sj[i] = sim.Job{ID: j.id, Submit: j.submit, Runtime: j.run, Estimate: j.est, Procs: j.procs, User: j.user, Index: int32(i)}
	}
	for _, tc := range []struct {
		spec string
		job6 sim.Time
	}{
		// Online, job 6 (criterion *) sees session 1: median(60, 70) = 65.
		{"sbh:prop=false", 65},
		// Recorded, job 4's think time is negative: one session, and job
		// 6 sees all five terminated jobs: median(60, 70, 100, 120, 300).
		{"sbh:prop=false,sessions=recorded", 100},
	} {
		p, err := New(tc.spec, Env{Trace: tr})
		if err != nil {
			t.Fatal(err)
		}
		jobs := append([]sim.Job(nil), sj...)
		res, err := sim.Run(context.Background(), sim.NewReplay(jobs), sched.NewFCFS(), sim.Config{Procs: 100, Predictor: p})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range res.Jobs {
			if o.ID == 6 && o.Initial != tc.job6 {
				t.Errorf("%s: job 6 predicted %d, want %d", tc.spec, o.Initial, tc.job6)
			}
		}
	}
	if _, err := New("sbh:sessions=recorded", Env{}); err == nil {
		t.Error("sessions=recorded without a log: no error")
	}
}
