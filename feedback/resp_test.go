package feedback

import (
	"context"
	"testing"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
)

// TestDistributionResponseTime: the response time the distribution-based
// model reads for the job that released a batch is its simulated end minus
// its simulated submit. On one processor under FCFS, user 2's job (0..300)
// holds user 1's first job (submitted at 0, 100 s) until 300: response
// 400 s; user 2's own job responds in 300 s; user 1's next two jobs (10 s
// each, one batch each) come after that, whenever the model puts them, to
// an idle machine: 10 s.
func TestDistributionResponseTime(t *testing.T) {
	run, err := Simulate(context.Background(), smallLog(), sched.NewFCFS(), sim.Options{}, Options{Model: Distribution, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	m, ok := run.Source.z.model.(*distribution)
	if !ok {
		t.Fatalf("model %T, want the distribution-based one", run.Source.z.model)
	}
	if sub := run.Source.Submitted(); sub[2] < 400 || sub[3] < sub[2]+10 {
		t.Fatalf("submits %v: user 1's last jobs before its first ended", sub)
	}
	for _, c := range []struct {
		job  int32
		want sim.Time
	}{{0, 300}, {1, 400}, {2, 10}, {3, 10}} {
		if got := m.respTime(c.job); got != c.want {
			t.Errorf("job %d: response time %d s, want %d s", c.job, got, c.want)
		}
	}
}
