package predict

import (
	"context"
	"testing"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
	"pgregory.net/rapid"
)

// specs are the history predictors the properties cover.
var specs = []string{"ruh", "easy++", "ruh:n=1,prop=true", "sbh", "sbh:search=bfs,depth=2", "sbh:crit=E/P/X",
	"sbh-noest", "sbh-noest-balanced", "sbh-noest:prop=true"}

// genWorkload draws a small random workload on 8 processors, with a trace
// of executables, some runtimes beyond their estimates and zero runtimes.
func genWorkload(t *rapid.T) ([]sim.Job, *trace.Trace) {
	n := rapid.IntRange(1, 40).Draw(t, "n")
	tr := &trace.Trace{}
	jobs := make([]sim.Job, n)
	var at sim.Time
	for i := range jobs {
		at += sim.Time(rapid.IntRange(0, 1500).Draw(t, "gap"))
		jobs[i] = sim.Job{ID: int64(i + 1), Submit: at,
			Runtime:  sim.Time(rapid.IntRange(0, 1000).Draw(t, "run")),
			Estimate: sim.Time(rapid.SampledFrom([]int{1, 60, 300, 900}).Draw(t, "est")),
			Procs:    int32(rapid.IntRange(1, 8).Draw(t, "procs")),
			User:     int32(rapid.IntRange(-1, 3).Draw(t, "user")),
			Index:    int32(i)}
		tr.Jobs = append(tr.Jobs, trace.Job{App: int32(rapid.IntRange(-1, 2).Draw(t, "exec"))})
	}
	return jobs, tr
}

func simulate(t *rapid.T, spec string, jobs []sim.Job, tr *trace.Trace) *sim.Result {
	p, err := New(spec, Env{Trace: tr})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := sched.New("sjbf")
	js := append([]sim.Job(nil), jobs...)
	res, err := sim.Run(context.Background(), sim.NewReplay(js), s, sim.Config{Procs: 8, Predictor: p, RecordPredictions: true})
	if err != nil {
		t.Fatalf("%s: %v", spec, err) // includes a miss policy not beyond the elapsed time
	}
	return res
}

// TestPropCapped: with the estimate cap (ruh, easy++, sbh), no prediction
// exceeds the estimate of a job that does not outrun it, and no arrival
// prediction exceeds the estimate at all.
func TestPropCapped(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		jobs, tr := genWorkload(t)
		for _, spec := range []string{"ruh", "easy++", "ruh:n=1,prop=true", "sbh", "sbh:search=bfs,depth=2", "sbh:crit=E/P/X"} {
			res := simulate(t, spec, jobs, tr)
			for _, o := range res.Jobs {
				if o.Initial > o.Estimate {
					t.Fatalf("%s: job %d predicted %d on arrival, above its estimate %d", spec, o.ID, o.Initial, o.Estimate)
				}
			}
			for _, c := range res.Predictions {
				o := res.Jobs[c.Job]
				if o.Runtime <= o.Estimate && c.Prediction > o.Estimate {
					t.Fatalf("%s: job %d (runtime %d) predicted %d at %d, above its estimate %d", spec, o.ID, o.Runtime, c.Prediction, c.At, o.Estimate)
				}
			}
		}
	})
}

// TestPropNoHistory: a job whose user has no terminated job when it
// arrives gets the fallback: the estimate, or 1 s without estimates.
func TestPropNoHistory(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		jobs, tr := genWorkload(t)
		for _, spec := range specs {
			res := simulate(t, spec, jobs, tr)
			for _, o := range res.Jobs {
				history := false
				for _, q := range res.Jobs {
					if q.User == o.User && o.User >= 0 && q.End <= o.Submit && q.ID != o.ID {
						history = true
					}
				}
				want := o.Estimate
				if spec[:min(len(spec), 9)] == "sbh-noest" {
					want = 1
				}
				if !history && o.Initial != want {
					t.Fatalf("%s: job %d of user %d has no history but was predicted %d, want %d", spec, o.ID, o.User, o.Initial, want)
				}
			}
		}
	})
}

// TestPropMissBeyondElapsed: after a deadline miss every predictor's new
// prediction exceeds the elapsed time.
func TestPropMissBeyondElapsed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		spec := rapid.SampledFrom(append(specs, "requested", "constant:1", "sbh-noest-balanced:limit=100")).Draw(t, "spec")
		p, err := New(spec, Env{})
		if err != nil {
			t.Fatal(err)
		}
		j := sim.Job{ID: 1, Estimate: sim.Time(rapid.IntRange(1, 100000).Draw(t, "est")), Procs: 1, User: 1}
		initial := sim.Time(rapid.IntRange(0, 100000).Draw(t, "initial"))
		cur := initial
		for n := 1; n <= rapid.IntRange(1, 8).Draw(t, "misses"); n++ {
			next := p.Missed(&j, sim.MissInfo{Current: cur, Initial: initial, Elapsed: cur, N: n})
			if next <= cur {
				t.Fatalf("%s: miss %d at elapsed %d (estimate %d, initial %d) gave %d", spec, n, cur, j.Estimate, initial, next)
			}
			cur = next
		}
	})
}

// TestPropRunsComplete: every predictor completes random runs, and the
// prediction log starts each job with its arrival prediction and ends
// with its last one.
func TestPropRunsComplete(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		jobs, tr := genWorkload(t)
		spec := rapid.SampledFrom(specs).Draw(t, "spec")
		res := simulate(t, spec, jobs, tr)
		first := make([]bool, len(res.Jobs))
		last := make([]sim.Time, len(res.Jobs))
		for _, c := range res.Predictions {
			if !first[c.Job] {
				first[c.Job] = true
				if c.Prediction != res.Jobs[c.Job].Initial || c.At != res.Jobs[c.Job].Submit {
					t.Fatalf("%s: job %d's first logged prediction %+v, initial %d", spec, res.Jobs[c.Job].ID, c, res.Jobs[c.Job].Initial)
				}
			}
			last[c.Job] = c.Prediction
		}
		for r, o := range res.Jobs {
			if !first[r] || last[r] != o.Prediction {
				t.Fatalf("%s: job %d: last logged prediction %d, outcome %d", spec, o.ID, last[r], o.Prediction)
			}
		}
	})
}
