package sched_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// textbookEASY is a stand-alone simulation of EASY backfilling written from
// its definition (Lifka 1995; Mu'alem and Feitelson 2001), sharing no code
// with package sim or sched, so that a schedule is checked against the
// definition and not against an earlier version of our own code.
//
// Jobs are killed at their requested time, so no job outlives its planned
// end (start + requested time) and requested times are the only
// predictions. At every instant with an event, the jobs that end then
// release their processors first, then the jobs submitted then join the
// queue (in order of job id among equal submit times), then one scheduling
// pass runs:
//
//  1. while the first waiting job fits in the free processors, start it;
//  2. the first waiting job that does not fit gets a reservation: the
//     shadow time is the earliest planned end at which the free processors
//     plus those of every running job planned to end by then cover it; the
//     extra processors are that count minus its need;
//  3. every other waiting job, in queue order, starts if it fits in the
//     free processors and either ends by the shadow time or fits in the
//     extra processors (which it then uses up).
//
// A job of zero runtime started at t ends at t, and a new pass at t
// follows, as in any event-driven simulator. With shortestFirst, step 3
// considers the other waiting jobs in order of ascending requested time,
// ties by queue order: SJBF (Tsafrir, Etsion and Feitelson 2007). It
// returns each job's start time by job id.
func textbookEASY(jobs []sim.Job, procs int, shortestFirst bool) map[int64]sim.Time {
	type run struct {
		end, planned sim.Time
		procs        int
	}
	js := slices.Clone(jobs)
	slices.SortStableFunc(js, func(a, b sim.Job) int {
		return cmp.Or(cmp.Compare(a.Submit, b.Submit), cmp.Compare(a.ID, b.ID))
	})
	start := make(map[int64]sim.Time, len(js))
	var queue []sim.Job
	var running []run
	free, next := procs, 0
	launch := func(j sim.Job, now sim.Time) {
		free -= int(j.Procs)
		start[j.ID] = now
		running = append(running, run{end: now + min(j.Runtime, j.Estimate), planned: now + j.Estimate, procs: int(j.Procs)})
	}
	for next < len(js) || len(running) > 0 {
		now := sim.Time(-1)
		if next < len(js) {
			now = js[next].Submit
		}
		for _, r := range running {
			if now < 0 || r.end < now {
				now = r.end
			}
		}
		kept := running[:0]
		for _, r := range running {
			if r.end == now {
				free += r.procs
			} else {
				kept = append(kept, r)
			}
		}
		running = kept
		for next < len(js) && js[next].Submit == now {
			queue = append(queue, js[next])
			next++
		}
		// 1. First come, first served while the first job fits.
		for len(queue) > 0 && int(queue[0].Procs) <= free {
			launch(queue[0], now)
			queue = queue[1:]
		}
		if len(queue) == 0 {
			continue
		}
		// 2. The reservation of the first waiting job.
		need := int(queue[0].Procs)
		ends := make([]sim.Time, 0, len(running))
		for _, r := range running {
			ends = append(ends, r.planned)
		}
		slices.Sort(ends)
		shadow, extra := sim.Time(-1), 0
		for _, e := range ends {
			avail := free
			for _, r := range running {
				if r.planned <= e {
					avail += r.procs
				}
			}
			if avail >= need {
				shadow, extra = e, avail-need
				break
			}
		}
		// 3. Backfilling.
		cands := slices.Clone(queue[1:])
		if shortestFirst {
			slices.SortStableFunc(cands, func(a, b sim.Job) int { return cmp.Compare(a.Estimate, b.Estimate) })
		}
		var started []int64
		for _, j := range cands {
			p := int(j.Procs)
			switch {
			case p > free:
				continue
			case now+j.Estimate <= shadow:
			case p <= extra:
				extra -= p
			default:
				continue
			}
			launch(j, now)
			started = append(started, j.ID)
		}
		queue = slices.DeleteFunc(queue, func(j sim.Job) bool { return slices.Contains(started, j.ID) })
	}
	return start
}

// easyStarts simulates jobs under sched.NewEASY (or sched.NewSJBF) with
// jobs killed at their requested time and returns each job's start time by
// id.
func easyStarts(t interface{ Fatal(...any) }, jobs []sim.Job, procs int, sjbf bool) map[int64]sim.Time {
	s := sched.NewEASY(0)
	if sjbf {
		s = sched.NewSJBF(0)
	}
	res, err := sim.Run(context.Background(), sim.NewReplay(slices.Clone(jobs)), s, sim.Config{Procs: procs, Kill: true})
	if err != nil {
		t.Fatal(err)
	}
	got := make(map[int64]sim.Time, len(res.Jobs))
	for _, o := range res.Jobs {
		got[o.ID] = o.Start
	}
	return got
}

// firstDifference describes the first job, in id order, whose start times
// differ, or returns "".
func firstDifference(jobs []sim.Job, got, want map[int64]sim.Time) (string, int) {
	ids := make([]int64, 0, len(jobs))
	for _, j := range jobs {
		ids = append(ids, j.ID)
	}
	slices.Sort(ids)
	first, n := "", 0
	for _, id := range ids {
		if got[id] != want[id] {
			if n == 0 {
				first = fmt.Sprintf("job %d starts at %d, textbook EASY starts it at %d", id, got[id], want[id])
			}
			n++
		}
	}
	return first, n
}

// TestEASYTextbookCases checks the stand-alone textbook simulation itself
// on hand-worked cases, so that a fault in it cannot hide one in EASY.
func TestEASYTextbookCases(t *testing.T) {
	job := func(id, submit, run, est, procs int) sim.Job {
		return sim.Job{ID: int64(id), Submit: sim.Time(submit), Runtime: sim.Time(run), Estimate: sim.Time(est), Procs: int32(procs)}
	}
	cases := []struct {
		name  string
		procs int
		sjbf  bool
		jobs  []sim.Job
		want  map[int64]sim.Time
	}{
		{"extra processors from every job ending at the shadow time", 10, false,
			[]sim.Job{job(1, 0, 100, 100, 4), job(2, 0, 100, 100, 4), job(3, 1, 100, 100, 6), job(4, 2, 500, 500, 2)},
			map[int64]sim.Time{1: 0, 2: 0, 3: 100, 4: 2}},
		{"backfill ends by the shadow time", 10, false,
			[]sim.Job{job(1, 0, 100, 100, 6), job(2, 0, 50, 50, 8), job(3, 1, 200, 200, 3), job(4, 2, 50, 50, 3), job(5, 3, 10000, 10000, 1)},
			map[int64]sim.Time{1: 0, 2: 100, 3: 150, 4: 2, 5: 3}},
		{"killed at the requested time", 4, false,
			[]sim.Job{job(1, 0, 500, 100, 4), job(2, 5, 10, 10, 4)},
			map[int64]sim.Time{1: 0, 2: 100}},
		{"zero runtime frees its processors at once", 4, false,
			[]sim.Job{job(1, 0, 0, 10, 4), job(2, 0, 5, 5, 4)},
			map[int64]sim.Time{1: 0, 2: 0}},
		{"SJBF backfills the shorter job", 10, true,
			[]sim.Job{job(1, 0, 100, 100, 6), job(2, 0, 100, 100, 10), job(3, 1, 90, 90, 4), job(4, 1, 20, 20, 4)},
			map[int64]sim.Time{1: 0, 2: 100, 3: 200, 4: 1}},
		{"EASY backfills the older job", 10, false,
			[]sim.Job{job(1, 0, 100, 100, 6), job(2, 0, 100, 100, 10), job(3, 1, 90, 90, 4), job(4, 1, 20, 20, 4)},
			map[int64]sim.Time{1: 0, 2: 100, 3: 1, 4: 200}},
		{"early end starts the head", 4, false,
			[]sim.Job{job(1, 0, 10, 100, 4), job(2, 1, 5, 5, 2), job(3, 2, 5, 5, 2)},
			map[int64]sim.Time{1: 0, 2: 10, 3: 10}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := textbookEASY(c.jobs, c.procs, c.sjbf)
			if msg, n := firstDifference(c.jobs, got, c.want); n > 0 {
				t.Errorf("%s (%d jobs differ from the hand-worked schedule)", msg, n)
			}
		})
	}
}

// tiedWorkload draws a workload on a coarse time grid, so that submits,
// ends, planned ends and shadow times often coincide: runtimes and
// requested times are multiples of 5 s, some runtimes are zero and some
// exceed the requested time (those jobs are killed).
func tiedWorkload(t *rapid.T) ([]sim.Job, int) {
	procs := rapid.IntRange(1, 16).Draw(t, "procs")
	n := rapid.IntRange(1, 60).Draw(t, "jobs")
	jobs := make([]sim.Job, n)
	var now sim.Time
	for i := range jobs {
		now += 5 * sim.Time(rapid.IntRange(0, 2).Draw(t, "gap"))
		run := 5 * sim.Time(rapid.IntRange(0, 8).Draw(t, "runtime"))
		est := 5 * sim.Time(rapid.IntRange(1, 10).Draw(t, "requested"))
		jobs[i] = sim.Job{ID: int64(i + 1), Submit: now, Runtime: run, Estimate: est,
			Procs: int32(rapid.IntRange(1, procs).Draw(t, "procs")), User: 1, Index: int32(i)}
	}
	// Ids need not follow submit order: equal submits are ordered by id.
	if rapid.Bool().Draw(t, "shuffle ids") {
		perm := rapid.Permutation(jobs).Draw(t, "ids")
		for i := range jobs {
			jobs[i].ID = perm[i].ID
		}
	}
	return jobs, procs
}

// TestEASYMatchesTextbook requires sched.NewEASY and sched.NewSJBF to give
// the textbook schedule, job for job, on random workloads full of ties.
func TestEASYMatchesTextbook(t *testing.T) {
	for _, sjbf := range []bool{false, true} {
		t.Run(fmt.Sprintf("sjbf-%v", sjbf), func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				jobs, procs := tiedWorkload(rt)
				got, want := easyStarts(rt, jobs, procs, sjbf), textbookEASY(jobs, procs, sjbf)
				if msg, n := firstDifference(jobs, got, want); n > 0 {
					rt.Fatalf("%s (%d of %d jobs differ)", msg, n, len(jobs))
				}
			})
		})
	}
}

// TestEASYMatchesTextbookOnRealLogs requires the textbook EASY and SJBF
// schedules, job for job, on every real log with jobs killed at their requested time, at the
// recorded speed and on nodes half as fast (long queues).
func TestEASYMatchesTextbookOnRealLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("real logs skipped in -short mode")
	}
	for _, c := range []struct {
		file  string
		speed float64
	}{
		{"KTH-SP2-1996-2.1-cln.swf.gz", 1},
		{"KTH-SP2-1996-2.1-cln.swf.gz", 0.5},
		{"SDSC-SP2-1998-4.2-cln.swf.gz", 1},
		{"CTC-SP2-1996-3.1-cln.swf.gz", 1},
		{"HPC2N-2002-2.2-cln.swf.gz", 1},
		{"LANL-CM5-1994-4.1-cln.swf.gz", 1},
		{"LLNL-Atlas-2006-2.1-cln.swf.gz", 1},
		{"NASA-iPSC-1993-3.1-cln.swf.gz", 1},
		{"OSC-Clust-2000-3.1-cln.swf.gz", 1},
		{"SDSC-BLUE-2000-4.2-cln.swf.gz", 1},
		{"SDSC-DS-2004-2.1-cln.swf.gz", 1},
		{"SDSC-Par-1996-3.1-cln.swf.gz", 1},
	} {
		t.Run(fmt.Sprintf("%s/speed-%v", c.file, c.speed), func(t *testing.T) {
			tr, err := trace.Load(testdata.Path(t, c.file), trace.Options{})
			if err != nil {
				t.Fatal(err)
			}
			w, err := sim.Prepare(tr, sim.PrepareOptions{Machine: sim.Machine{Speed: c.speed}})
			if err != nil {
				t.Fatal(err)
			}
			jobs := sched.Prefix(w.Jobs)
			for _, sjbf := range []bool{false, true} {
				got, want := easyStarts(t, jobs, w.Procs, sjbf), textbookEASY(jobs, w.Procs, sjbf)
				if msg, n := firstDifference(jobs, got, want); n > 0 {
					t.Errorf("sjbf %v: %s (%d of %d jobs differ)", sjbf, msg, n, len(jobs))
				}
			}
		})
	}
}
