package feedback

import (
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
)

// madonSource is Madon's think-time replay in an event-driven form of our own
// that keeps Algorithm 1 of M. Madon, G. Da Costa and J.-M. Pierson, "Replay
// with feedback", Future Generation Computer Systems, 2024, section 4: a
// session becomes free when its last predecessor finishes and starts at max
// over its edges of (predecessor end + think time), or per the LastFinisher
// rule; its jobs arrive at the session start plus their recorded offsets,
// never shifted inside the session.
type madonSource struct {
	*core
	g     *session.Graph
	rule  StartRule
	state []madonSession
}

// madonSession is the replay state of one session, kept together so that
// an end touches one place.
type madonSession struct {
	start      sim.Time // candidate, then actual, start
	remaining  int32    // unfinished predecessors
	unfinished int32    // unfinished jobs
}

func newMadon(c *core, g *session.Graph, rule StartRule) *madonSource {
	p := g.P
	n := len(p.Sessions)
	m := &madonSource{core: c, g: g, rule: rule, state: make([]madonSession, n)}
	c.m, c.bounds = m, make([]int32, n+1)
	for s := 0; s < n; s++ {
		ss := &p.Sessions[s]
		st := &m.state[s]
		st.unfinished = int32(ss.NumJobs())
		c.bounds[s], c.bounds[s+1] = ss.Lo, ss.Hi
		for _, e := range g.Preds(s) {
			if e.From == session.Root {
				// The root finished at time 0.
				st.start = max(st.start, sim.Time(e.Think))
			} else {
				st.remaining++
			}
		}
	}
	for s := 0; s < n; s++ {
		if m.state[s].remaining == 0 {
			m.startSession(int32(s))
		}
	}
	return m
}

// startSession submits the jobs of free session s at its start plus their
// recorded offsets.
func (m *madonSource) startSession(s int32) {
	m.submitGroup(s, m.state[s].start)
}

func (m *madonSource) ended(s, _ int32, now sim.Time) {
	m.state[s].unfinished--
	if m.state[s].unfinished > 0 {
		return
	}
	thinks := m.g.SuccThinks(int(s))
	for i, d := range m.g.Succs(int(s)) {
		c := now + sim.Time(thinks[i])
		st := &m.state[d]
		if m.rule == LastFinisher {
			st.start = c // the last predecessor to finish sets it
		} else {
			st.start = max(st.start, c)
		}
		st.remaining--
		if st.remaining == 0 {
			m.startSession(d)
		}
	}
}
