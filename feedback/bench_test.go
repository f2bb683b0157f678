package feedback

import (
	"context"
	"testing"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// BenchmarkKTH compares a rigid replay of KTH-SP2 under EASY with Madon's
// feedback replay (a60) and Zakay's Adjusted users of the same log and
// scheduler; the feedback runs include identifying the sessions and
// building the dependency graph.
func BenchmarkKTH(b *testing.B) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		name string
		fo   *Options
	}{{"rigid", nil}, {"madon-a60", &Options{}}, {"adjusted", &Options{Model: Adjusted}}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s, _ := sched.New("easy")
				var err error
				if c.fo == nil {
					_, err = Rigid(ctx, tr, s, sim.Options{})
				} else {
					_, err = Simulate(ctx, tr, s, sim.Options{}, *c.fo)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkNewSource measures the set-up of a feedback run of KTH-SP2:
// sessions, dependency graph and source state.
func BenchmarkNewSource(b *testing.B) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	w, err := sim.Prepare(tr, sim.PrepareOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewSource(tr, w, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
