package sim_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

func textScanner(t *testing.T, text string) *trace.Scanner {
	t.Helper()
	sc, err := trace.NewScanner(swf.NewReader(strings.NewReader(text)), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestStreamEdges: a stream needs a machine size; jobs of one second are
// all kept; a job submitted before the one read last is refused, naming its
// record.
func TestStreamEdges(t *testing.T) {
	const two = "1 10 -1 5 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n2 10 -1 5 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"
	if _, err := sim.NewStream(textScanner(t, two), sim.PrepareOptions{}); !errors.Is(err, trace.ErrNoMachineSize) {
		t.Errorf("no machine size: %v", err)
	}
	st, err := sim.NewStream(textScanner(t, "; MaxProcs: 2\n"+two), sim.PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), st, &fifo{}, sim.Config{Procs: 2})
	if err != nil || st.Err() != nil || len(res.Jobs) != 2 || res.Jobs[1].Start != 10 {
		t.Errorf("two jobs of one second: %+v, %v", res, err)
	}
	const back = "; MaxProcs: 2\n1 10 -1 5 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n2 9 -1 5 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"
	st, err = sim.NewStream(textScanner(t, back), sim.PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sim.Run(context.Background(), st, &fifo{}, sim.Config{Procs: 2}); err != nil {
		t.Fatal(err)
	}
	// The run ends at the stream's error, which the stream reports.
	if err := st.Err(); !errors.Is(err, sim.ErrUnordered) || !strings.Contains(err.Error(), "job 2 (record 2) is submitted at 9, before 10") {
		t.Errorf("a job submitted before the previous: %v", err)
	}
}

// liveLog is FCFS that records FirstLive at every termination.
type liveLog struct {
	fifo
	live []sim.Ref
}

func (s *liveLog) Notify(v *sim.View, n sim.Notice) {
	s.fifo.Notify(v, n)
	if n.Kind == sim.Ended {
		s.live = append(s.live, v.FirstLive())
	}
}

// TestFirstLive: job 2 ends before job 1, so the first live job stays 0
// until job 1 ends; then none is live (2).
func TestFirstLive(t *testing.T) {
	jobs := []sim.Job{{ID: 1, Runtime: 10, Estimate: 10, Procs: 1}, {ID: 2, Runtime: 5, Estimate: 5, Procs: 1}}
	s := &liveLog{}
	if _, err := sim.Run(context.Background(), sim.NewReplay(jobs), s, sim.Config{Procs: 2}); err != nil {
		t.Fatal(err)
	}
	if len(s.live) != 2 || s.live[0] != 0 || s.live[1] != 2 {
		t.Errorf("first live job at the ends: %v, want [0 2]", s.live)
	}
}
