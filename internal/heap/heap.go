// Package heap is a binary min-heap for the event and submission queues of
// the simulator, the feedback sources and the replay scheduler. Their
// elements are ordered by a small key (a time, then tie-breakers) compared
// field by field; keeping the key a concrete type lets the compiler inline
// every comparison, which a comparison method on a type parameter would
// turn into an indirect call (measurably slower in the simulator's event
// loop).
package heap

// Key orders the elements: by T, then A, then B.
type Key struct {
	T, A, B int64
}

// Less reports whether k orders before o.
func (k Key) Less(o Key) bool {
	if k.T != o.T {
		return k.T < o.T
	}
	if k.A != o.A {
		return k.A < o.A
	}
	return k.B < o.B
}

// Item is an element of a heap: a key and a value that rides along.
type Item[V any] struct {
	Key
	Val V
}

// Heap is a binary min-heap of items by key. Items with equal keys leave
// in an unspecified (but deterministic) order. The zero value is an empty
// heap.
type Heap[V any] struct {
	s []Item[V]
}

// Len returns the number of items.
func (h *Heap[V]) Len() int { return len(h.s) }

// Top returns the item with the least key without removing it; the heap
// must not be empty. The pointer is valid until the next change of the
// heap.
func (h *Heap[V]) Top() *Item[V] { return &h.s[0] }

// Push adds v with key k.
func (h *Heap[V]) Push(k Key, v V) {
	h.s = append(h.s, Item[V]{})
	s := h.s
	i := len(s) - 1
	// Move parents down into the hole until k's place is found, then
	// write the new item once.
	for i > 0 {
		p := (i - 1) / 2
		if !k.Less(s[p].Key) {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = Item[V]{k, v}
}

// Pop removes and returns the item with the least key; the heap must not
// be empty.
func (h *Heap[V]) Pop() Item[V] {
	s := h.s
	e := s[0]
	n := len(s) - 1
	s[0] = s[n]
	h.s = s[:n]
	h.down()
	return e
}

// Replace removes and returns the item with the least key and adds v with
// key k in one pass: Pop followed by Push at the cost of one of them. The
// heap must not be empty.
func (h *Heap[V]) Replace(k Key, v V) Item[V] {
	top := h.s[0]
	h.s[0] = Item[V]{k, v}
	h.down()
	return top
}

// down moves the first item down to its place, moving the smaller child up
// into the hole at each level and writing the item once at the end.
func (h *Heap[V]) down() {
	s := h.s
	n := len(s)
	if n == 0 {
		return
	}
	x := s[0]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && s[r].Less(s[l].Key) {
			m = r
		}
		if !s[m].Less(x.Key) {
			break
		}
		s[i] = s[m]
		i = m
	}
	s[i] = x
}
