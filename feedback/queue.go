package feedback

import (
	"fmt"
	"math/bits"
)

// submissions is the queue of a source's pending submissions: the next job
// of each started group, ordered by (time, position in the partition's
// order). Positions are unique, so the order is total.
//
// It is a binary min-heap, as internal/heap is, but specialised: a
// submission's key is one unsigned integer, (time - origin) in the high
// bits and the position in the low ones, so comparing two keys is one
// integer comparison, and two sentinel items (the largest key) after the
// last item let a node's children be compared without checking that the
// second exists. The compiler then picks the smaller child with a
// conditional move instead of a branch that mispredicts about half the
// time; on KTH-SP2 this takes about a quarter off the queue's cost
// (docs/performance.md).
type submissions struct {
	items   []submission // the heap, then two sentinels
	n       int          // number of items
	origin  int64        // earliest time the queue can hold
	posBits uint         // bits of a key given to the position
	// limit is the exclusive upper bound of time - origin; overflow
	// reports that a later time was pushed (and clamped).
	limit    int64
	overflow bool
}

// submission is one pending submission: the job at a position of the
// partition's order, of group g.
type submission struct {
	key uint64
	g   int32
}

// sentinel is the key of the items after the last.
const sentinel = ^uint64(0)

// newSubmissions returns an empty queue for times from origin on and
// positions in [0, n).
func newSubmissions(origin int64, n int) submissions {
	pb := uint(bits.Len32(uint32(max(n, 1))))
	return submissions{items: []submission{{key: sentinel}, {key: sentinel}}, origin: origin, posBits: pb,
		limit: int64(1) << (63 - pb)} // keys stay below the sentinel
}

// key returns the key of the submission at position pos at time t.
func (q *submissions) key(t int64, pos int32) uint64 {
	d := t - q.origin
	if d < 0 || d >= q.limit {
		q.overflow = true
		d = min(max(d, 0), q.limit-1)
	}
	return uint64(d)<<q.posBits | uint64(pos)
}

// err reports a time outside the queue's range, which never happens with
// times of a log (it would take 2^(63-b) seconds past the first submission,
// b the bits of the job count: for a million jobs, about 280,000 years).
func (q *submissions) err() error {
	if q.overflow {
		return fmt.Errorf("feedback: a simulated submit time falls outside [%d, %d)", q.origin, q.origin+q.limit)
	}
	return nil
}

// Len returns the number of pending submissions.
func (q *submissions) Len() int { return q.n }

// next returns the time, position and group of the least submission; the
// queue must not be empty.
func (q *submissions) next() (t int64, pos, g int32) {
	s := &q.items[0]
	return int64(s.key>>q.posBits) + q.origin, int32(s.key & (1<<q.posBits - 1)), s.g
}

// nextTime returns the time of the least submission; the queue must not be
// empty.
func (q *submissions) nextTime() int64 { return int64(q.items[0].key>>q.posBits) + q.origin }

// push adds the submission of group g's job at position pos at time t.
func (q *submissions) push(t int64, pos, g int32) {
	k := q.key(t, pos)
	q.items = append(q.items, submission{key: sentinel})
	s := q.items
	i := q.n
	q.n++
	for i > 0 {
		p := (i - 1) / 2
		if k >= s[p].key {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = submission{key: k, g: g}
}

// pop removes the least submission; the queue must not be empty.
func (q *submissions) pop() {
	q.n--
	s := q.items
	s[0] = s[q.n]
	s[q.n].key = sentinel
	q.items = s[:q.n+2]
	q.down()
}

// replace removes the least submission and adds group g's job at position
// pos at time t, for the cost of one of the two.
func (q *submissions) replace(t int64, pos, g int32) {
	q.items[0] = submission{key: q.key(t, pos), g: g}
	q.down()
}

// down moves the first item to its place, moving the smaller child up into
// the hole at each level.
func (q *submissions) down() {
	s := q.items
	n := q.n
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
		// s[l+1] exists: an item or a sentinel.
		m, km := l, s[l].key
		if kr := s[l+1].key; kr < km {
			m, km = l+1, kr
		}
		if km >= x.key {
			break
		}
		s[i] = s[m]
		i = m
	}
	s[i] = x
}
