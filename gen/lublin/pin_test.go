package lublin

import "testing"

// TestPinnedRuns pins summary figures of the first 5000 jobs of each mode at
// seed 42: the generator is deterministic, so any change to its random
// stream or to how a draw becomes a job (runtimes truncated to whole
// seconds as lublin99.c does, sizes rounded to powers of two, submit times
// truncated on output) moves them.
func TestPinnedRuns(t *testing.T) {
	for _, c := range []struct {
		mode                             Mode
		runtime, ones, procs, lastSubmit int64
	}{
		{Whole, 22114461, 24, 59442, 3583783},
		{Typed, 7961314, 106, 44873, 2476297},
	} {
		_, jobs, err := Generate(Config{Params: DefaultParams(c.mode), Jobs: 5000, Seed: 42})
		if err != nil {
			t.Fatal(err)
		}
		var runtime, ones, procs int64
		for _, j := range jobs {
			runtime += j.Runtime
			procs += j.Procs
			if j.Runtime == 1 {
				ones++
			}
		}
		last := jobs[len(jobs)-1].Submit
		if runtime != c.runtime || ones != c.ones || procs != c.procs || last != c.lastSubmit {
			t.Errorf("mode %v: total runtime %d, runtimes of 1 s %d, total size %d, last submit %d; pinned %d, %d, %d, %d",
				c.mode, runtime, ones, procs, last, c.runtime, c.ones, c.procs, c.lastSubmit)
		}
	}
}
