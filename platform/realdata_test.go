package platform

import (
	"cmp"
	"context"
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// TestSeparatePartitionsRealLogs simulates the shared logs that have
// several partitions, each partition on its own machine under EASY, and
// checks the schedule from its definition: every simulated job starts no
// earlier than its submission, in its own partition, and no partition ever
// runs more processors than it has.
func TestSeparatePartitionsRealLogs(t *testing.T) {
	for _, file := range []string{"SDSC-Par-1996-3.1-cln.swf.gz", "SDSC-DS-2004-2.1-cln.swf.gz", "LLNL-Atlas-2006-2.1-cln.swf.gz"} {
		t.Run(file, func(t *testing.T) {
			tr, err := trace.Load(testdata.Path(t, file), trace.Options{})
			if err != nil {
				t.Fatal(err)
			}
			field := sim.ProcsAllocated
			p, err := FromTrace(tr, field.Processors)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Partitions) < 2 {
				t.Fatalf("%d partitions, want several", len(p.Partitions))
			}
			res, w, pl, err := Simulate(context.Background(), tr, p, Options{
				Options:      sim.Options{PrepareOptions: sim.PrepareOptions{Oversize: sim.OversizeDrop}},
				NewScheduler: func() (sim.Scheduler, error) { return sched.New("easy") },
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Jobs) != len(w.Jobs) || pl.Unplaced != 0 {
				t.Fatalf("%d outcomes for %d prepared jobs, %d unplaced", len(res.Jobs), len(w.Jobs), pl.Unplaced)
			}
			type ev struct {
				t     sim.Time
				delta int
			}
			byPart := map[int][]ev{}
			for _, o := range res.Jobs {
				if o.Start < o.Submit {
					t.Fatalf("job %d starts at %d before its submission at %d", o.ID, o.Start, o.Submit)
				}
				part := int(tr.Jobs[o.Index].Partition)
				if tr.Jobs[o.Index].ID != o.ID {
					t.Fatalf("outcome of job %d points at log job %d", o.ID, tr.Jobs[o.Index].ID)
				}
				byPart[part] = append(byPart[part], ev{o.Start, int(o.Procs)}, ev{o.End, -int(o.Procs)})
			}
			for _, q := range p.Partitions {
				evs := byPart[q.ID]
				// Ends before starts at the same instant: a job may start when another ends.
				slices.SortFunc(evs, func(a, b ev) int { return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.delta, b.delta)) })
				used := 0
				for _, e := range evs {
					used += e.delta
					if used > q.Procs {
						t.Fatalf("partition %d runs %d processors at %d; it has %d", q.ID, used, e.t, q.Procs)
					}
				}
			}
		})
	}
}
