package sched

import (
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
)

// TestPlanned: a factor of at most 1 plans the prediction itself; above 1
// the product is rounded up to a whole second.
func TestPlanned(t *testing.T) {
	for _, c := range []struct {
		p    sim.Time
		k    float64
		want sim.Time
	}{
		{100, 0, 100}, {100, 0.5, 100}, {100, 1, 100},
		{100, 2, 200}, {7, 1.5, 11}, {10, 1.25, 13},
	} {
		if got := planned(c.p, c.k); got != c.want {
			t.Errorf("planned(%d, %v) = %d, want %d", c.p, c.k, got, c.want)
		}
	}
}

func runRefs(l *runList) []sim.Ref {
	var rs []sim.Ref
	for _, x := range l.a {
		rs = append(rs, x.ref)
	}
	return rs
}

// TestRunList: running jobs stay sorted by (planned end, ref) whatever the
// order of insertion; removal finds a job by its key, falls back to a scan
// when the key given is not the job's, and ignores a job not in the list.
func TestRunList(t *testing.T) {
	var l runList
	for _, x := range []running{{50, 4, 1}, {30, 7, 2}, {50, 2, 3}, {10, 9, 4}, {50, 3, 5}, {30, 1, 6}} {
		l.insert(x)
	}
	if got, want := runRefs(&l), []sim.Ref{9, 1, 7, 2, 3, 4}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	for _, c := range []struct {
		end  sim.Time
		ref  sim.Ref
		want int
	}{{0, 0, 0}, {10, 9, 0}, {10, 10, 1}, {30, 0, 1}, {30, 7, 2}, {50, 3, 4}, {50, 4, 5}, {50, 5, 6}, {60, 0, 6}} {
		if got := l.search(c.end, c.ref); got != c.want {
			t.Errorf("search(%d, %d) = %d, want %d", c.end, c.ref, got, c.want)
		}
	}
	l.remove(50, 3) // by key
	if got, want := runRefs(&l), []sim.Ref{9, 1, 7, 2, 4}; !slices.Equal(got, want) {
		t.Fatalf("after remove(50, 3): %v, want %v", got, want)
	}
	l.remove(40, 7) // a stale key: the scan finds job 7
	if got, want := runRefs(&l), []sim.Ref{9, 1, 2, 4}; !slices.Equal(got, want) {
		t.Fatalf("after remove(40, 7): %v, want %v", got, want)
	}
	l.remove(99, 8) // not there, key past every job
	l.remove(30, 8) // not there, key inside
	if got, want := runRefs(&l), []sim.Ref{9, 1, 2, 4}; !slices.Equal(got, want) {
		t.Fatalf("after removing absent jobs: %v, want %v", got, want)
	}
}

// TestKeyList: waiting jobs stay sorted by (key, ref); removal takes out
// exactly the job with that key and ref and leaves the list alone for an
// absent one.
func TestKeyList(t *testing.T) {
	var l keyList
	for _, x := range []keyed{{5, 3}, {2, 8}, {5, 1}, {9, 0}, {5, 2}, {2, 4}} {
		l.insert(x.key, x.ref)
	}
	want := []keyed{{2, 4}, {2, 8}, {5, 1}, {5, 2}, {5, 3}, {9, 0}}
	if !slices.Equal(l.a, want) {
		t.Fatalf("order %v, want %v", l.a, want)
	}
	for _, c := range []struct {
		k    sim.Time
		ref  sim.Ref
		want int
	}{{1, 0, 0}, {2, 4, 0}, {2, 5, 1}, {5, 0, 2}, {5, 2, 3}, {5, 3, 4}, {9, 0, 5}, {9, 1, 6}} {
		if got := l.search(c.k, c.ref); got != c.want {
			t.Errorf("search(%d, %d) = %d, want %d", c.k, c.ref, got, c.want)
		}
	}
	l.remove(5, 2)
	l.remove(9, 0)
	l.remove(5, 9) // absent
	l.remove(7, 1) // absent under that key
	l.remove(10, 0)
	want = []keyed{{2, 4}, {2, 8}, {5, 1}, {5, 3}}
	if !slices.Equal(l.a, want) {
		t.Fatalf("after removals %v, want %v", l.a, want)
	}
}

// TestGrow: grow makes a slice just long enough to index ref, filled with
// the value given, and keeps what it held.
func TestGrow(t *testing.T) {
	s := grow([]int{1, 2}, 4, 7)
	if want := []int{1, 2, 7, 7, 7}; !slices.Equal(s, want) {
		t.Fatalf("grow = %v, want %v", s, want)
	}
	if s = grow(s, 4, 0); len(s) != 5 {
		t.Fatalf("grow to an index held: length %d, want 5", len(s))
	}
}

// TestRefWindow: values by job from base on; trim drops those before the
// first live job once they are at least half of those held, and never a
// value at or after it.
func TestRefWindow(t *testing.T) {
	var w refWindow[int]
	for r := sim.Ref(0); r < 10; r++ {
		*w.at(r) = int(r) * 10
	}
	w.trim(4) // 4 of 10: kept
	if w.base != 0 || len(w.v) != 10 {
		t.Fatalf("trim(4) of 10: base %d, %d held; want 0, 10", w.base, len(w.v))
	}
	w.trim(5) // 5 of 10: dropped
	if w.base != 5 || len(w.v) != 5 {
		t.Fatalf("trim(5) of 10: base %d, %d held; want 5, 5", w.base, len(w.v))
	}
	for r := sim.Ref(5); r < 10; r++ {
		if got := *w.at(r); got != int(r)*10 {
			t.Errorf("after trim at(%d) = %d, want %d", r, got, r*10)
		}
	}
	w.trim(3) // before base: nothing
	w.trim(7) // 2 of 5: kept
	if w.base != 5 || len(w.v) != 5 {
		t.Fatalf("trim(3), trim(7): base %d, %d held; want 5, 5", w.base, len(w.v))
	}
	if got := *w.at(12); got != 0 || len(w.v) != 8 {
		t.Fatalf("at(12) = %d with %d held, want 0 with 8", got, len(w.v))
	}
	w.trim(20) // past every value: all dropped
	if w.base != 13 || len(w.v) != 0 {
		t.Fatalf("trim(20) of 8: base %d, %d held; want 13, 0", w.base, len(w.v))
	}
}

// TestEndingAt counts the processors of the leading jobs planned to end at
// the time given, and only those.
func TestEndingAt(t *testing.T) {
	a := []running{{10, 1, 2}, {10, 2, 3}, {20, 3, 5}, {10, 4, 7}}
	for _, c := range []struct {
		t    sim.Time
		want int
	}{{10, 5}, {20, 0}, {5, 0}} {
		if got := endingAt(a, c.t); got != c.want {
			t.Errorf("endingAt(%d) = %d, want %d", c.t, got, c.want)
		}
	}
	if got := endingAt(a[2:], 20); got != 5 {
		t.Errorf("endingAt(a[2:], 20) = %d, want 5", got)
	}
}
