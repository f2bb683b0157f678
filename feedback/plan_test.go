package feedback

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// TestPlanReuse runs one plan per model several times, concurrently, under
// two schedulers and checks every run against a run built from scratch.
func TestPlanReuse(t *testing.T) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr.Jobs = tr.Jobs[:4000]
	ctx := context.Background()
	for _, fo := range []Options{{}, {Model: Adjusted}, {Model: Distribution, Seed: 3}, {Model: Fluid, Fluid: FluidV2, Seed: 3}} {
		pl, err := NewPlan(tr, fo)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"easy", "fcfs"} {
			s, _ := sched.New(name)
			want, err := Simulate(ctx, tr, s, sim.Options{}, fo)
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			got := make([]*Run, 3)
			errs := make([]error, len(got))
			for k := range got {
				wg.Go(func() {
					s, _ := sched.New(name)
					got[k], errs[k] = pl.Simulate(ctx, s, sim.Options{})
				})
			}
			wg.Wait()
			for k, r := range got {
				if errs[k] != nil {
					t.Fatal(errs[k])
				}
				if !slices.Equal(r.Source.Submitted(), want.Source.Submitted()) || !slices.Equal(r.Source.Ends(), want.Source.Ends()) {
					t.Errorf("%v %s: run %d of the shared plan differs from a fresh run", fo.Model, name, k)
				}
			}
		}
	}
}

func TestPlanMismatch(t *testing.T) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr.Jobs = tr.Jobs[:500]
	pl, err := NewPlan(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, change := range []func(o *Options){
		func(o *Options) { o.Model = Adjusted },
		func(o *Options) { o.Reduction = session.Full },
		func(o *Options) { o.Sessions.Threshold++ },
	} {
		bad := *pl
		change(&bad.Options)
		s, _ := sched.New("easy")
		if _, err := bad.Simulate(context.Background(), s, sim.Options{}); err == nil {
			t.Errorf("a plan run with options %+v it was not built for gave no error", bad.Options)
		}
	}
}
