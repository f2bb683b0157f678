package feedback

import (
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
)

// madonSource is Madon's think-time replay in its event-driven form (spec
// madon section 5.4): a session becomes free when its last predecessor
// finishes and starts at max over its edges of (predecessor end + think
// time), or per the LastFinisher rule; its jobs arrive at the session start
// plus their recorded offsets, never shifted inside the session.
type madonSource struct {
	*core
	g          *session.Graph
	p          *session.Partition
	rule       StartRule
	remaining  []int32    // unfinished predecessors per session
	unfinished []int32    // unfinished jobs per session
	start      []sim.Time // candidate, then actual, start per session
	finish     []sim.Time // simulated finish per session, -1 before
}

func newMadon(c *core, g *session.Graph, rule StartRule) *madonSource {
	p := g.P
	n := len(p.Sessions)
	m := &madonSource{core: c, g: g, p: p, rule: rule,
		remaining: make([]int32, n), unfinished: make([]int32, n),
		start: make([]sim.Time, n), finish: make([]sim.Time, n)}
	c.own = m
	for s := 0; s < n; s++ {
		m.unfinished[s] = int32(p.Sessions[s].NumJobs())
		m.finish[s] = -1
		for _, e := range g.Preds(s) {
			if e.From == session.Root {
				// The root finished at time 0.
				m.start[s] = max(m.start[s], sim.Time(e.Think))
			} else {
				m.remaining[s]++
			}
		}
	}
	for s := 0; s < n; s++ {
		if m.remaining[s] == 0 {
			m.startSession(s)
		}
	}
	return m
}

// startSession submits the jobs of free session s at its start plus their
// recorded offsets.
func (m *madonSource) startSession(s int) {
	ss := &m.p.Sessions[s]
	m.submitGroup(ss.Lo, ss.Hi, m.start[s])
}

func (m *madonSource) arrived(int32, sim.Time) {}

func (m *madonSource) ended(ix int32, now sim.Time) {
	s := m.p.SessionOf[ix]
	m.unfinished[s]--
	if m.unfinished[s] > 0 {
		return
	}
	m.finish[s] = now
	for _, d := range m.g.Succs(int(s)) {
		var tt int64
		for _, e := range m.g.Preds(int(d)) {
			if e.From == s {
				tt = e.Think
				break
			}
		}
		c := now + sim.Time(tt)
		if m.rule == LastFinisher {
			m.start[d] = c // the last predecessor to finish sets it
		} else {
			m.start[d] = max(m.start[d], c)
		}
		m.remaining[d]--
		if m.remaining[d] == 0 {
			m.startSession(int(d))
		}
	}
}
