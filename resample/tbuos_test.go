package resample_test

import (
	"context"
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
	p, err := resample.Classify(tr, resample.ClassifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
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
