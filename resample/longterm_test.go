package resample_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/sched"
)

// TestLongTermSpread: at load factor 2 each of the four long-term users of
// spans30 fills two slots, whose first copies start (shift -w0) in weeks
// w0 of the user's activity, FirstWeek..LastWeek (a weeks), half of it
// apart: w0' - w0 = a/2 modulo a (integer division).
func TestLongTermSpread(t *testing.T) {
	p, err := resample.Classify(synth(30, "UTC", spans30), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 20; seed++ {
		w, err := p.Generate(resample.Options{Seed: seed, LoadFactor: 2})
		if err != nil {
			t.Fatal(err)
		}
		if w.Params.LongTerm != 8 {
			t.Fatalf("%d long-term slots, want 8", w.Params.LongTerm)
		}
		// A copy starting in the middle of a user's activity starts at its
		// first job of week w0, moved to week 0: no job falls before time 0.
		if w.BeforeStart != 0 {
			t.Fatalf("seed %d: %d jobs before time 0", seed, w.BeforeStart)
		}
		// The first copy of a slot has the smallest shift; the later ones
		// follow every cycle. Slots are numbered from 0.
		first := map[int32]*resample.Copy{}
		for i := range w.Copies {
			c := &w.Copies[i]
			if c.Class != resample.LongTerm {
				continue
			}
			if c.Slot < 0 || c.Slot >= 8 {
				t.Fatalf("seed %d: long-term slot %d, want 0..7", seed, c.Slot)
			}
			if f, ok := first[c.Slot]; !ok || c.Shift < f.Shift {
				first[c.Slot] = c
			}
		}
		w0s := map[int32][]int{}
		for _, c := range first {
			u := c.Sub()
			w0 := -c.Shift
			if w0 < u.FirstWeek || w0 > u.LastWeek {
				t.Fatalf("seed %d: user %d's slot %d starts in week %d, outside its weeks %d..%d", seed, c.User, c.Slot, w0, u.FirstWeek, u.LastWeek)
			}
			w0s[c.User] = append(w0s[c.User], w0)
		}
		for _, u := range p.LongTerm {
			ws := w0s[u.ID]
			if len(ws) != 2 {
				t.Fatalf("seed %d: user %d has %d slots, want 2", seed, u.ID, len(ws))
			}
			a := u.LastWeek - u.FirstWeek + 1
			if d := ((ws[1]-ws[0])%a + a) % a; d != a/2 && d != a-a/2 {
				t.Errorf("seed %d: user %d's slots start in weeks %v, %d apart modulo %d, want %d", seed, u.ID, ws, d, a, a/2)
			}
		}
	}
}

// TestAlignedSpread: with AlignLongTerm at load factor 2 the two slots of
// a user start half a cycle apart (the cycle is the log's 30 weeks), from
// the common week drawn. User 1 is active in every week, so each of its
// slots has a first copy from a week w0 of 0..29, shift -w0 <= 0.
func TestAlignedSpread(t *testing.T) {
	p, err := resample.Classify(synth(30, "UTC", spans30), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 20; seed++ {
		w, err := p.Generate(resample.Options{Seed: seed, LoadFactor: 2, AlignLongTerm: true})
		if err != nil {
			t.Fatal(err)
		}
		cyc := w.Params.CycleWeeks
		if cyc != 30 {
			t.Fatalf("cycle of %d weeks, want 30", cyc)
		}
		first := map[int32]int{}
		for _, c := range w.Copies {
			if c.Class != resample.LongTerm || c.User != 1 {
				continue
			}
			if s, ok := first[c.Slot]; !ok || c.Shift < s {
				first[c.Slot] = c.Shift
			}
		}
		var s []int
		for _, v := range first {
			if v > 0 || v <= -cyc {
				t.Errorf("seed %d: user 1's slot first copied with shift %d, want -29..0", seed, v)
			}
			s = append(s, v)
		}
		if len(s) != 2 || ((s[0]-s[1])%cyc+cyc)%cyc != cyc/2 {
			t.Errorf("seed %d: user 1's slots start with shifts %v, want two, 15 weeks apart modulo 30", seed, s)
		}
	}
}

// TestInitialTemporaryWeeks: a temporary user present at the start is
// copied from a week w0 of its activity (any of them: the weeks with jobs,
// or with WeeksBySpan every week of its span), moved to week 0 (shift
// -w0), from its first job of that week: the users of manyTemporary's
// spans submit five jobs a week, so that job is number 5 (w0 - FirstWeek).
// Every copy but the long-term ones has slot -1. The users' jobs fill
// every week of their spans, so both ways give the same weeks and the same
// draws: the copies are the same.
func TestInitialTemporaryWeeks(t *testing.T) {
	spans := map[int32][2]int{1: {0, 29}, 2: {2, 20}, 3: {10, 29}, 4: {0, 13}}
	for u := int32(5); u < 65; u++ {
		a := 6 + int(u*7)%13
		spans[u] = [2]int{a, a + int(u)%7}
	}
	tr := synth(30, "UTC", spans)
	type initial struct {
		user        int32
		shift, from int
	}
	copies := map[bool][][]initial{}
	for _, bySpan := range []bool{false, true} {
		p, err := resample.Classify(tr, resample.ClassifyOptions{WeeksBySpan: bySpan})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{} // w0 - FirstWeek seen
		lastSeen := false      // a multi-week user copied from its last week
		for seed := uint64(1); seed <= 10; seed++ {
			w, err := p.Generate(resample.Options{Seed: seed, LoadFactor: 3})
			if err != nil {
				t.Fatal(err)
			}
			var in []initial
			for i := range w.Copies {
				c := &w.Copies[i]
				if c.Class != resample.LongTerm && c.Slot != -1 {
					t.Fatalf("a %v copy has slot %d", c.Class, c.Slot)
				}
				u := c.Sub()
				if c.Class != resample.Temporary || c.Shift+u.FirstWeek > 0 {
					continue
				}
				w0 := -c.Shift
				if w0 < u.FirstWeek || w0 > u.LastWeek || c.From != 5*(w0-u.FirstWeek) {
					t.Fatalf("by span %v, seed %d: user %d (weeks %d..%d) copied from week %d, job %d", bySpan, seed, c.User, u.FirstWeek, u.LastWeek, w0, c.From)
				}
				in = append(in, initial{c.User, c.Shift, c.From})
				seen[w0-u.FirstWeek] = true
				lastSeen = lastSeen || w0 == u.LastWeek && u.LastWeek > u.FirstWeek
			}
			copies[bySpan] = append(copies[bySpan], in)
		}
		if len(seen) != 7 || !lastSeen {
			t.Errorf("by span %v: copies start in weeks %v of their users' activity, want 0 to 6 and a last week", bySpan, seen)
		}
	}
	if !reflect.DeepEqual(copies[false], copies[true]) {
		t.Errorf("the initial temporary copies differ with WeeksBySpan")
	}
}

// TestDurationExcludesItsEnd: the workload holds the jobs submitted in
// [0, Duration). User 1 of spans30 submits every Monday at 09:01, and its
// copies keep that time: with a duration ending at week 20's Monday 09:01
// none is kept at that second, with a second more one is.
func TestDurationExcludesItsEnd(t *testing.T) {
	p, err := resample.Classify(synth(30, "UTC", spans30), resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A duration of 20 whole weeks, from Monday 00:00, has 20 weeks.
	if w, err := p.Generate(resample.Options{Seed: 1, Duration: 20 * week}); err != nil || w.Params.Weeks != 20 {
		t.Fatalf("20 weeks: %d weeks (%v)", w.Params.Weeks, err)
	}
	end := int64(20*week + 9*3600 + 60)
	for _, d := range []int64{end, end + 1} {
		w, err := p.Generate(resample.Options{Seed: 1, Duration: d})
		if err != nil {
			t.Fatal(err)
		}
		atEnd := 0
		for _, j := range w.Jobs {
			if j.Submit >= d {
				t.Fatalf("duration %d: job submitted at %d", d, j.Submit)
			}
			if j.Submit == end {
				atEnd++
			}
		}
		if (atEnd > 0) != (d > end) {
			t.Errorf("duration %d: %d jobs at %d", d, atEnd, end)
		}
		// The streamed workload ends the same way.
		checkDraw(t, p, resample.Options{Seed: 1, Duration: d})
	}
}

// TestJobAtTimeZero: a copied job that lands at time 0 is kept. User 1
// submits every Monday at 00:00, so its first copy, from its first job of
// week w0 moved to week 0, starts at 0.
func TestJobAtTimeZero(t *testing.T) {
	tr := synth(30, "UTC", spans30)
	for i := range tr.Jobs {
		if j := &tr.Jobs[i]; j.User == 1 && j.Submit%week < day {
			j.Submit -= j.Submit % week
		}
	}
	p, err := resample.Classify(tr, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := p.Generate(resample.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if w.BeforeStart != 0 || len(w.Jobs) == 0 || w.Jobs[0].Submit != 0 || w.Copies[w.Jobs[0].User-1].User != 1 {
		t.Errorf("%d jobs before the start; the first job at %d, want user 1's at 0", w.BeforeStart, w.Jobs[0].Submit)
	}
	// The streamed workload keeps the job at 0 too, and so does TBUOS: the
	// copy starts with it.
	checkDraw(t, p, resample.Options{Seed: 1})
	run, err := p.TBUOS(context.Background(), sched.NewFCFS(), resample.TBUOSOptions{Options: resample.Options{Seed: 1, Duration: 4 * week}})
	if err != nil {
		t.Fatal(err)
	}
	at0 := 0
	for _, o := range run.Result.Jobs {
		if o.Submit == 0 {
			at0++
		}
	}
	if at0 == 0 {
		t.Error("TBUOS: no job submitted at 0")
	}
	// The recorded run keeps it (it starts at 0 on the empty machine).
	if lt := run.Trace(p, ""); len(lt.Jobs) != len(run.Result.Jobs) || lt.Jobs[0].Submit != 0 || lt.Jobs[0].Wait != 0 {
		t.Errorf("recorded TBUOS run: %d of %d jobs, the first %+v", len(lt.Jobs), len(run.Result.Jobs), lt.Jobs[0])
	}
}
