package sim_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// probe is a FCFS scheduler that notes what its view shows at every pass.
type probe struct {
	fifo
	seen []string
}

func (p *probe) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	n, waits := v.StartedWaits()
	s := fmt.Sprintf("t=%d P=%d free=%d waiting=%d running=%d started=%d waits=%d |", v.Now(), v.Procs(), v.Free(), v.NumWaiting(), v.NumRunning(), n, waits)
	for r := sim.Ref(0); int(r) < v.NumJobs(); r++ {
		s += fmt.Sprintf(" %d:%d %d-%d", v.ID(r), v.Submit(r), v.Start(r), v.End(r))
		if v.Done(r) {
			s += " done"
		} else {
			s += fmt.Sprintf(" pe=%d", v.PredictedEnd(r))
		}
	}
	p.seen = append(p.seen, s)
	return p.fifo.Schedule(v, dst)
}

// TestViewDuringRun checks what a scheduler sees on a 4-processor machine:
// job 1 (4 processors, 100 s, requested 150 s) runs from 0; jobs 2 (2
// processors, 50 s, requested 60 s) and 3 (2 processors, 10 s, requested
// 10 s) wait from 10 and 20 s and start when it ends; job 4 (4
// processors, 5 s) waits from 105 s to 150 s. A running job's
// predicted end is its start plus its requested time, a waiting job's now
// plus it; an end is -1 until the job has ended.
func TestViewDuringRun(t *testing.T) {
	jobs := []sim.Job{
		{ID: 1, Submit: 0, Runtime: 100, Estimate: 150, Procs: 4},
		{ID: 2, Submit: 10, Runtime: 50, Estimate: 60, Procs: 2, Index: 1},
		{ID: 3, Submit: 20, Runtime: 10, Estimate: 10, Procs: 2, Index: 2},
		{ID: 4, Submit: 105, Runtime: 5, Estimate: 5, Procs: 4, Index: 3},
	}
	p := &probe{}
	if _, err := sim.Run(context.Background(), sim.NewReplay(jobs), p, sim.Config{Procs: 4}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"t=0 P=4 free=4 waiting=1 running=0 started=0 waits=0 | 1:0 -1--1 pe=150",
		"t=10 P=4 free=0 waiting=1 running=1 started=1 waits=0 | 1:0 0--1 pe=150 2:10 -1--1 pe=70",
		"t=20 P=4 free=0 waiting=2 running=1 started=1 waits=0 | 1:0 0--1 pe=150 2:10 -1--1 pe=80 3:20 -1--1 pe=30",
		"t=100 P=4 free=4 waiting=2 running=0 started=1 waits=0 | 1:0 0-100 done 2:10 -1--1 pe=160 3:20 -1--1 pe=110",
		"t=105 P=4 free=0 waiting=1 running=2 started=3 waits=170 | 1:0 0-100 done 2:10 100--1 pe=160 3:20 100--1 pe=110 4:105 -1--1 pe=110",
		"t=110 P=4 free=2 waiting=1 running=1 started=3 waits=170 | 1:0 0-100 done 2:10 100--1 pe=160 3:20 100-110 done 4:105 -1--1 pe=115",
		"t=150 P=4 free=4 waiting=1 running=0 started=3 waits=170 | 1:0 0-100 done 2:10 100-150 done 3:20 100-110 done 4:105 -1--1 pe=155",
	}
	if !slices.Equal(p.seen, want) {
		t.Errorf("passes:\n%s\nwant\n%s", fmt.Sprint(p.seen), fmt.Sprint(want))
	}
}
