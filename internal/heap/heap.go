// Package heap is a binary min-heap over a slice for the event and
// submission queues of the simulator, the feedback sources and the replay
// scheduler. Elements order themselves: the queues' keys are small structs
// compared field by field (time, then a tie-breaker), which a method on the
// element type expresses without an indirect call per comparison.
package heap

// Ordered is an element type with a strict weak order: a.Before(b)
// reports that a leaves the heap before b. Elements that are not ordered
// either way leave in an unspecified order, so queues that must be
// deterministic make the order total (a unique tie-breaker).
type Ordered[T any] interface {
	Before(T) bool
}

// Heap is a binary min-heap. The zero value is an empty heap.
type Heap[T Ordered[T]] struct {
	s []T
}

// Len returns the number of elements.
func (h *Heap[T]) Len() int { return len(h.s) }

// Top returns the least element without removing it; the heap must not
// be empty. The pointer is valid until the next change of the heap.
func (h *Heap[T]) Top() *T { return &h.s[0] }

// Grow makes room for n more elements without reallocating.
func (h *Heap[T]) Grow(n int) {
	if n > cap(h.s)-len(h.s) {
		s := make([]T, len(h.s), len(h.s)+n)
		copy(s, h.s)
		h.s = s
	}
}

// Push adds e.
func (h *Heap[T]) Push(e T) {
	h.s = append(h.s, e)
	s := h.s
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].Before(s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

// Pop removes and returns the least element; the heap must not be empty.
func (h *Heap[T]) Pop() T {
	s := h.s
	e := s[0]
	n := len(s) - 1
	s[0] = s[n]
	h.s = s[:n]
	h.down()
	return e
}

// Replace removes and returns the least element and adds e in one pass:
// Pop followed by Push, at the cost of one of them. The heap must not be
// empty.
func (h *Heap[T]) Replace(e T) T {
	top := h.s[0]
	h.s[0] = e
	h.down()
	return top
}

// down moves the first element down to its place.
func (h *Heap[T]) down() {
	s := h.s
	n := len(s)
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && s[r].Before(s[l]) {
			m = r
		}
		if !s[m].Before(s[i]) {
			return
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
}
