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
