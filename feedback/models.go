package feedback

import (
	"math/rand/v2"
	"time"

	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// batchDelays are the recorded think time (TT) and inter-arrival time (IAT)
// of every batch (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 4): TT is the first arrival minus
// the latest end of its dependencies, IAT the first arrival minus the last
// arrival of the previous batch of the user.
type batchDelays struct {
	tt, iat []int64
	hasTT   []bool
}

func newBatchDelays(g *session.Graph) *batchDelays {
	n := len(g.P.Batches)
	d := &batchDelays{tt: make([]int64, n), iat: make([]int64, n), hasTT: make([]bool, n)}
	for b := range n {
		d.tt[b], d.hasTT[b] = g.Think(b)
		d.iat[b] = batchIAT(g.P, b)
	}
	return d
}

// batchIAT returns the recorded inter-arrival time of batch b: its first
// arrival minus the last arrival of the user's previous batch, 0 for a
// user's first batch.
func batchIAT(p *session.Partition, b int) int64 {
	if b > 0 && p.Sessions[p.Batches[b-1].Session].User == p.Sessions[p.Batches[b].Session].User {
		return p.Batches[b].First - p.Batches[b-1].Last
	}
	return 0
}

// adjusted is Zakay's Adjusted model (section 12.1): now + the recorded TT
// for a Dependency release, now + the recorded IAT for a Follows release.
// It reads the TT from the batch's replay state and computes the IAT from
// the source's recorded submit times, where the user's previous batch ends
// just before b begins (the same value as batchIAT).
type adjusted struct{}

func (adjusted) arrival(z *zakaySource, b int32, r Reason, now sim.Time) sim.Time {
	if r == Dependency {
		// Only a batch with dependencies is released by one: its think
		// time is Graph.Think's.
		return now + sim.Time(max(z.batch[b].think, 0))
	}
	var iat int64
	if b > 0 && z.batch[b-1].user == z.batch[b].user {
		lo := z.bounds[b]
		iat = z.arr[lo] - z.arr[lo-1]
	}
	return now + sim.Time(max(iat, 0))
}

// pools are a user's empirical delay distributions (Zakay's thesis, chapter
// 4): intra-session TT and IAT, inter-session TT and IAT.
type pools struct {
	intraTT, intraIAT, interTT, interIAT []int64
}

// userPools gathers each user's pools and the log-wide pooled ones.
func userPools(g *session.Graph, d *batchDelays) (per []pools, all pools) {
	p := g.P
	per = make([]pools, len(p.Users))
	for ui := range p.Users {
		u := &p.Users[ui]
		if u.ID < 0 {
			continue
		}
		pu := &per[ui]
		for s := u.SessionLo; s < u.SessionHi; s++ {
			ss := &p.Sessions[s]
			for b := ss.BatchLo; b < ss.BatchHi; b++ {
				first := b == ss.BatchLo
				switch {
				case !first:
					if d.hasTT[b] {
						pu.intraTT = append(pu.intraTT, d.tt[b])
					}
					pu.intraIAT = append(pu.intraIAT, d.iat[b])
				case s > u.SessionLo:
					if d.hasTT[b] {
						pu.interTT = append(pu.interTT, d.tt[b])
					}
					pu.interIAT = append(pu.interIAT, d.iat[b])
				}
			}
		}
		all.intraTT = append(all.intraTT, pu.intraTT...)
		all.intraIAT = append(all.intraIAT, pu.intraIAT...)
		all.interTT = append(all.interTT, pu.interTT...)
		all.interIAT = append(all.interIAT, pu.interIAT...)
	}
	return per, all
}

// draw samples uniformly from xs, else from fallback, else returns def
// (our choice where the thesis leaves it open).
func draw(rng *rand.Rand, xs, fallback []int64, def int64) int64 {
	if len(xs) == 0 {
		xs = fallback
	}
	if len(xs) == 0 {
		return def
	}
	return xs[rng.IntN(len(xs))]
}

func below(xs []int64, lim int64) []int64 {
	var out []int64
	for _, x := range xs {
		if x < lim {
			out = append(out, x)
		}
	}
	return out
}

// userRNGs returns one generator per user: PCG(seed, user index).
func userRNGs(n int, seed uint64) []*rand.Rand {
	r := make([]*rand.Rand, n)
	for i := range r {
		r[i] = rand.New(rand.NewPCG(seed, uint64(i)))
	}
	return r
}

// distribution is Zakay's distribution-based model (section 12.2, after
// Shmueli and Feitelson): every user is a day (0.7) or night (0.3) worker,
// active 07:30+R..17:30+R or 17:30+R..07:30+R with R ~ U[-1 h, 1 h], on
// weekdays (0.8) or weekends (0.2). A batch released outside the user's
// activity waits for its next start; inside, the user continues the session
// with probability 0.8/(0.05 r + 1), r the response time in minutes of the
// job that triggered the release, drawing an intra-session TT or IAT, or
// takes a break drawn from the inter-session ones below 8 h.
type distribution struct {
	d        *batchDelays
	per      []pools
	all      pools
	rng      []*rand.Rand
	clock    *trace.Clock
	night    []bool
	weekend  []bool
	shift    []int64 // R, seconds
	tr       *trace.Trace
	respTime func(ix int32) sim.Time
}

func newDistribution(z *zakaySource, d *batchDelays, clock *trace.Clock, seed uint64) *distribution {
	p := z.p
	per, all := userPools(z.g, d)
	m := &distribution{d: d, per: per, all: all, rng: userRNGs(len(p.Users), seed), clock: clock,
		night: make([]bool, len(p.Users)), weekend: make([]bool, len(p.Users)), shift: make([]int64, len(p.Users)), tr: p.Trace}
	m.drawWorkers()
	m.respTime = func(ix int32) sim.Time { return z.ends[ix] - z.submitted[ix] }
	return m
}

// drawWorkers draws every user's kind from the user's generator: night
// worker with probability 0.3, shift R uniform in whole seconds from -1 h to
// 1 h, weekend worker with probability 0.2.
func (m *distribution) drawWorkers() {
	for u, r := range m.rng {
		m.night[u] = r.Float64() >= 0.7
		m.shift[u] = int64(r.IntN(7201)) - 3600
		m.weekend[u] = r.Float64() >= 0.8
	}
}

// continuation returns the probability that a user continues the session
// after a job of response time resp, 0.8/(0.05 r + 1) with r in minutes
// (Zakay's thesis, section 12.2, after Shmueli and Feitelson); 0.8 without
// a job.
func continuation(resp sim.Time) float64 { return 0.8 / (0.05*(float64(resp)/60) + 1) }

// window returns the activity window of user u that starts on the local
// day of t shifted by k days.
func (m *distribution) window(u int, t sim.Time, k int) (start, end sim.Time, ok bool) {
	lt := m.clock.Time(int64(t))
	day := time.Date(lt.Year(), lt.Month(), lt.Day()+k, 0, 0, 0, 0, m.clock.Loc)
	wd := (int(day.Weekday()) + 6) % 7
	if (wd >= 5) != m.weekend[u] {
		return 0, 0, false
	}
	from, length := int64(7*3600+1800), int64(10*3600)
	if m.night[u] {
		from, length = 17*3600+1800, 14*3600
	}
	s := day.Unix() - m.clock.Start + from + m.shift[u]
	return sim.Time(s), sim.Time(s + length), true
}

// nextActive returns t if user u is active at t, else the start of the
// user's next activity window.
func (m *distribution) nextActive(u int, t sim.Time) sim.Time {
	for k := -1; k < 15; k++ {
		s, e, ok := m.window(u, t, k)
		if ok && e > t {
			return max(s, t)
		}
	}
	return t
}

func (m *distribution) arrival(z *zakaySource, b int32, r Reason, now sim.Time) sim.Time {
	u := int(z.userOf(b))
	if a := m.nextActive(u, now); a > now {
		return a
	}
	rng := m.rng[u]
	var resp sim.Time
	if z.trigger >= 0 {
		resp = m.respTime(z.trigger)
	}
	pc := continuation(resp)
	pu := &m.per[u]
	var delay int64
	if rng.Float64() < pc {
		if r == Dependency {
			delay = draw(rng, pu.intraTT, m.all.intraTT, 0)
		} else {
			delay = draw(rng, pu.intraIAT, m.all.intraIAT, 0)
		}
	} else {
		src, fb := pu.interIAT, m.all.interIAT
		if r == Dependency {
			src, fb = pu.interTT, m.all.interTT
		}
		delay = draw(rng, below(src, 8*3600), below(fb, 8*3600), 8*3600)
	}
	return m.nextActive(u, now+sim.Time(max(delay, 0)))
}
