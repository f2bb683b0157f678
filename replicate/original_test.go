package replicate_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/replicate"
	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/sim"
)

// TestOriginalReplay checks the original's replay: every job the
// simulator keeps is measured (the period includes the last submit),
// the jobs left out are counted, and machine size 0 means the log's.
func TestOriginalReplay(t *testing.T) {
	p := kthPools(t)
	size, err := p.Trace.MachineSize()
	if err != nil {
		t.Fatal(err)
	}
	run := func(procs int) *replicate.Result {
		r, err := replicate.Run(context.Background(), replicate.Config{Pools: p, Scheduler: easy, Variants: 1, Workers: 1, Procs: procs,
			Generate: resample.Options{Seed: 2, Duration: 2 * resample.Week}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, procs := range []int{size, 64} {
		r := run(procs)
		w, err := sim.Prepare(p.Trace, sim.PrepareOptions{Machine: sim.Machine{Procs: procs}, Oversize: sim.OversizeDrop})
		if err != nil {
			t.Fatal(err)
		}
		if r.Original.Jobs != len(w.Jobs) || r.OriginalDropped != w.Dropped+w.DroppedOversize {
			t.Errorf("%d processors: original measures %d jobs and drops %d; the replay keeps %d and drops %d + %d",
				procs, r.Original.Jobs, r.OriginalDropped, len(w.Jobs), w.Dropped, w.DroppedOversize)
		}
		if procs == 64 && w.DroppedOversize == 0 {
			t.Error("no job wider than 64 processors: the oversize count is not exercised")
		}
		if procs == size {
			if d := run(0); *d.Original != *r.Original {
				t.Errorf("machine size 0: original %+v, with the log's %d processors %+v", *d.Original, size, *r.Original)
			}
		}
	}
	if _, err := replicate.Run(context.Background(), replicate.Config{Pools: p, Scheduler: easy}); err == nil || !strings.Contains(err.Error(), "at least 1") {
		t.Errorf("no variants: error %v", err)
	}
}
