package session

import (
	"math"
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

func TestIdentifyMethods(t *testing.T) {
	// One user. Job 1 runs 0..1000; job 2 arrives at 100 and ends at 200
	// (overlaps job 1); job 3 arrives at 500, after job 2 ended but while
	// job 1 runs (Zakay ch. 2 Fig. 1); job 4 arrives at 1500 (think time
	// 500 after job 1); job 5 arrives at 9000.
	tr := mkTrace(
		tj{1, 0, 0, 1000},
		tj{1, 100, 0, 100},
		tj{1, 500, 0, 10},
		tj{1, 1500, 0, 10},
		tj{1, 9000, 0, 10},
	)
	tests := []struct {
		opt              Options
		sessions, batchs []int32 // per job
	}{
		// Arrival 1h: gaps 100, 400, 1000, 7500 -> sessions {1-4},{5};
		// batches: 2 and 3 overlap job 1 (ends 1000), 4 starts at 1500.
		{Options{Method: Arrival, Threshold: 3600}, []int32{0, 0, 0, 0, 1}, []int32{0, 0, 0, 1, 2}},
		// Interarrival with threshold 400: gap 400 >= 400 starts a session.
		{Options{Method: Interarrival, Threshold: 400}, []int32{0, 0, 1, 2, 3}, []int32{0, 0, 1, 2, 3}},
		// Arrival with threshold 400: gap 400 <= 400 keeps it.
		{Options{Method: Arrival, Threshold: 400}, []int32{0, 0, 0, 1, 2}, []int32{0, 0, 0, 1, 2}},
		// a0: every job alone.
		{Options{Method: Interarrival}, []int32{0, 1, 2, 3, 4}, []int32{0, 1, 2, 3, 4}},
		// Last 20 min: job 3's think time after job 2 is 300 >= 0: new
		// batch; job 4: 1500-510 = 990 <= 1200: same session.
		{Options{Method: Last, Threshold: 1200}, []int32{0, 0, 0, 0, 1}, []int32{0, 0, 1, 2, 3}},
		// Max 20 min: job 3 is before job 1's end: same batch.
		{Options{Method: Max, Threshold: 1200}, []int32{0, 0, 0, 0, 1}, []int32{0, 0, 0, 1, 2}},
		// Max with a 5-min threshold: job 4's think time 500 > 300.
		{Options{Method: Max, Threshold: 300}, []int32{0, 0, 0, 1, 2}, []int32{0, 0, 0, 1, 2}},
		// Max+Cut (cut 200): job 1's end cut to 200, job 3 (500) thinks
		// 300 > 0 after max(200, 200): new batch, same session (<= 1200).
		{Options{Method: MaxCut, Threshold: 1200, Cut: 200}, []int32{0, 0, 0, 0, 1}, []int32{0, 0, 1, 2, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.opt.String(), func(t *testing.T) {
			p, err := Identify(tr, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if so, bo := p.SessionOf(), p.BatchOf(); !slices.Equal(so, tc.sessions) || !slices.Equal(bo, tc.batchs) {
				t.Errorf("sessions %v batches %v, want %v %v", so, bo, tc.sessions, tc.batchs)
			}
		})
	}
}

func TestSessionLength(t *testing.T) {
	tr := mkTrace(tj{1, 0, 0, 1000}, tj{1, 100, 0, 100})
	for _, tc := range []struct {
		opt  Options
		want int64
	}{
		{Default(Arrival), 100},           // last arrival - first arrival
		{Default(Max), 1000},              // max end - first arrival
		{Options{MaxCut, 1200, 300}, 300}, // cut end of job 1
	} {
		p, _ := Identify(tr, tc.opt)
		if got := p.Sessions[0].Length; got != tc.want {
			t.Errorf("%v: length %d, want %d", tc.opt, got, tc.want)
		}
	}
}

func TestUnknownUsersAlone(t *testing.T) {
	tr := mkTrace(tj{-1, 0, 0, 10}, tj{-1, 5, 0, 10}, tj{2, 6, 0, 1}, tj{2, 7, 0, 1})
	p, _ := Identify(tr, Default(Arrival))
	if len(p.Sessions) != 3 {
		t.Fatalf("%d sessions, want 3 (one per unknown-user job, one for user 2)", len(p.Sessions))
	}
	if st := p.Stats(); st.Users != 1 {
		t.Errorf("users %d, want 1", st.Users)
	}
}

func TestEstimatedEnds(t *testing.T) {
	tr := mkTrace(tj{1, 0, -1, 50}, tj{1, 10, 0, 5})
	p, _ := Identify(tr, Default(Arrival))
	if p.EstimatedEnds != 1 || p.End[0] != 50 {
		t.Errorf("estimated %d end %d, want 1 and 50", p.EstimatedEnds, p.End[0])
	}
	// A job of 0 s submitted and started at time 0 ends at 0, a recorded
	// end, not an estimated one.
	tr = mkTrace(tj{1, 0, 0, 0}, tj{1, 10, 0, 5})
	if p, _ = Identify(tr, Default(Arrival)); p.EstimatedEnds != 0 || p.End[0] != 0 {
		t.Errorf("job ending at 0: estimated %d end %d, want 0 and 0", p.EstimatedEnds, p.End[0])
	}
}

// TestNumBatches counts the batches of a session: jobs submitted while an
// earlier job of the user runs join its batch (Zakay's batches), so the
// log below has a session of three batches (jobs 1-2, job 3, job 4), then,
// more than an hour after the last arrival, a session of one batch of two
// jobs.
func TestNumBatches(t *testing.T) {
	tr := mkTrace(tj{1, 0, 0, 100}, tj{1, 50, 0, 10}, tj{1, 200, 0, 10}, tj{1, 300, 0, 10},
		tj{1, 10000, 0, 100}, tj{1, 10050, 0, 10})
	p, err := Identify(tr, Default(Arrival))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Sessions) != 2 || p.Sessions[0].NumBatches() != 3 || p.Sessions[0].NumJobs() != 4 ||
		p.Sessions[1].NumBatches() != 1 || p.Sessions[1].NumJobs() != 2 {
		t.Fatalf("sessions %+v, want one of 3 batches and 4 jobs, one of 1 batch and 2 jobs", p.Sessions)
	}
	for b, want := range []int{2, 1, 1, 2} {
		if got := p.Batches[b].NumJobs(); got != want {
			t.Errorf("batch %d: %d jobs, want %d", b, got, want)
		}
	}
}

// TestKTHTable1 checks the counts of Zakay's thesis, ch. 2 Table 1 (spec
// zakay section 4.8): KTH-SP2 with Arrival at 60 min gives 28,489 jobs,
// 16,488 batches and 10,303 sessions in the thesis's version of the log.
// Ours (KTH-SP2-1996-2.1-cln) has 28,476 jobs; the counts below are ours,
// pinned, within 0.2% of the thesis. More than 50% of sessions hold one
// job; the thesis's 75% of single-job batches is reached to within a point
// (74.5%).
func TestKTHTable1(t *testing.T) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Identify(tr, Default(Arrival))
	if err != nil {
		t.Fatal(err)
	}
	st := p.Stats()
	if st.Jobs != 28476 || st.Batches != 16482 || st.Sessions != 10292 {
		t.Errorf("jobs/batches/sessions %d/%d/%d, want 28476/16482/10292", st.Jobs, st.Batches, st.Sessions)
	}
	for _, c := range []struct{ got, thesis float64 }{
		{float64(st.Batches), 16488}, {float64(st.Sessions), 10303},
	} {
		if d := c.got/c.thesis - 1; d > 0.002 || d < -0.002 {
			t.Errorf("%v differs from the thesis's %v by %.2f%%", c.got, c.thesis, 100*d)
		}
	}
	if st.SingleJobSessions <= 0.5 || st.SingleJobBatches < 0.74 {
		t.Errorf("single-job sessions %.3f (want > 0.5), batches %.3f (want >= 0.74)", st.SingleJobSessions, st.SingleJobBatches)
	}
}

func TestRealLogsLongSessions(t *testing.T) {
	if testing.Short() {
		t.Skip("reads SDSC-BLUE")
	}
	tr, err := trace.Load(testdata.Path(t, "SDSC-BLUE-2000-4.2-cln.swf.gz"), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Zakay ch. 2 section 4.8 (spec 4.8, V3): with Last and Max at 20 min
	// about 13.5% and 15% of SDSC-BLUE's sessions exceed 1000 minutes, and
	// the longest exceeds 1e5 minutes; the cut variants remove them.
	for _, c := range []struct {
		opt    Options
		lo, hi float64
	}{
		{Default(Last), 0.10, 0.20},
		{Default(Max), 0.10, 0.20},
		{Options{MaxCut, 1200, 3600}, 0, 0.002},
	} {
		p, _ := Identify(tr, c.opt)
		st := p.Stats()
		if st.LongSessions < c.lo || st.LongSessions > c.hi {
			t.Errorf("%v: %.4f of sessions over 1000 min, want in [%v, %v]", c.opt, st.LongSessions, c.lo, c.hi)
		}
		if c.opt.Method != MaxCut && st.SessionLength.Max < 1e5*60 {
			t.Errorf("%v: longest session %.0f min, want > 1e5", c.opt, st.SessionLength.Max/60)
		}
	}
}

func BenchmarkIdentifyBlue(b *testing.B) {
	tr, err := trace.Load(testdata.Path(b, "SDSC-BLUE-2000-4.2-cln.swf.gz"), trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Identify(tr, Default(Arrival)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(tr.Jobs))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

// TestJobOrder checks that each user's jobs are taken in submit order,
// then job number, whatever their order in the file: it decides which job
// opens a session and the preceding-job fields. The per-user counts of
// Stats count user 0 and not the unknown user -1; the ratios are those of
// Zakay's Table 1 (jobs per batch, batches and jobs per session).
func TestJobOrder(t *testing.T) {
	mk := func(jobs ...[3]int64) *trace.Trace { // job number, submit, user
		ts := make([]trace.Job, len(jobs))
		for i, j := range jobs {
			ts[i] = trace.Job{ID: j[0], Submit: j[1], Wait: 0, Runtime: 10, Procs: 1, ReqProcs: 1, ReqTime: 10,
				User: int32(j[2]), Status: 1, Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: -1, ThinkTime: -1}
		}
		return trace.New(swf.Header{}, ts, trace.Options{Procs: 8})
	}
	for _, c := range []struct {
		name  string
		tr    *trace.Trace
		order []int32 // indices into the file, user by user
	}{
		{"sorted", mk([3]int64{1, 0, 0}, [3]int64{2, 50, 0}, [3]int64{3, 50, 0}), []int32{0, 1, 2}},
		{"equal submits, numbers reversed", mk([3]int64{2, 50, 0}, [3]int64{1, 50, 0}), []int32{1, 0}},
		{"submits out of order", mk([3]int64{3, 50, 0}, [3]int64{1, 100, 0}, [3]int64{2, 50, 0}), []int32{2, 0, 1}},
		{"two users", mk([3]int64{4, 100, 1}, [3]int64{3, 50, 0}, [3]int64{2, 70, 1}, [3]int64{1, 60, -1}),
			[]int32{3, 1, 2, 0}},
		// User numbers far above the number of jobs are looked up in a
		// map rather than a table: the same grouping.
		{"large user numbers", mk([3]int64{1, 0, 1000000}, [3]int64{2, 10, 5}, [3]int64{3, 20, 1000000}), []int32{1, 0, 2}},
	} {
		p, err := Identify(c.tr, Default(Arrival))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.Order, c.order) {
			t.Errorf("%s: order %v, want %v", c.name, p.Order, c.order)
		}
		for k, i := range p.Order {
			if p.Submit[k] != c.tr.Jobs[i].Submit {
				t.Errorf("%s: Submit[%d] = %d, want %d", c.name, k, p.Submit[k], c.tr.Jobs[i].Submit)
			}
		}
	}
	// Users 0 and 1 count, -1 does not; 4 jobs in 3 sessions (one each for
	// users 0 and 1 within the hour, one for the unknown user's job) and 4
	// batches (user 1's job of 100 arrives 20 s after the end of the job
	// of 70: a second batch).
	p, _ := Identify(mk([3]int64{4, 100, 1}, [3]int64{3, 50, 0}, [3]int64{2, 70, 1}, [3]int64{1, 60, -1}), Default(Arrival))
	st := p.Stats()
	if st.Users != 2 || st.Jobs != 4 || st.Sessions != 3 || st.Batches != 4 ||
		st.JobsPerBatch != 1 || !(math.Abs(st.BatchesPerSession-4.0/3) <= 1e-12) || !(math.Abs(st.JobsPerSession-4.0/3) <= 1e-12) {
		t.Errorf("stats %+v", st)
	}
}
