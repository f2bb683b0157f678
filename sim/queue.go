package sim

import "github.com/hpcwl/hpcwl/internal/heap"

// eventKind orders simultaneous events: terminations, then deadline misses,
// then scheduler wake-ups. Arrivals come from the JobSource between misses
// and wake-ups.
type eventKind uint8

const (
	evEnd eventKind = iota
	evMiss
	evWake
)

// event is an entry of the event queue.
type event struct {
	t    Time
	id   int64 // job ID: ties within a kind
	ref  Ref
	kind eventKind
}

// eventQueue is a binary min-heap of events ordered by (time, kind, job
// ID). Events equal in all three are the same event (a job's ID and ref go
// together; wake-ups carry neither).
type eventQueue struct{ h heap.Heap[int32] }

func (q *eventQueue) len() int { return q.h.Len() }

// top returns the next event's time and kind.
func (q *eventQueue) top() eventHead {
	k := &q.h.Top().Key
	return eventHead{t: Time(k.T), kind: eventKind(k.A)}
}

// eventHead is the time and kind of an event.
type eventHead struct {
	t    Time
	kind eventKind
}

func (q *eventQueue) push(e event) {
	q.h.Push(heap.Key{T: int64(e.t), A: int64(e.kind), B: e.id}, int32(e.ref))
}

func (q *eventQueue) pop() event {
	it := q.h.Pop()
	return event{t: Time(it.T), kind: eventKind(it.A), id: it.B, ref: Ref(it.Val)}
}
