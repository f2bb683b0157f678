package heap

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

func cmpItem(a, b Item[int32]) int {
	switch {
	case a.Less(b.Key):
		return -1
	case b.Less(a.Key):
		return 1
	}
	return cmp.Compare(a.Val, b.Val)
}

// TestAgainstSort pushes, pops and replaces random items with distinct
// keys and checks that every item leaves in key order.
func TestAgainstSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 50; round++ {
		var h Heap[int32]
		var ref []Item[int32]
		id := int64(0)
		next := func() Item[int32] {
			id++
			return Item[int32]{Key{T: rng.Int64N(30), A: rng.Int64N(3), B: id}, int32(id)}
		}
		for op := 0; op < 2000; op++ {
			switch k := rng.IntN(3); {
			case k == 0 || h.Len() == 0:
				e := next()
				h.Push(e.Key, e.Val)
				ref = append(ref, e)
			case k == 1:
				slices.SortFunc(ref, cmpItem)
				if got := h.Pop(); got != ref[0] {
					t.Fatalf("round %d op %d: Pop = %v, want %v", round, op, got, ref[0])
				}
				ref = ref[1:]
			default:
				slices.SortFunc(ref, cmpItem)
				e := next()
				if got := h.Replace(e.Key, e.Val); got != ref[0] {
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

func TestKeyLess(t *testing.T) {
	ks := []Key{{1, 0, 0}, {1, 0, 1}, {1, 1, -5}, {2, -1, -1}}
	for i := range ks {
		for j := range ks {
			if got := ks[i].Less(ks[j]); got != (i < j) {
				t.Errorf("%v.Less(%v) = %v", ks[i], ks[j], got)
			}
		}
	}
}

func BenchmarkReplace(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	var h Heap[int32]
	for i := range 512 {
		h.Push(Key{T: rng.Int64N(1 << 20), A: int64(i)}, int32(i))
	}
	for b.Loop() {
		e := *h.Top()
		e.T += rng.Int64N(1 << 10)
		h.Replace(e.Key, e.Val)
	}
}
