package feedback

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSubmissionsAgainstSort pushes, pops and replaces random submissions
// and checks that they leave in (time, position) order, with their groups.
func TestSubmissionsAgainstSort(t *testing.T) {
	type sub struct {
		t      int64
		pos, g int32
	}
	less := func(a, b sub) int {
		if c := cmp.Compare(a.t, b.t); c != 0 {
			return c
		}
		return cmp.Compare(a.pos, b.pos)
	}
	for _, tc := range []struct {
		origin int64
		n      int
	}{{0, 1}, {0, 7}, {-50, 1000}, {1e9, 1 << 20}} {
		rng := rand.New(rand.NewPCG(uint64(tc.n), 9))
		q := newSubmissions(tc.origin, tc.n)
		var ref []sub
		next := int32(0) // positions are unique
		fresh := func(now int64) sub {
			s := sub{t: now + rng.Int64N(40), pos: next % int32(tc.n), g: rng.Int32N(100)}
			next++
			return s
		}
		now := tc.origin
		for op := 0; op < 3000 && next < int32(tc.n); op++ {
			switch k := rng.IntN(3); {
			case k == 0 || q.Len() == 0:
				s := fresh(now)
				q.push(s.t, s.pos, s.g)
				ref = append(ref, s)
			default:
				slices.SortFunc(ref, less)
				qt, pos, g := q.next()
				if got, want := (sub{qt, pos, g}), ref[0]; got != want {
					t.Fatalf("origin %d n %d op %d: next %+v, want %+v", tc.origin, tc.n, op, got, want)
				}
				if qt != q.nextTime() {
					t.Fatalf("nextTime %d, next %d", q.nextTime(), qt)
				}
				now = qt
				if k == 1 {
					q.pop()
					ref = ref[1:]
				} else {
					s := fresh(now)
					q.replace(s.t, s.pos, s.g)
					ref[0] = s
				}
			}
			if q.Len() != len(ref) {
				t.Fatalf("Len %d, want %d", q.Len(), len(ref))
			}
		}
		if err := q.err(); err != nil {
			t.Errorf("origin %d n %d: %v", tc.origin, tc.n, err)
		}
	}
}

// TestSubmissionsRange checks that a time outside the queue's range is
// reported rather than silently misordered.
func TestSubmissionsRange(t *testing.T) {
	q := newSubmissions(0, 1000)
	q.push(5, 1, 0)
	if q.err() != nil {
		t.Fatalf("in-range push: %v", q.err())
	}
	q.push(-1, 2, 0)
	if q.err() == nil {
		t.Error("a time before the origin is not reported")
	}
	q = newSubmissions(0, 1000)
	q.push(q.limit, 3, 0)
	if q.err() == nil {
		t.Error("a time past the range is not reported")
	}
}
