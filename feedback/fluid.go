package feedback

import (
	"math/rand/v2"

	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

const week = 7 * 86400

// fluid is Zakay's Fluid model (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 4, section VII): each user keeps
// the windows of the recorded sessions (first to last arrival). A batch
// released inside a window arrives after a drawn intra-session TT (for a
// Dependency release) or IAT (Follows); outside, it waits for the start of
// the next window. V1 recycles the windows from the week after the last one
// when they run out; V2 also moves arrivals that would fall past the
// window's end to the next window, and reinserts a window in which no batch
// arrived one week later.
type fluid struct {
	v     FluidVariant
	per   []pools
	all   pools
	rng   []*rand.Rand
	win   [][]window // per user, pending windows sorted by start
	orig  [][]window // per user, the recorded windows
	cycle []int64    // per user, the recycling shift
	shift []int64    // per user, the current total recycling shift
	clock *trace.Clock
}

type window struct {
	start, end int64
	used       bool
}

func newFluid(z *zakaySource, d *batchDelays, clock *trace.Clock, v FluidVariant, seed uint64) *fluid {
	p := z.p
	per, all := userPools(z.g, d)
	m := &fluid{v: v, per: per, all: all, rng: userRNGs(len(p.Users), seed), clock: clock,
		win: make([][]window, len(p.Users)), orig: make([][]window, len(p.Users)),
		cycle: make([]int64, len(p.Users)), shift: make([]int64, len(p.Users))}
	for ui := range p.Users {
		u := &p.Users[ui]
		if u.SessionLo == u.SessionHi {
			continue
		}
		ws := make([]window, 0, u.SessionHi-u.SessionLo)
		for s := u.SessionLo; s < u.SessionHi; s++ {
			ws = append(ws, window{start: p.Sessions[s].First, end: p.Sessions[s].Last})
		}
		m.orig[ui] = ws
		m.win[ui] = append([]window(nil), ws...)
		first, last := ws[0].start, ws[len(ws)-1].end
		m.cycle[ui] = int64(clock.Week(last)+1-clock.Week(first)) * week
	}
	return m
}

// current drops the windows of user u that ended before t (V2 reinserts
// the unused ones a week later), refills them when they run out, and
// returns the index of the first window that has not ended.
func (m *fluid) current(u int, t int64) int {
	for {
		ws := m.win[u]
		i := 0
		for i < len(ws) && ws[i].end < t {
			if m.v == FluidV2 && !ws[i].used {
				w := ws[i]
				w.start += week
				w.end += week
				ws = insertWindow(ws, w)
			}
			i++
		}
		ws = ws[i:]
		m.win[u] = ws
		if len(ws) > 0 {
			return 0
		}
		m.shift[u] += m.cycle[u]
		for _, w := range m.orig[u] {
			ws = append(ws, window{start: w.start + m.shift[u], end: w.end + m.shift[u]})
		}
		m.win[u] = ws
	}
}

func insertWindow(ws []window, w window) []window {
	i := len(ws)
	for i > 0 && ws[i-1].start > w.start {
		i--
	}
	ws = append(ws, window{})
	copy(ws[i+1:], ws[i:])
	ws[i] = w
	return ws
}

func (m *fluid) arrival(z *zakaySource, b int32, r Reason, now sim.Time) sim.Time {
	u := int(z.userOf(b))
	k := m.current(u, int64(now))
	ws := m.win[u]
	w := &ws[k]
	if w.start > int64(now) {
		w.used = true
		return sim.Time(w.start)
	}
	pu := &m.per[u]
	var delay int64
	if r == Dependency {
		delay = draw(m.rng[u], pu.intraTT, m.all.intraTT, 0)
	} else {
		delay = draw(m.rng[u], pu.intraIAT, m.all.intraIAT, 0)
	}
	t := int64(now) + max(delay, 0)
	if m.v == FluidV2 && t > w.end {
		w.used = true // the user was active in it
		if k+1 < len(ws) {
			ws[k+1].used = true
			return sim.Time(ws[k+1].start)
		}
		m.current(u, w.end+1)
		nw := &m.win[u][0]
		nw.used = true
		return sim.Time(max(nw.start, int64(now)))
	}
	w.used = true
	return sim.Time(t)
}
