package sched

import (
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// TestEASYRebuildDue pins the rule rebuildDue documents, at the edges of
// each of its three conditions: more than half of a queue longer than 4
// blocks (256 entries) dead, more than 8 n + 4096 entries taken off the
// front, or a stale EASY (not SJBF) queue.
func TestEASYRebuildDue(t *testing.T) {
	for _, tc := range []struct {
		name        string
		n, dead     int
		base        int
		stale, sjbf bool
		want        bool
	}{
		{"half dead, long", 300, 150, 0, false, false, false},
		{"over half dead, long", 300, 151, 0, false, false, true},
		{"over half dead, 4 blocks", 256, 200, 0, false, false, false},
		{"over half dead, 4 blocks and 1", 257, 129, 0, false, false, true},
		{"over half dead, odd", 301, 151, 0, false, false, true},
		{"front at the bound", 100, 0, 8*100 + 4096, false, false, false},
		{"front past the bound", 100, 0, 8*100 + 4097, false, false, true},
		{"front past the bound, empty", 0, 0, 4097, false, false, true},
		{"stale EASY", 10, 0, 0, true, false, true},
		{"stale SJBF", 10, 0, 0, true, true, false},
		{"fresh SJBF", 10, 0, 0, false, true, false},
	} {
		s := &EASY{queue: make([]waiting, tc.n), dead: tc.dead, base: tc.base, stale: tc.stale, byPred: tc.sjbf}
		if got := s.rebuildDue(); got != tc.want {
			t.Errorf("%s: rebuildDue() = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// checkedEASY runs EASY and checks its bookkeeping after every pass: the
// count of tombstones is the number of started jobs left in the queue, the
// queue never starts with one, and base advances by the entries the FCFS
// phase takes off the front.
type checkedEASY struct {
	*EASY
	t      interface{ Fatalf(string, ...any) }
	passes int
}

func (c *checkedEASY) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	dst = c.EASY.Schedule(v, dst)
	c.passes++
	dead := 0
	for _, x := range c.queue {
		if x.procs == tomb {
			dead++
		}
	}
	if dead != c.dead {
		c.t.Fatalf("pass %d at %d: %d tombstones in the queue, dead = %d", c.passes, v.Now(), dead, c.dead)
	}
	if len(c.queue) > 0 && c.queue[0].procs == tomb {
		c.t.Fatalf("pass %d at %d: the queue starts with a tombstone", c.passes, v.Now())
	}
	if len(c.queue) == 0 && (c.head != -1 || c.base != 0) {
		c.t.Fatalf("pass %d at %d: empty queue with head %d, base %d", c.passes, v.Now(), c.head, c.base)
	}
	return dst
}
