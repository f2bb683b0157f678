package steady

import (
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// fcfs1 runs jobs of the given runtimes, submitted every gap seconds, on
// one processor in order, with extra added to the wait of the first
// slow jobs (as if they had waited elsewhere).
func fcfs1(n int, gap, runtime sim.Time, slow int, extra sim.Time) *sim.Result {
	res := &sim.Result{Procs: 1}
	free := sim.Time(0)
	for i := range n {
		sub := sim.Time(i) * gap
		start := max(sub, free)
		free = start + runtime
		if i < slow { // a late start that does not hold up the others
			start += extra
		}
		res.Jobs = append(res.Jobs, sim.Outcome{Job: sim.Job{ID: int64(i + 1), Submit: sub, Runtime: runtime, Procs: 1},
			Start: start, End: start + runtime})
	}
	return res
}

func TestAnalyze(t *testing.T) {
	cases := []struct {
		name      string
		res       *sim.Result
		load      float64
		saturated bool
		warn      []string
	}{
		{"stable", fcfs1(2000, 7200, 3600, 0, 0), 0.5, false, nil},
		{"overloaded", fcfs1(2000, 3600, 7200, 0, 0), 2, true, []string{"at or above 1", "saturated"}},
		{"warm-up", fcfs1(2000, 7200, 3600, 100, 86400), 0.5, false, []string{"warm-up: the mean wait", "--warmup-jobs 100"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Analyze(c.res)
			if d := r.OfferedLoad - c.load; d > 0.01 || d < -0.01 || r.Saturated != c.saturated {
				t.Errorf("load %v saturated %v (slope %v)", r.OfferedLoad, r.Saturated, r.Slope)
			}
			all := strings.Join(r.Warnings, "\n")
			for _, w := range c.warn {
				if !strings.Contains(all, w) {
					t.Errorf("warnings lack %q:\n%s", w, all)
				}
			}
			if c.warn == nil && len(r.Warnings) > 0 {
				t.Errorf("unexpected warnings: %s", all)
			}
			if len(r.Weeks) == 0 || r.Weeks[0].Start != 7*86400 {
				t.Errorf("weeks %v", r.Weeks[:min(2, len(r.Weeks))])
			}
		})
	}
}

func TestDuration(t *testing.T) {
	for s, want := range map[int64]string{0: "0", 90: "90s", 120: "2m", 7200: "2h", 3 * 86400: "3d"} {
		if got := Duration(s); got != want {
			t.Errorf("%d: %q, want %q", s, got, want)
		}
	}
	if roundUp(3601) != 7200 || roundUp(2*86400+1) != 3*86400 {
		t.Error("roundUp")
	}
}

// TestEdgeShiftFloor checks that an edge warning needs both a relative and
// an absolute change of the mean wait: 0.4 s to 0.2 s is half, but nothing.
func TestEdgeShiftFloor(t *testing.T) {
	quiet := &Report{MeanWait: 0.4, WarmUp: Trim{Jobs: 310, MeanWait: 0.2, Seconds: 855360}}
	if w := quiet.warnings(); len(w) != 0 {
		t.Errorf("warnings for a 0.2 s shift: %q", w)
	}
	loud := &Report{MeanWait: 1000, WarmUp: Trim{Jobs: 310, MeanWait: 800, Seconds: 855360}}
	if w := loud.warnings(); len(w) != 1 || !strings.Contains(w[0], "warm-up") {
		t.Errorf("warnings for a 200 s (20%%) shift: %q", w)
	}
	small := &Report{MeanWait: 100000, CoolDown: Trim{Jobs: 5, MeanWait: 99000, Seconds: 3600}}
	if w := small.warnings(); len(w) != 0 {
		t.Errorf("warnings for a 1%% shift: %q", w)
	}
}
