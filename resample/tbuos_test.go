package resample_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/trace"
)

// TestTBUOS runs TBUOS on the embedded KTH-SP2 log under FCFS and EASY and
// checks that it is deterministic, submits nothing after the duration, and
// regenerates long-term users.
func TestTBUOS(t *testing.T) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := resample.Classify(tr, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	done := map[string]int{}
	for _, name := range []string{"fcfs", "easy", "easy"} {
		s, _ := sched.New(name)
		run, err := p.TBUOS(context.Background(), s, resample.TBUOSOptions{Options: resample.Options{Seed: 3}})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for i := range run.Result.Jobs {
			o := &run.Result.Jobs[i]
			if int64(o.Submit) >= run.Params.Duration {
				t.Fatalf("job %d submitted at %d, after the duration %d", o.ID, o.Submit, run.Params.Duration)
			}
			if int64(o.End) <= run.Params.Duration {
				n++
			}
		}
		t.Logf("%s: %d jobs submitted, %d completed in the period, %d copies, %d regenerated", name, len(run.Result.Jobs), n, len(run.Copies), run.Regenerated)
		if prev, ok := done[name]; ok && prev != n {
			t.Errorf("%s: %d then %d jobs: not deterministic", name, prev, n)
		}
		done[name] = n
		if run.Regenerated == 0 {
			t.Error("no long-term user was regenerated")
		}
	}
}

// TestTBUOSRegeneration checks when a long-term copy comes back after its
// predecessor's last job ends: under RegenGap after the user's original
// off-activity time, (first - start) + (end - last), and under
// RegenImmediate at once, each at the first time that keeps the user's
// jobs on their weekday and time of day (within a week, plus an hour for a
// daylight-saving change).
func TestTBUOSRegeneration(t *testing.T) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p0, err := resample.Classify(tr, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The log without its first 100 jobs, bounded by its submits: a period
	// that does not start at 0, so the gap's first term, First - Start,
	// differs from First.
	cut := trace.New(tr.Header, tr.Jobs[100:], trace.Options{Procs: tr.Procs})
	p1, err := resample.Classify(cut, resample.ClassifyOptions{Period: resample.PeriodSubmits})
	if err != nil {
		t.Fatal(err)
	}
	if p1.Start <= 0 {
		t.Fatalf("the cut log's period starts at %d", p1.Start)
	}
	for _, p := range []*resample.Pools{p0, p1} {
		regenerationChecks(t, p)
	}
}

func regenerationChecks(t *testing.T, p *resample.Pools) {
	t.Helper()
	for _, regen := range []resample.Regeneration{resample.RegenGap, resample.RegenImmediate} {
		s, _ := sched.New("easy")
		run, err := p.TBUOS(context.Background(), s, resample.TBUOSOptions{Options: resample.Options{Seed: 3}, Regen: regen})
		if err != nil {
			t.Fatal(err)
		}
		first := make([]int64, len(run.Copies))
		end := make([]int64, len(run.Copies))
		for i := range first {
			first[i], end[i] = -1, -1
		}
		for r := range run.Result.Jobs {
			o := &run.Result.Jobs[r]
			c := o.ID >> 24 // the copy's index, as TBUOSRun.Copies documents
			if first[c] < 0 || int64(o.Submit) < first[c] {
				first[c] = int64(o.Submit)
			}
			end[c] = max(end[c], int64(o.End))
		}
		prev := map[int32]int{} // slot -> index of its latest copy
		pairs, longGaps := 0, 0
		for i, c := range run.Copies {
			if c.Class != resample.LongTerm {
				continue
			}
			k, ok := prev[c.Slot]
			prev[c.Slot] = i
			if !ok || first[i] < 0 {
				continue
			}
			u := c.Sub()
			after := end[k]
			if regen == resample.RegenGap {
				gap := (u.First - p.Start) + (p.End - u.Last)
				after += gap
				if gap > week {
					longGaps++
				}
			}
			if first[i] < after || first[i] >= after+week+3600 {
				t.Errorf("%v: slot %d: user %d's copy starts at %d, its predecessor ended at %d; want from %d to a week later",
					regen, c.Slot, u.ID, first[i], end[k], after)
			}
			pairs++
		}
		t.Logf("%v: %d regenerated copies checked, %d after a gap of more than a week", regen, pairs, longGaps)
		if pairs == 0 || pairs != run.Regenerated {
			t.Errorf("%v: %d regenerated copies checked, %d regenerated", regen, pairs, run.Regenerated)
		}
		if regen == resample.RegenGap && longGaps == 0 {
			t.Errorf("no regenerated user had an off-activity gap of more than a week: the rules are not told apart")
		}
	}
}

// TestTBUOSTrace checks the log of a TBUOS run: one record per started
// job, by simulated submit time and numbered from 1, with the simulated
// wait, runtime, user and processors, status 0 for a job killed at its
// requested time, and the job counts and parameters in the header.
func TestTBUOSTrace(t *testing.T) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := resample.Classify(tr, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := sched.New("easy")
	run, err := p.TBUOS(context.Background(), s, resample.TBUOSOptions{Options: resample.Options{Seed: 4, Duration: 8 * week}, Kill: true})
	if err != nil {
		t.Fatal(err)
	}
	type rec struct {
		submit, wait, runtime, reqTime int64
		procs, user, status            int32
	}
	var want []rec
	killed := 0
	for i := range run.Result.Jobs {
		o := &run.Result.Jobs[i]
		if o.Start < 0 {
			continue
		}
		st := int32(1)
		if o.Killed {
			st = 0
			killed++
		}
		want = append(want, rec{int64(o.Submit), int64(o.Start - o.Submit), int64(o.End - o.Start), int64(o.Estimate), o.Procs, o.User, st})
	}
	if killed == 0 {
		t.Fatal("no job was killed: the status field is not exercised")
	}
	lt := run.Trace(p, "scheduler easy")
	var got []rec
	for i, j := range lt.Jobs {
		if j.ID != int64(i+1) || i > 0 && j.Submit < lt.Jobs[i-1].Submit {
			t.Fatalf("record %d: ID %d at %d, after %d: not numbered by submit time", i, j.ID, j.Submit, lt.Jobs[max(i-1, 0)].Submit)
		}
		got = append(got, rec{j.Submit, j.Wait, j.Runtime, j.ReqTime, j.Procs, j.User, j.Status})
		// The fields a run does not simulate are unknown (-1); the
		// requested processors are the allocated ones.
		for f, v := range []int64{int64(j.AvgCPU), int64(j.UsedMem), int64(j.ReqMem), int64(j.Group), int64(j.App), int64(j.Queue),
			int64(j.Partition), int64(j.Preceding), j.ThinkTime} {
			if v != -1 {
				t.Fatalf("record %d: unknown field %d is %d, want -1", i, f, v)
			}
		}
		if j.ReqProcs != j.Procs {
			t.Fatalf("record %d: %d processors requested, %d allocated", i, j.ReqProcs, j.Procs)
		}
	}
	cmp := func(a, b rec) int {
		return slices.Compare([]int64{a.submit, int64(a.user), a.wait, a.runtime, a.reqTime, int64(a.procs), int64(a.status)},
			[]int64{b.submit, int64(b.user), b.wait, b.runtime, b.reqTime, int64(b.procs), int64(b.status)})
	}
	slices.SortFunc(got, cmp)
	slices.SortFunc(want, cmp)
	if !slices.Equal(got, want) {
		t.Errorf("%d records, want %d, or their fields differ from the simulated jobs", len(got), len(want))
	}
	// The source's SHA-256 when known, else no line.
	for _, src := range []*trace.Trace{tr, {Name: "x", Header: tr.Header, SHA256: "abc"}} {
		v, ok := run.Trace(&resample.Pools{Trace: src}, "").Header.Get(resample.KeySHA256)
		if ok != (src.SHA256 != "") || v != src.SHA256 {
			t.Errorf("source SHA-256 %q: header line %q (%v)", src.SHA256, v, ok)
		}
	}
	for _, k := range []string{"MaxJobs", "MaxRecords"} {
		if v, _ := lt.Header.Get(k); v != strconv.Itoa(len(want)) {
			t.Errorf("header %s: %q, want %d", k, v, len(want))
		}
	}
	text := strings.Join(append(lt.Header.Notes(), lt.Header.GetAll(resample.KeySeed)...), "\n") + "\n" + strings.Join(lt.Header.GetAll(resample.KeyParams), "\n")
	for _, s := range []string{"scheduler easy", "4 stream 0", "duration=4838400 ", fmt.Sprintf("regenerated=%d ", run.Regenerated)} {
		if !strings.Contains(text, s) {
			t.Errorf("header lacks %q:\n%s", s, text)
		}
	}
}

// TestTBUOSRejected runs the 30-week synthetic log's copies on 4
// processors: users 4 to 7 ask for 5 to 8, so each of their copied jobs is
// rejected on arrival and counted, and none runs; on 8 processors none is
// rejected.
func TestTBUOSRejected(t *testing.T) {
	p, err := resample.Classify(synth(30, "UTC", spans30), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, procs := range []int{4, 8} {
		run, err := p.TBUOS(context.Background(), sched.NewFCFS(), resample.TBUOSOptions{
			Options: resample.Options{Seed: 1, Duration: 8 * week}, Procs: procs})
		if err != nil {
			t.Fatal(err)
		}
		if (run.Rejected > 0) != (procs == 4) {
			t.Errorf("%d processors: %d jobs rejected", procs, run.Rejected)
		}
		for _, o := range run.Result.Jobs {
			if int(o.Procs) > procs {
				t.Fatalf("%d processors: a job of %d ran", procs, o.Procs)
			}
		}
	}
}

// TestTBUOSCopiesHaveJobs: a copy whose first job would fall at or after
// the duration is not made. The durations end exactly at the first job
// (Monday 9:00 plus u minutes) that a temporary user u of manyUsers
// arriving in week 1 would submit; every copy of the run submits a job,
// and none at or after the duration.
func TestTBUOSCopiesHaveJobs(t *testing.T) {
	p, err := resample.Classify(manyUsers(), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for u := int64(21); u <= 50; u++ {
		for seed := uint64(1); seed <= 3; seed++ {
			d := week + 9*3600 + u*60
			run, err := p.TBUOS(context.Background(), sched.NewFCFS(), resample.TBUOSOptions{Options: resample.Options{Seed: seed, Duration: d}})
			if err != nil {
				t.Fatal(err)
			}
			used := map[*resample.Copy]bool{}
			for r := range run.Result.Jobs {
				used[run.Copy(r)] = true
				if int64(run.Result.Jobs[r].Submit) >= d {
					t.Fatalf("duration %d, seed %d: a job submitted at %d", d, seed, run.Result.Jobs[r].Submit)
				}
			}
			if len(used) != len(run.Copies) {
				t.Fatalf("duration %d, seed %d: %d copies, %d with jobs", d, seed, len(run.Copies), len(used))
			}
		}
	}
}

// TestTBUOSCopiesSubmitTheirWeeks runs the 30-week synthetic log's copies
// for 8 weeks on its 64 processors, where no job waits (at most 8 copies of
// at most 8 processors each): each copy starts from its user's first job of
// a week, and every user of spans30 submits 5 jobs, Monday to Friday, in
// each week it is active, so a copy starting before week 7 submits at least
// those 5.
func TestTBUOSCopiesSubmitTheirWeeks(t *testing.T) {
	p, err := resample.Classify(synth(30, "UTC", spans30), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 5; seed++ {
		run, err := p.TBUOS(context.Background(), sched.NewFCFS(), resample.TBUOSOptions{Options: resample.Options{Seed: seed, Duration: 8 * week}})
		if err != nil {
			t.Fatal(err)
		}
		n, first := map[*resample.Copy]int{}, map[*resample.Copy]int64{}
		for r := range run.Result.Jobs {
			o := &run.Result.Jobs[r]
			if o.Wait() != 0 {
				t.Fatalf("seed %d: job %d waited %d s", seed, o.ID, o.Wait())
			}
			c := run.Copy(r)
			if n[c] == 0 {
				first[c] = int64(o.Submit)
			}
			n[c]++
		}
		for c, k := range n {
			if first[c] < 7*week && k < 5 {
				t.Errorf("seed %d: the copy of user %d starting at %d submitted %d jobs, want 5 or more", seed, c.User, first[c], k)
			}
		}
	}
}

// TestTBUOSRegeneratesEverySlot: at load factor 2 each long-term user of
// spans30 fills two slots, whose copies submit at the same times of the
// week (two copies of one user), so they arrive together. Under the
// immediate rule a copy comes back as soon as its predecessor's last job
// ends; users 2, 3 and 4 are active for 19, 20 and 14 weeks, less than the
// 30 weeks of the run, so each of their slots is copied at least twice.
func TestTBUOSRegeneratesEverySlot(t *testing.T) {
	p, err := resample.Classify(synth(30, "UTC", spans30), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 3; seed++ {
		run, err := p.TBUOS(context.Background(), sched.NewFCFS(), resample.TBUOSOptions{
			Options: resample.Options{Seed: seed, Duration: 30 * week, LoadFactor: 2}, Regen: resample.RegenImmediate})
		if err != nil {
			t.Fatal(err)
		}
		copies := map[[2]int32]int{} // (user, slot)
		for _, c := range run.Copies {
			if c.Slot >= 0 {
				copies[[2]int32{c.User, c.Slot}]++
			}
		}
		slots := 0
		for us, n := range copies {
			if us[0] >= 2 && us[0] <= 4 {
				slots++
				if n < 2 {
					t.Errorf("seed %d: slot %d of user %d copied %d times, want 2 or more", seed, us[1], us[0], n)
				}
			}
		}
		if slots != 6 {
			t.Errorf("seed %d: %d slots of users 2-4, want 6", seed, slots)
		}
	}
}
