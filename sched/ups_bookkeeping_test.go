package sched

import (
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// TestUPSCompactDue pins compactDue's rule at its edge: more than half of
// the list started.
func TestUPSCompactDue(t *testing.T) {
	for _, tc := range []struct {
		dead, n int
		want    bool
	}{
		{0, 0, false}, {1, 1, true}, {1, 2, false}, {2, 3, true}, {2, 4, false}, {3, 4, true}, {3, 5, true}, {2, 5, false},
	} {
		if got := compactDue(tc.dead, tc.n); got != tc.want {
			t.Errorf("compactDue(%d, %d) = %v, want %v", tc.dead, tc.n, got, tc.want)
		}
	}
}

// checkedUPS runs UPS and checks its counts after every pass against the
// jobs it lists: per user, the started jobs still listed (dead) and the
// waiting ones; overall, the waiting jobs, those of each size and the
// smallest waiting size.
type checkedUPS struct {
	*UPS
	t      interface{ Fatalf(string, ...any) }
	passes int
}

func (c *checkedUPS) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	dst = c.UPS.Schedule(v, dst)
	c.passes++
	s := c.UPS
	waiting, smallest := 0, 0
	sizes := map[int]int32{}
	for u, jobs := range s.jobs {
		var dead, nwait int32
		for _, r := range jobs {
			if !s.waiting(r) {
				dead++
				continue
			}
			nwait++
			p := v.Size(r)
			sizes[p]++
			if smallest == 0 || p < smallest {
				smallest = p
			}
		}
		if dead != s.dead[u] || nwait != s.nwait[u] {
			c.t.Fatalf("pass %d at %d, user %d: %d started and %d waiting listed, counts %d and %d", c.passes, v.Now(), u, dead, nwait, s.dead[u], s.nwait[u])
		}
		waiting += int(nwait)
	}
	if waiting != s.nWait {
		c.t.Fatalf("pass %d at %d: %d waiting, count %d", c.passes, v.Now(), waiting, s.nWait)
	}
	for p, n := range s.nsize {
		if n != sizes[p] {
			c.t.Fatalf("pass %d at %d: %d waiting of size %d, count %d", c.passes, v.Now(), sizes[p], p, n)
		}
	}
	if waiting > 0 && s.minSz != smallest {
		c.t.Fatalf("pass %d at %d: smallest waiting size %d, recorded %d", c.passes, v.Now(), smallest, s.minSz)
	}
	return dst
}
