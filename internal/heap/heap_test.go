package heap

import (
	"math/rand/v2"
	"slices"
	"testing"
)

type item struct {
	t  int64
	id int32
}

func (a item) Before(b item) bool { return a.t < b.t || a.t == b.t && a.id < b.id }

func cmpItem(a, b item) int {
	switch {
	case a.Before(b):
		return -1
	case b.Before(a):
		return 1
	}
	return 0
}

// TestAgainstSort pushes, pops and replaces random items and checks every
// element leaves in sorted order.
func TestAgainstSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 50; round++ {
		var h Heap[item]
		var ref []item
		id := int32(0)
		for op := 0; op < 2000; op++ {
			switch k := rng.IntN(3); {
			case k == 0 || h.Len() == 0:
				e := item{t: rng.Int64N(100), id: id}
				id++
				h.Push(e)
				ref = append(ref, e)
			case k == 1:
				slices.SortFunc(ref, cmpItem)
				if got := h.Pop(); got != ref[0] {
					t.Fatalf("round %d op %d: Pop = %v, want %v", round, op, got, ref[0])
				}
				ref = ref[1:]
			default:
				slices.SortFunc(ref, cmpItem)
				e := item{t: rng.Int64N(100), id: id}
				id++
				if got := h.Replace(e); got != ref[0] {
					t.Fatalf("round %d op %d: Replace = %v, want %v", round, op, got, ref[0])
				}
				ref = append(ref[1:], e)
			}
			if h.Len() != len(ref) {
				t.Fatalf("Len = %d, want %d", h.Len(), len(ref))
			}
			if h.Len() > 0 {
				slices.SortFunc(ref, cmpItem)
				if *h.Top() != ref[0] {
					t.Fatalf("Top = %v, want %v", *h.Top(), ref[0])
				}
			}
		}
	}
}

func TestGrow(t *testing.T) {
	var h Heap[item]
	h.Push(item{t: 3})
	h.Grow(100)
	if cap(h.s) < 101 || h.Len() != 1 || h.Top().t != 3 {
		t.Fatalf("Grow: cap %d len %d", cap(h.s), h.Len())
	}
	h.Grow(10)
	if cap(h.s) < 101 {
		t.Fatal("Grow shrank the heap")
	}
}

func BenchmarkReplace(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	var h Heap[item]
	for i := range 512 {
		h.Push(item{t: rng.Int64N(1 << 20), id: int32(i)})
	}
	for b.Loop() {
		e := *h.Top()
		e.t += rng.Int64N(1 << 10)
		h.Replace(e)
	}
}
