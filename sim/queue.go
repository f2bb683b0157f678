package sim

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

func (a *event) before(b *event) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	if a.id != b.id {
		return a.id < b.id
	}
	return a.ref < b.ref
}

// eventQueue is a binary min-heap of events ordered by (time, kind, job ID).
type eventQueue struct {
	h []event
}

func (q *eventQueue) len() int { return len(q.h) }

func (q *eventQueue) top() *event { return &q.h[0] }

func (q *eventQueue) push(e event) {
	q.h = append(q.h, e)
	h := q.h
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h[i].before(&h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *eventQueue) pop() event {
	h := q.h
	e := h[0]
	n := len(h) - 1
	h[0] = h[n]
	q.h = h[:n]
	h = q.h
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h[r].before(&h[l]) {
			m = r
		}
		if !h[m].before(&h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return e
}
