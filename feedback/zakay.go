package feedback

import (
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
)

// Reason says why a batch was released (spec zakay section 11.6).
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
// fully arrived) and every batch it depends on has ended.
type zakaySource struct {
	*core
	g     *session.Graph
	p     *session.Partition
	model userModel
	// batch holds the replay state of each batch, kept together so that
	// an arrival or end touches one place.
	batch  []zakayBatch
	userOf []int32 // user index per batch
	next   []int32 // next batch per user
	// lastEnd holds per user the trace index of the job that ended last,
	// -1 before.
	lastEnd []int32
	trigger int32 // job whose end released the current batch, -1
	// releases counts batches by release reason.
	releases [3]int
}

// zakayBatch is the replay state of one batch.
type zakayBatch struct {
	depsDone sim.Time // when the last dependency ended, -1 before
	lo, hi   int32    // its range of the partition's order
	pending  int32    // unfinished dependencies
	arrived  int32    // arrived jobs
	ended    int32    // ended jobs
	released bool
}

func newZakay(c *core, g *session.Graph, model userModel) *zakaySource {
	p := g.P
	nb := len(p.Batches)
	z := &zakaySource{core: c, g: g, p: p, model: model, batch: make([]zakayBatch, nb),
		userOf: make([]int32, nb), next: make([]int32, len(p.Users)), lastEnd: make([]int32, len(p.Users)), trigger: -1}
	c.own, c.arrivals = z, true
	return z
}

// start releases every user's first batch at its recorded time (and every
// batch of jobs without a user).
func (z *zakaySource) start() {
	p := z.p
	for b := range len(p.Batches) {
		bt := &p.Batches[b]
		z.userOf[b] = p.Sessions[bt.Session].User
		z.batch[b] = zakayBatch{depsDone: -1, lo: bt.Lo, hi: bt.Hi, pending: int32(len(z.g.Preds(b)))}
	}
	for ui := range p.Users {
		u := &p.Users[ui]
		z.lastEnd[ui] = -1
		if u.SessionLo == u.SessionHi {
			continue
		}
		lo, hi := p.Sessions[u.SessionLo].BatchLo, p.Sessions[u.SessionHi-1].BatchHi
		z.next[ui] = lo
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

// release picks batch b's arrival and submits its jobs at their recorded
// offsets from it.
func (z *zakaySource) release(b int32, r Reason, now sim.Time) {
	bt := &z.batch[b]
	bt.released = true
	z.releases[r]++
	t := sim.Time(z.arr[bt.lo]) // the recorded first arrival
	if r != Initial {
		t = max(z.model.arrival(z, b, r, now), now)
	}
	z.submitGroup(bt.lo, bt.hi, t)
}

// userEnd returns the batch range end of user u.
func (z *zakaySource) userEnd(u int32) int32 {
	us := &z.p.Users[u]
	return z.p.Sessions[us.SessionHi-1].BatchHi
}

func (z *zakaySource) arrived(ix int32, now sim.Time) {
	b := z.p.BatchOf[ix]
	bt := &z.batch[b]
	bt.arrived++
	if bt.arrived < bt.hi-bt.lo {
		return
	}
	u := z.userOf[b]
	if z.p.Users[u].ID < 0 || z.next[u] != b {
		return
	}
	nb := b + 1
	z.next[u] = nb
	if nb >= z.userEnd(u) {
		return
	}
	if n := &z.batch[nb]; n.released || n.pending > 0 {
		return
	}
	r := Follows
	if z.batch[nb].depsDone == now {
		r = Dependency // tie: the dependency ended at the previous batch's last arrival
	}
	z.trigger = z.lastEnd[u]
	z.release(nb, r, now)
}

func (z *zakaySource) ended(ix int32, now sim.Time) {
	b := z.p.BatchOf[ix]
	u := z.userOf[b]
	z.lastEnd[u] = ix
	bt := &z.batch[b]
	bt.ended++
	if bt.ended < bt.hi-bt.lo {
		return
	}
	for _, d := range z.g.Succs(int(b)) {
		dt := &z.batch[d]
		dt.pending--
		if dt.pending > 0 {
			continue
		}
		dt.depsDone = now
		if d == z.next[u] && !dt.released {
			if pr := &z.batch[d-1]; pr.arrived == pr.hi-pr.lo {
				z.trigger = ix
				z.release(d, Dependency, now)
			}
		}
	}
}
