package feedback

import (
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
)

// Reason says why a batch was released (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 4).
type Reason uint8

// The release reasons.
const (
	// Initial: the user's first batch, released at its recorded time.
	Initial Reason = iota
	// Follows: its dependencies had ended; it became next when the
	// previous batch fully arrived. The natural delay is an inter-arrival
	// time.
	Follows
	// Dependency: it was next and its last dependency just ended. The
	// natural delay is a think time.
	Dependency
)

// userModel picks the arrival time of a released batch; it must return a
// time >= now.
type userModel interface {
	arrival(z *zakaySource, b int32, r Reason, now sim.Time) sim.Time
}

// zakaySource is Zakay's batch feedback with the next-batch mechanism (spec
// zakay section 11.5): batches of a user are released one at a time in
// recorded order; a batch is released when it is next (the previous batch
// fully arrived) and every batch it depends on has ended. Batches are the
// core's groups.
type zakaySource struct {
	*core
	g     *session.Graph
	p     *session.Partition
	model userModel
	// batch holds the replay state of each batch, kept together so that
	// an arrival or end touches one place.
	batch []zakayBatch
	succs []int32 // successor lists of the batches that need one
	next  []int32 // next batch per user
	end   []int32 // end of each user's batch range
	// noUser reports per user that it stands for the jobs without a user
	// ID, whose batches keep their recorded times.
	noUser []bool
	// lastEnd holds per user the trace index of the job that ended last,
	// -1 before.
	lastEnd []int32
	trigger int32 // job whose end released the current batch, -1
	// releases counts batches by release reason.
	releases [3]int
}

// zakayBatch is the replay state of one batch (40 bytes).
type zakayBatch struct {
	depsDone sim.Time // when the last dependency ended, -1 before
	// think is the recorded think time (Graph.Think), read when the batch
	// is released by a dependency: here it is in the record the
	// dependency's end has just touched.
	think int64
	user  int32 // index of its user
	// pending counts the unfinished dependencies; it is -1 once the
	// batch is released (which needs them all finished).
	pending  int32
	toArrive int32 // jobs yet to arrive
	toEnd    int32 // jobs yet to end
	// The batches that depend on this one are succs[succLo:succLo+succN],
	// or, when succN is -1, the next batch alone (the common case of a
	// batch followed by another in its session).
	succLo, succN int32
}

func newZakay(c *core, g *session.Graph, model userModel) *zakaySource {
	p := g.P
	nb := len(p.Batches)
	z := &zakaySource{core: c, g: g, p: p, model: model, batch: make([]zakayBatch, nb),
		next: make([]int32, len(p.Users)), end: make([]int32, len(p.Users)), lastEnd: make([]int32, len(p.Users)), noUser: make([]bool, len(p.Users)),
		trigger: -1}
	c.z, c.bounds = z, make([]int32, nb+1)
	return z
}

// start releases every user's first batch at its recorded time (and every
// batch of jobs without a user).
func (z *zakaySource) start() {
	p := z.p
	for b := range len(p.Batches) {
		bt := &p.Batches[b]
		u := p.Sessions[bt.Session].User
		n := bt.Hi - bt.Lo
		z.bounds[b], z.bounds[b+1] = bt.Lo, bt.Hi
		think, _ := z.g.Think(b)
		st := zakayBatch{depsDone: -1, think: think, user: u, pending: int32(len(z.g.Preds(b))), toArrive: n, toEnd: n, succN: -1}
		if ss := z.g.Succs(b); len(ss) != 1 || ss[0] != int32(b+1) {
			st.succLo, st.succN = int32(len(z.succs)), int32(len(ss))
			z.succs = append(z.succs, ss...)
		}
		z.batch[b] = st
	}
	for ui := range p.Users {
		u := &p.Users[ui]
		z.lastEnd[ui] = -1
		z.noUser[ui] = u.ID < 0
		if u.SessionLo == u.SessionHi {
			continue
		}
		lo, hi := p.Sessions[u.SessionLo].BatchLo, p.Sessions[u.SessionHi-1].BatchHi
		z.next[ui], z.end[ui] = lo, hi
		if u.ID < 0 {
			// Jobs without a user keep their recorded times.
			for b := lo; b < hi; b++ {
				z.release(b, Initial, 0)
			}
			continue
		}
		z.release(lo, Initial, 0)
	}
}

// userOf returns the index of batch b's user.
func (z *zakaySource) userOf(b int32) int32 { return z.batch[b].user }

// release picks batch b's arrival and submits its jobs at their recorded
// offsets from it.
func (z *zakaySource) release(b int32, r Reason, now sim.Time) {
	z.batch[b].pending = -1
	z.releases[r]++
	var t sim.Time
	if r == Initial {
		t = sim.Time(z.arr[z.bounds[b]]) // the recorded first arrival
	} else {
		t = max(z.model.arrival(z, b, r, now), now)
	}
	z.submitGroup(b, t)
}

func (z *zakaySource) arrived(b, _ int32, now sim.Time) {
	bt := &z.batch[b]
	bt.toArrive--
	if bt.toArrive > 0 {
		return
	}
	u := bt.user
	if z.noUser[u] || z.next[u] != b {
		return
	}
	nb := b + 1
	z.next[u] = nb
	if nb >= z.end[u] {
		return
	}
	n := &z.batch[nb]
	if n.pending != 0 { // released, or waiting for dependencies
		return
	}
	r := Follows
	if n.depsDone == now {
		r = Dependency // tie: the dependency ended at the previous batch's last arrival
	}
	z.trigger = z.lastEnd[u]
	z.release(nb, r, now)
}

func (z *zakaySource) ended(b, ix int32, now sim.Time) {
	bt := &z.batch[b]
	u := bt.user
	z.lastEnd[u] = ix
	bt.toEnd--
	if bt.toEnd > 0 {
		return
	}
	if bt.succN < 0 {
		z.depEnded(b+1, u, ix, now)
		return
	}
	for _, d := range z.succs[bt.succLo : bt.succLo+bt.succN] {
		z.depEnded(d, u, ix, now)
	}
}

// depEnded records that a dependency of batch d (of user u) ended at now,
// job ix being the last of it to end, and releases d if that was its last
// dependency and d is the user's next batch.
func (z *zakaySource) depEnded(d, u, ix int32, now sim.Time) {
	dt := &z.batch[d]
	dt.pending--
	if dt.pending > 0 {
		return
	}
	dt.depsDone = now
	if d == z.next[u] && z.batch[d-1].toArrive == 0 { // not released: it had a pending dependency
		z.trigger = ix
		z.release(d, Dependency, now)
	}
}
