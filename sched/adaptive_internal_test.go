package sched

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/hpcwl/hpcwl/sim"
)

// inert is a candidate that never starts a job.
type inert struct{}

func (inert) Notify(*sim.View, sim.Notice)                  {}
func (inert) Restore(*sim.View)                             {}
func (inert) Schedule(_ *sim.View, dst []sim.Ref) []sim.Ref { return dst }

// TestPBASSwitchesToFirstCandidate: PBAS made to start with its second
// candidate, one that starts nothing, against Maui as the first. At the
// decision point 300 the real window used no processor (utilisation 0)
// and Maui's shadow ran job 1 (utilisation 100/300 · 4/4), so PBAS switches
// to the first candidate, which starts job 1 at once and job 2 (arrived at
// 310) when job 1 ends at 400.
func TestPBASSwitchesToFirstCandidate(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 4},
		{ID: 2, Submit: 310, Runtime: 10, Estimate: 10, Procs: 4},
	}
	p := NewPBAS("pbas", []Candidate{
		{Name: "maui", New: func() sim.Restorer { return NewMaui(1, 0, 0) }},
		{Name: "none", New: func() sim.Restorer { return inert{} }},
	}, MetricUtilization, 300)
	p.active = 1
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := sim.Run(ctx, sim.NewReplay(slices.Clone(jobs)), p, sim.Config{Procs: 4})
	if err != nil {
		t.Fatal(err)
	}
	if sw := p.Switching(400); sw.Points != 1 || sw.Taken != 1 {
		t.Errorf("switching %+v, want 1 decision point, 1 switch", sw)
	}
	if res.Jobs[0].Start != 300 || res.Jobs[1].Start != 400 {
		t.Errorf("starts %d and %d, want 300 and 400", res.Jobs[0].Start, res.Jobs[1].Start)
	}
}

// TestPBASUndefinedShadowScore: at the decision point 300 the active
// candidate (Maui) has ended a job in the period, and the shadow of the
// other, which starts nothing, has ended none, so its score is undefined.
// PBAS then keeps the active candidate (it cannot compare them): no switch,
// and the job arriving after the decision point starts at once.
func TestPBASUndefinedShadowScore(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 100, Procs: 4},
		{ID: 2, Submit: 350, Runtime: 10, Estimate: 10, Procs: 4},
	}
	for _, m := range []Metric{MetricWait, MetricBoundedSlowdown} {
		p := NewPBAS("pbas", []Candidate{
			{Name: "maui", New: func() sim.Restorer { return NewMaui(1, 0, 0) }},
			{Name: "none", New: func() sim.Restorer { return inert{} }},
		}, m, 300)
		// Switched to the inert candidate, the run would wake PBAS every
		// period for ever: a deadline stops it.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		res, err := sim.Run(ctx, sim.NewReplay(slices.Clone(jobs)), p, sim.Config{Procs: 4})
		cancel()
		if err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		if sw := p.Switching(400); sw.Points != 1 || sw.Taken != 0 {
			t.Errorf("%v: switching %v, want 1 decision point, none taken", m, sw)
		}
		if res.Jobs[1].Start != 350 {
			t.Errorf("%v: job 2 starts at %d, want 350", m, res.Jobs[1].Start)
		}
	}
}
