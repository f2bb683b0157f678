package sim_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// TestMachineSizeRefused: a machine needs at least one processor.
func TestMachineSizeRefused(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Runtime: 1, Estimate: 1, Procs: 1}}
	for _, procs := range []int{0, -1} {
		_, err := sim.Run(context.Background(), sim.NewReplay(jobs), &fifo{}, sim.Config{Procs: procs})
		if err == nil || !strings.Contains(err.Error(), "machine size") {
			t.Errorf("machine of %d processors: %v, want the machine size refused", procs, err)
		}
	}
}

// progressLog keeps every report.
type progressLog struct{ got []string }

func (p *progressLog) Report(submitted, ended int, now sim.Time) {
	p.got = append(p.got, fmt.Sprintf("%d/%d@%d", submitted, ended, now))
}

// TestProgressReports: five one-processor jobs of 5 s submitted every 10 s
// make one event per instant (an arrival at 0, 10, ..., 40, an end at 5, 15,
// ..., 45). With a report every 3 events, the reports come at the instants
// where 3, 6 and 9 events are done, before those instants are handled: at 15
// (2 jobs submitted, 1 ended), 30 (3, 3) and 45 (5, 4), and once at the end.
func TestProgressReports(t *testing.T) {
	var jobs []sim.Job
	for i := range 5 {
		jobs = append(jobs, sim.Job{ID: int64(i + 1), Submit: sim.Time(10 * i), Runtime: 5, Estimate: 5, Procs: 1})
	}
	p := &progressLog{}
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), &fifo{}, sim.Config{Procs: 1, CheckEvery: 3, Progress: p})
	if err != nil {
		t.Fatal(err)
	}
	if res.Events != 10 {
		t.Errorf("events: %d, want 10", res.Events)
	}
	want := []string{"2/1@15", "3/3@30", "5/4@45", "5/5@45"}
	if !slices.Equal(p.got, want) {
		t.Errorf("reports %v, want %v", p.got, want)
	}
}

// TestSimultaneousEndsOnePass: two jobs that end at the same instant are
// both terminated before the one pass of that instant.
func TestSimultaneousEndsOnePass(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Runtime: 10, Estimate: 10, Procs: 1},
		{ID: 2, Runtime: 10, Estimate: 10, Procs: 1},
		{ID: 3, Runtime: 10, Estimate: 10, Procs: 2},
	}
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), &fifo{}, sim.Config{Procs: 2})
	if err != nil {
		t.Fatal(err)
	}
	// Passes at 0 (starts 1 and 2), 10 (both end; starts 3), 20.
	if res.Passes != 3 || res.Jobs[2].Start != 10 {
		t.Errorf("%d passes, job 3 starts at %d; want 3 passes and 10", res.Passes, res.Jobs[2].Start)
	}
}

// batcher starts jobs only at multiples of 100 s and asks to be woken at
// the next one while jobs wait. With nothing waiting it answers the current
// time, which asks for no wake.
type batcher struct {
	fifo
	calls int
}

func (b *batcher) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	if v.Now()%100 != 0 {
		return dst
	}
	return b.fifo.Schedule(v, dst)
}

func (b *batcher) NextWake(v *sim.View) sim.Time {
	b.calls++
	if b.calls > 1000 {
		return 0 // an engine that woke at the current time would ask for ever
	}
	if v.NumWaiting() == 0 {
		return v.Now()
	}
	return (v.Now()/100 + 1) * 100
}

// TestWaker: a scheduler woken at times of its choosing, with no event of
// the workload then.
func TestWaker(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 10, Runtime: 5, Estimate: 5, Procs: 1},
		{ID: 2, Submit: 50, Runtime: 5, Estimate: 5, Procs: 1},
		{ID: 3, Submit: 150, Runtime: 20, Estimate: 20, Procs: 1},
	}
	b := &batcher{}
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), b, sim.Config{Procs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Jobs[0].Start != 100 || res.Jobs[1].Start != 100 || res.Jobs[2].Start != 200 {
		t.Errorf("starts %d, %d and %d, want 100, 100 and 200", res.Jobs[0].Start, res.Jobs[1].Start, res.Jobs[2].Start)
	}
	// The passes at 10 and 50 each ask for a wake at 100: two wake events
	// at 100, one pass. Passes at 10, 50, 100, 105, 150, 200, 220; a wake
	// asked for the current time is not one. Events: 3 arrivals, 3 wakes
	// (at 100 twice, at 200), 3 ends.
	if res.Passes != 7 || b.calls != 7 || res.Events != 9 {
		t.Errorf("%d passes, %d calls of NextWake, %d events; want 7, 7 and 9", res.Passes, b.calls, res.Events)
	}
}

// TestArrivalChecks: a job of no processors, or with no requested time, is
// refused when it arrives; a runtime of 0 is a job.
func TestArrivalChecks(t *testing.T) {
	for _, c := range []struct {
		job sim.Job
		ok  bool
	}{
		{sim.Job{ID: 1, Runtime: 1, Estimate: 1, Procs: 0}, false},
		{sim.Job{ID: 1, Runtime: 1, Estimate: 0, Procs: 1}, false},
		{sim.Job{ID: 1, Runtime: -1, Estimate: 1, Procs: 1}, false},
		{sim.Job{ID: 1, Runtime: 0, Estimate: 1, Procs: 1}, true},
		{sim.Job{ID: 1, Runtime: 1, Estimate: 1, Procs: 4}, true},
	} {
		_, err := sim.Run(context.Background(), sim.NewReplay([]sim.Job{c.job}), &fifo{}, sim.Config{Procs: 4})
		if (err == nil) != c.ok {
			t.Errorf("%+v: error %v, want accepted %v", c.job, err, c.ok)
		}
	}
}

// TestDefaultCheckEvery: without CheckEvery a report comes every 4096
// events, so a short run is reported once, at its end.
func TestDefaultCheckEvery(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Runtime: 5, Estimate: 5, Procs: 1}, {ID: 2, Submit: 3, Runtime: 5, Estimate: 5, Procs: 1}}
	p := &progressLog{}
	if _, err := sim.Run(context.Background(), sim.NewReplay(jobs), &fifo{}, sim.Config{Procs: 1, Progress: p}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"2/2@10"}; !slices.Equal(p.got, want) {
		t.Errorf("reports %v, want %v", p.got, want)
	}
}

// fiveSeconds predicts 5 s for every job and, at a miss, extra seconds
// beyond the elapsed time; after 100 misses (an engine that accepted a
// prediction equal to the elapsed time would miss it for ever) 1 s.
type fiveSeconds struct {
	extra sim.Time
	calls *int
}

func (fiveSeconds) Predict(*sim.Job) sim.Time { return 5 }

func (p fiveSeconds) Missed(_ *sim.Job, m sim.MissInfo) sim.Time {
	if *p.calls++; *p.calls > 100 {
		return m.Elapsed + 1
	}
	return m.Elapsed + p.extra
}

// TestMissAndArrivalOneInstant: a deadline miss and an arrival at the same
// instant are handled before that instant's one pass. Job 1 (12 s) misses
// its predictions at 5 and 10 and ends at 12; job 2 arrives at 5 and runs
// 1 s. Events: 2 arrivals, 2 misses, 2 ends; passes at 0, 5, 6, 10 and 12.
func TestMissAndArrivalOneInstant(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Runtime: 12, Estimate: 100, Procs: 1},
		{ID: 2, Submit: 5, Runtime: 1, Estimate: 100, Procs: 1},
	}
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), &fifo{}, sim.Config{Procs: 2, Predictor: fiveSeconds{extra: 5, calls: new(int)}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Events != 6 || res.Passes != 5 || res.Jobs[0].Misses != 2 || res.Jobs[1].Start != 5 {
		t.Errorf("%d events, %d passes, %d misses, job 2 starts at %d; want 6, 5, 2 and 5",
			res.Events, res.Passes, res.Jobs[0].Misses, res.Jobs[1].Start)
	}
	// A new prediction must go beyond the elapsed time: equal is refused.
	if _, err := sim.Run(context.Background(), sim.NewReplay(jobs), &fifo{}, sim.Config{Procs: 2, Predictor: fiveSeconds{calls: new(int)}}); err == nil {
		t.Error("a new prediction equal to the elapsed time: no error")
	}
}

// TestSimultaneousArrivalsByID: jobs submitted in the same second arrive in
// the order of their IDs, whatever the order of the source.
func TestSimultaneousArrivalsByID(t *testing.T) {
	jobs := []sim.Job{
		{ID: 5, Runtime: 10, Estimate: 10, Procs: 1},
		{ID: 3, Runtime: 20, Estimate: 20, Procs: 1},
		{ID: 4, Runtime: 30, Estimate: 30, Procs: 1},
	}
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), &fifo{}, sim.Config{Procs: 1, PassEveryEvent: true})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	var starts []sim.Time
	for _, o := range res.Jobs {
		ids, starts = append(ids, o.ID), append(starts, o.Start)
	}
	if !slices.Equal(ids, []int64{3, 4, 5}) || !slices.Equal(starts, []sim.Time{0, 20, 50}) {
		t.Errorf("arrival order %v with starts %v, want [3 4 5] and [0 20 50]", ids, starts)
	}
}

// TestMissPolicyEdges: the policies at the equalities of their rules, and
// policy G beyond its table, where multiples of 100 h are added.
func TestMissPolicyEdges(t *testing.T) {
	const h = 3600
	for _, c := range []struct {
		p        sim.MissPolicy
		estimate sim.Time
		m        sim.MissInfo
		want     sim.Time
	}{
		// 60 s + 100 h + k 100 h, the first beyond the elapsed time.
		{sim.Gradual{}, 3600, sim.MissInfo{Current: 720030, Initial: 60, Elapsed: 720030, N: 12}, 60 + 200*h},
		{sim.Gradual{}, 3600, sim.MissInfo{Current: 250 * h, Initial: 60, Elapsed: 250 * h, N: 12}, 60 + 300*h},
		{sim.Gradual{}, 3600, sim.MissInfo{Current: 100 * h, Initial: 0, Elapsed: 100 * h, N: 12}, 200 * h},
		// The current prediction is not below the estimate: the larger
		// of the estimate and the initial prediction, which is beyond
		// the elapsed time.
		{sim.EstimateThenGradual{}, 100, sim.MissInfo{Current: 100, Initial: 200, Elapsed: 50, N: 1}, 200},
		// The estimate is reached exactly: G from the estimate.
		{sim.EstimateThenGradual{}, 100, sim.MissInfo{Current: 50, Initial: 50, Elapsed: 100, N: 1}, 160},
		// Ten times 10 s is the elapsed time, not beyond it.
		{sim.TimesTen{}, 3600, sim.MissInfo{Current: 10, Initial: 10, Elapsed: 100, N: 1}, 1000},
	} {
		if got := c.p.Next(&sim.Job{Estimate: c.estimate}, c.m); got != c.want {
			t.Errorf("%s, estimate %d, %+v = %d, want %d", c.p, c.estimate, c.m, got, c.want)
		}
	}
}

// reviser predicts the requested time and, when job ref 1 arrives, revises
// running job ref 0 to a fixed prediction; a miss adds 3 s to the elapsed
// time.
type reviser struct{ to sim.Time }

func (reviser) Predict(j *sim.Job) sim.Time { return j.Estimate }

func (reviser) Missed(_ *sim.Job, m sim.MissInfo) sim.Time { return m.Elapsed + 3 }

func (p reviser) Arrived(_ *sim.View, r sim.Ref, dst []sim.Update) []sim.Update {
	if r == 1 {
		dst = append(dst, sim.Update{Job: 0, Prediction: p.to})
	}
	return dst
}

func (reviser) Started(_ *sim.View, _ sim.Ref, dst []sim.Update) []sim.Update { return dst }

func (reviser) Ended(_ *sim.View, _ sim.Ref, dst []sim.Update) []sim.Update { return dst }

// TestRevisionOfRunningJob: job 0 runs from 2 to 22; at 7 (elapsed 5) it is
// revised. To 6 s, beyond the elapsed time, the revision stands and its
// deadline at 8 is missed, then those at 11, 14, 17 and 20 (each miss:
// elapsed + 3). To 5 s, the elapsed time, the revision counts as a miss at
// once (new prediction 8), then the deadlines at 10, 13, 16 and 19 are
// missed.
func TestRevisionOfRunningJob(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 2, Runtime: 20, Estimate: 100, Procs: 1},
		{ID: 2, Submit: 7, Runtime: 1, Estimate: 100, Procs: 1},
	}
	for _, c := range []struct {
		to     sim.Time
		misses int32
		log    string
	}{
		{6, 5, "2:100 7:6 8:9 11:12 14:15 17:18 20:21"},
		{5, 5, "2:100 7:8 10:11 13:14 16:17 19:20"},
	} {
		res, err := sim.Run(context.Background(), sim.NewReplay(jobs), &fifo{}, sim.Config{Procs: 2, Predictor: reviser{to: c.to}, RecordPredictions: true})
		if err != nil {
			t.Fatal(err)
		}
		var log []string
		for _, p := range res.Predictions {
			if p.Job == 0 {
				log = append(log, fmt.Sprintf("%d:%d", p.At, p.Prediction))
			}
		}
		if got := strings.Join(log, " "); got != c.log || res.Jobs[0].Misses != c.misses {
			t.Errorf("revised to %d: predictions %s and %d misses, want %s and %d", c.to, got, res.Jobs[0].Misses, c.log, c.misses)
		}
	}
}

// failing starts nothing and reports an error after its first pass.
type failing struct {
	fifo
	passes int
}

func (f *failing) Schedule(_ *sim.View, dst []sim.Ref) []sim.Ref {
	f.passes++
	return dst
}

func (f *failing) Err() error {
	if f.passes > 0 {
		return errBroken
	}
	return nil
}

var errBroken = fmt.Errorf("scheduler broken")

// outOfRange starts a job reference one past the last job.
type outOfRange struct{ fifo }

func (outOfRange) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	return append(dst, sim.Ref(v.NumJobs()))
}

// TestSchedulerFaults: a scheduler's own error ends the run with it, and a
// start of a job that does not exist is refused.
func TestSchedulerFaults(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Runtime: 1, Estimate: 1, Procs: 1}}
	if _, err := sim.Run(context.Background(), sim.NewReplay(jobs), &failing{}, sim.Config{Procs: 1}); err != errBroken {
		t.Errorf("failing scheduler: %v, want %v", err, errBroken)
	}
	if _, err := sim.Run(context.Background(), sim.NewReplay(jobs), &outOfRange{}, sim.Config{Procs: 1}); err == nil || !strings.Contains(err.Error(), "not waiting") {
		t.Errorf("start of ref %d: %v", len(jobs), err)
	}
}

// TestKillAtRequestedTime: with kills, a job that runs exactly its
// requested time is not killed; one second more is.
func TestKillAtRequestedTime(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Submit: 5, Runtime: 10, Estimate: 10, Procs: 1}, {ID: 2, Submit: 5, Runtime: 11, Estimate: 10, Procs: 1}}
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), &fifo{}, sim.Config{Procs: 2, Kill: true})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := res.Jobs[0], res.Jobs[1]; a.Killed || a.Ran() != 10 || !b.Killed || b.Ran() != 10 || b.End != 15 {
		t.Errorf("job 1 killed %v after %d s, job 2 killed %v after %d s; want false, 10, true, 10", a.Killed, a.Ran(), b.Killed, b.Ran())
	}
}

// TestBackfilledFlag: a job started while an older job waits is marked
// backfilled; jobs started in arrival order are not. On 2 processors, job 1
// (1 processor) runs 0-10, job 2 (2 processors) waits for it, job 3 (1
// processor, shortest requested time) starts at 0 past job 2.
func TestBackfilledFlag(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Runtime: 10, Estimate: 10, Procs: 1},
		{ID: 2, Submit: 1, Runtime: 10, Estimate: 100, Procs: 2},
		{ID: 3, Submit: 2, Runtime: 5, Estimate: 5, Procs: 1},
		{ID: 4, Submit: 3, Runtime: 5, Estimate: 500, Procs: 1},
	}
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), &shortest{}, sim.Config{Procs: 2})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range res.Jobs {
		got = append(got, fmt.Sprintf("%d@%d:%v", o.ID, o.Start, o.Backfilled))
	}
	want := "1@0:false 2@10:false 3@2:true 4@20:false"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("starts %s, want %s", g, want)
	}
}

// summing is FCFS that adds every ended job to window sums.
type summing struct {
	fifo
	w sim.WindowStats
}

func (s *summing) Notify(v *sim.View, n sim.Notice) {
	s.fifo.Notify(v, n)
	if n.Kind == sim.Ended {
		s.w.AddEnded(v, n.Job)
	}
}

// TestWindowStatsByHand: on one processor, job 1 runs 0-10 (wait 0), job 2
// (submitted at 5) 10-30 (wait 5), job 3 (submitted at 6, runtime 0) at 30
// (wait 24). Sums: waits 29, responses 10 + 25 + 24 = 59, slowdowns
// 1 + 25/20 + 1 (a job of no runtime counts 1) = 3.25, bounded slowdowns
// (threshold 10 s) 1 + 1.25 + 24/10 = 4.65.
func TestWindowStatsByHand(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Runtime: 10, Estimate: 10, Procs: 1},
		{ID: 2, Submit: 5, Runtime: 20, Estimate: 20, Procs: 1},
		{ID: 3, Submit: 6, Runtime: 0, Estimate: 20, Procs: 1},
	}
	s := &summing{}
	if _, err := sim.Run(context.Background(), sim.NewReplay(jobs), s, sim.Config{Procs: 1}); err != nil {
		t.Fatal(err)
	}
	w := s.w
	if w.Ended != 3 || w.Wait != 29 || w.Response != 59 || !(math.Abs(w.Slowdown-3.25) <= 1e-12) || !(math.Abs(w.BoundedSlowdown-4.65) <= 1e-12) {
		t.Errorf("sums %+v, want 3 ended, waits 29, responses 59, slowdowns 3.25, bounded 4.65", w)
	}
}

// restBatcher is a batcher that can take over a run: its queue is the
// waiting jobs in arrival order.
type restBatcher struct{ batcher }

func (b *restBatcher) Restore(v *sim.View) {
	b.q = b.q[:0]
	for r := range v.NumJobs() {
		if v.Waiting(sim.Ref(r)) {
			b.q = append(b.q, sim.Ref(r))
		}
	}
}

// wakeForker runs a batcher and, at its first pass at or after at, forks a
// shadow under a fresh one, which it feeds the arrivals and advances.
type wakeForker struct {
	restBatcher
	at     sim.Time
	shadow *sim.Shadow
	log    []string // at every pass after the fork: time, the shadow's ended jobs and busy processor-seconds
}

func (f *wakeForker) Notify(v *sim.View, n sim.Notice) {
	if f.shadow != nil && n.Kind == sim.Arrived {
		f.shadow.Arrive(v, n.Job)
	}
	f.restBatcher.Notify(v, n)
}

func (f *wakeForker) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	if f.shadow == nil && v.Now() >= f.at {
		f.shadow = sim.Fork(v, &restBatcher{})
	}
	if f.shadow != nil {
		if err := f.shadow.AdvanceTo(v.Now()); err != nil {
			panic(err)
		}
		st := f.shadow.Stats()
		f.log = append(f.log, fmt.Sprintf("%d-%d:%d/%g", st.From, st.To, st.Ended, st.Busy))
	}
	return f.restBatcher.Schedule(v, dst)
}

// TestShadowWaker: a shadow forked at 50, while jobs 1 and 2 wait for the
// batcher's next multiple of 100, asks its own scheduler when to wake, and
// so starts them at 100 like the real run (and job 3 at 200).
func TestShadowWaker(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 10, Runtime: 5, Estimate: 5, Procs: 1},
		{ID: 2, Submit: 50, Runtime: 5, Estimate: 5, Procs: 1},
		{ID: 3, Submit: 150, Runtime: 20, Estimate: 20, Procs: 1},
	}
	f := &wakeForker{at: 50}
	res, err := sim.Run(context.Background(), sim.NewReplay(jobs), f, sim.Config{Procs: 2})
	if err != nil {
		t.Fatal(err)
	}
	// The shadow's sums at each real pass with jobs waiting (50, 100,
	// 150, 200), then advanced to 220, when job 3 ends: jobs 1 and 2 end
	// at 105 after 5 s on 2 processors, job 3 at 220 after 20 s on 1.
	if err := f.shadow.AdvanceTo(220); err != nil {
		t.Fatal(err)
	}
	st := f.shadow.Stats()
	got := append(f.log, fmt.Sprintf("%d-%d:%d/%g", st.From, st.To, st.Ended, st.Busy))
	want := []string{"50-50:0/0", "50-100:0/0", "50-150:2/10", "50-200:2/10", "50-220:3/30"}
	if !slices.Equal(got, want) {
		t.Errorf("shadow sums %v, want %v", got, want)
	}
	var real, shadow []sim.Time
	for i, o := range f.shadow.Jobs() {
		real, shadow = append(real, res.Jobs[i].Start), append(shadow, o.Start)
	}
	if !slices.Equal(real, []sim.Time{100, 100, 200}) || !slices.Equal(shadow, real) {
		t.Errorf("starts: real %v, shadow %v; want [100 100 200] in both", real, shadow)
	}
}
