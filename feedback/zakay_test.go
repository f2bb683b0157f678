package feedback

import (
	"context"
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sim"
)

// release is one call of a user model: the batch, why it was released,
// when, and the job the model reads the response time of (-1 for none).
type release struct {
	b       int32
	r       Reason
	now     sim.Time
	trigger int32
}

// recorder passes the releases on to a user model and records them.
type recorder struct {
	inner userModel
	log   []release
}

func (m *recorder) arrival(z *zakaySource, b int32, r Reason, now sim.Time) sim.Time {
	m.log = append(m.log, release{b, r, now, z.trigger})
	return m.inner.arrival(z, b, r, now)
}

// TestNextBatchMechanism works the next-batch mechanism of Zakay's thesis
// (chapter 4) out by hand on a log of user 0 and two jobs without a user,
// sessions by arrival (threshold 1 h), Zakay's Adjusted users, nodes 1.5
// times as fast (runtimes 6000, 10 and 10 s become 4000, 7 and 7 s):
//
//	A: user 0, submitted at 1, 6000 s (a session)
//	B: user 0, at 4001, 100000 s: a new session (4000 s > 1 h after A),
//	   which does not depend on A (still running when B arrived)
//	C: user 0, at 10001, 10 s: a new session, which depends on A (ended at
//	   6001) and not on B (running); recorded TT 10001 - 6001 = 4000 s,
//	   IAT 10001 - 4001 = 6000 s
//	no user: at 20 and 30, 10 s each, one session each
//
// A arrives at 1 (released initially); B becomes next and, without a
// dependency, is released by the follows relation at 1: it arrives at
// 1 + its IAT 4000 = 4001. A ends at 1 + 4000 = 4001, the instant B
// arrives: C's last dependency ended at the previous batch's last arrival,
// which counts as a release by dependency (Dependency, not Follows), so C
// arrives at 4001 + TT 4000 = 8001 (by Follows it would be 4001 + 6000).
// The jobs without a user keep their times. B was released before any job
// of user 0 ended (no trigger); C by A's end.
func TestNextBatchMechanism(t *testing.T) {
	tr := mkTrace(10, tj{0, 1, 0, 6000}, tj{-1, 20, 0, 10}, tj{-1, 30, 0, 10}, tj{0, 4001, 0, 100000}, tj{0, 10001, 0, 10})
	pl, err := NewPlan(tr, Options{Model: Adjusted})
	if err != nil {
		t.Fatal(err)
	}
	w, err := sim.Prepare(tr, sim.PrepareOptions{Machine: sim.Machine{Speed: 1.5}})
	if err != nil {
		t.Fatal(err)
	}
	src, err := pl.NewSource(w)
	if err != nil {
		t.Fatal(err)
	}
	// Before the run no job is submitted or ended.
	for i := range tr.Jobs {
		if src.Submitted()[i] != -1 || src.Ends()[i] != -1 {
			t.Fatalf("job %d: submitted %d, ended %d before the run, want -1", i, src.Submitted()[i], src.Ends()[i])
		}
	}
	rec := &recorder{inner: src.z.model}
	src.z.model = rec
	if _, err := sim.Run(context.Background(), src, sched.NewFCFS(), sim.Config{Procs: w.Procs}); err != nil {
		t.Fatal(err)
	}
	if got, want := src.Submitted(), []sim.Time{1, 20, 30, 4001, 8001}; !slices.Equal(got, want) {
		t.Errorf("submits %v, want %v", got, want)
	}
	if n := src.Unsubmitted(); n != 0 {
		t.Errorf("%d jobs never submitted", n)
	}
	if i, f, d := src.Releases(); i != 3 || f != 1 || d != 1 {
		t.Errorf("releases: %d initial, %d follows, %d dependency; want 3, 1, 1", i, f, d)
	}
	batchOf := pl.Partition.BatchOf()
	want := []release{{batchOf[3], Follows, 1, -1}, {batchOf[4], Dependency, 4001, 0}}
	if !slices.Equal(rec.log, want) {
		t.Errorf("model calls %+v, want %+v", rec.log, want)
	}
	// The figures report the releases; Madon's replay has none.
	if f := FiguresOf(&Run{Trace: tr, Source: src}); f.Releases["initial"] != 3 || f.Releases["follows"] != 1 || f.Releases["dependency"] != 1 || f.StartRule != "" {
		t.Errorf("figures: releases %v, start rule %q", f.Releases, f.StartRule)
	}
}
