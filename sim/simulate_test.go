package sim_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// TestSimulate replays a three-record log on its 8-processor machine:
// record 3 has no processor count and is dropped; job 1 (8 processors,
// 100 s, requested 50 s) blocks job 2 (4 processors, 20 s) until it ends,
// killed at 50 s or at the end of its runtime, on nodes of speed 1 or 2.
func TestSimulate(t *testing.T) {
	const log = `; MaxProcs: 8
1 0 -1 100 8 -1 -1 8 50 -1 1 1 1 1 1 1 -1 -1
2 10 -1 20 4 -1 -1 4 30 -1 1 2 1 1 1 1 -1 -1
3 20 -1 20 -1 -1 -1 -1 30 -1 1 2 1 1 1 1 -1 -1
`
	tr, err := trace.Read(swf.NewReader(strings.NewReader(log)), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name         string
		opt          sim.Options
		starts, ends []sim.Time
		killed       bool
	}{
		{"killed", sim.Options{Kill: true}, []sim.Time{0, 50}, []sim.Time{50, 70}, true},
		{"run to the end", sim.Options{}, []sim.Time{0, 100}, []sim.Time{100, 120}, false},
		{"twice as fast", sim.Options{PrepareOptions: sim.PrepareOptions{Machine: sim.Machine{Speed: 2}}}, []sim.Time{0, 50}, []sim.Time{50, 60}, false},
	} {
		res, w, err := sim.Simulate(context.Background(), tr, &fifo{}, c.opt)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if w.Dropped != 1 || len(res.Jobs) != 2 || res.Procs != 8 || res.Kill != c.opt.Kill {
			t.Fatalf("%s: %d dropped, %d jobs on %d processors, kill %v", c.name, w.Dropped, len(res.Jobs), res.Procs, res.Kill)
		}
		for i, o := range res.Jobs {
			if o.Start != c.starts[i] || o.End != c.ends[i] {
				t.Errorf("%s: job %d runs %d-%d, want %d-%d", c.name, o.ID, o.Start, o.End, c.starts[i], c.ends[i])
			}
		}
		if res.Jobs[0].Killed != c.killed || res.Jobs[1].Killed {
			t.Errorf("%s: killed %v and %v, want %v and false", c.name, res.Jobs[0].Killed, res.Jobs[1].Killed, c.killed)
		}
	}
	empty, err := trace.Read(swf.NewReader(strings.NewReader("; MaxProcs: 8\n")), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, w, err := sim.Simulate(context.Background(), empty, &fifo{}, sim.Options{Kill: true})
	if err != nil || len(res.Jobs) != 0 || res.Procs != 8 || !res.Kill || w == nil {
		t.Errorf("empty log: %+v, %v", res, err)
	}
}
