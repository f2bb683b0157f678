package sched

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/sim"
)

// freeAt returns the processors free at time x (x >= t[0]).
func (p *profile) freeAt(x sim.Time) int32 { return p.free[p.index(x)] }

// findBeforeBrute is findBefore from its definition: every candidate start
// (from, and each step start in (from, until)) in turn, each checked at
// every step start in its window.
func (p *profile) findBeforeBrute(from sim.Time, procs int32, dur, until, limit sim.Time) sim.Time {
	from = max(from, p.t[0])
	cands := []sim.Time{from}
	for _, x := range p.t {
		if x > from {
			cands = append(cands, x)
		}
	}
	for _, s := range cands {
		if s >= until {
			break
		}
		end := min(s+dur, limit)
		ok := p.freeAt(s) >= procs
		for _, x := range p.t {
			if x > s && x < end && p.freeAt(x) < procs {
				ok = false
			}
		}
		if ok {
			return s
		}
	}
	return limit
}

// drawProfile draws a profile of 1 to 20 processors changed by up to 40
// additions (some for ever, some taking processors back) and advances; it
// returns the profile, its processors and the time it was advanced to.
func drawProfile(rt *rapid.T) (profile, int, sim.Time) {
	procs := rapid.IntRange(1, 20).Draw(rt, "procs")
	p := newProfile(procs)
	now := sim.Time(0)
	for range rapid.IntRange(0, 40).Draw(rt, "changes") {
		if rapid.IntRange(0, 5).Draw(rt, "advance") == 0 {
			now += sim.Time(rapid.IntRange(0, 20).Draw(rt, "by"))
			p.advance(now)
			continue
		}
		from := now + sim.Time(rapid.IntRange(-2, 100).Draw(rt, "from"))
		to := sim.Time(math.MaxInt64)
		if rapid.IntRange(0, 9).Draw(rt, "forever") > 0 {
			to = from + sim.Time(rapid.IntRange(0, 60).Draw(rt, "len"))
		}
		p.add(from, to, int32(rapid.IntRange(-procs, procs).Draw(rt, "delta")))
	}
	return p, procs, now
}

// drawQuery draws a search in a profile of procs processors advanced to
// now: its earliest start, width, duration and limit (none for one in five).
func drawQuery(rt *rapid.T, procs int, now sim.Time) (from sim.Time, need int32, dur, limit sim.Time) {
	from = now + sim.Time(rapid.IntRange(-2, 120).Draw(rt, "qfrom"))
	need = int32(rapid.IntRange(0, procs+1).Draw(rt, "need"))
	dur = sim.Time(rapid.IntRange(1, 80).Draw(rt, "dur"))
	limit = sim.Time(math.MaxInt64)
	if rapid.IntRange(0, 4).Draw(rt, "unlimited") > 0 {
		limit = max(from, now) + sim.Time(rapid.IntRange(0, 120).Draw(rt, "limit"))
	}
	return from, need, dur, limit
}

// TestProfileFindBefore checks findBefore against its definition on
// random profiles built by additions and advances: 200 queries a profile,
// enough that a search bound off by one (returning until, outside [from,
// until)) fails every run, not one run in three.
func TestProfileFindBefore(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		p, procs, now := drawProfile(rt)
		for range 200 {
			from, need, dur, limit := drawQuery(rt, procs, now)
			until := min(limit, max(from, now)+sim.Time(rapid.IntRange(0, 120).Draw(rt, "until")))
			if got, want := p.findBefore(from, need, dur, until, limit), p.findBeforeBrute(from, need, dur, until, limit); got != want {
				rt.Fatalf("findBefore(%d, %d, %d, %d, %d) = %d, by definition %d; steps %v %v",
					from, need, dur, until, limit, got, want, p.t, p.free)
			}
		}
	})
}

// findBrute is the earliest s >= from (and >= t[0]) before limit at which
// procs processors are free for the whole of [s, s+dur), own more being
// free on [oa, ob), or limit: every candidate start (from, each breakpoint
// and oa, ob after it) checked at every breakpoint in its window.
func (p *profile) findBrute(from sim.Time, procs int32, dur, limit, oa, ob sim.Time) sim.Time {
	from = max(from, p.t[0])
	freeAt := func(x sim.Time) int32 {
		f := p.freeAt(x)
		if x >= oa && x < ob {
			f += procs
		}
		return f
	}
	var cands []sim.Time
	for _, x := range append([]sim.Time{from, oa, ob}, p.t...) {
		if x >= from && x < limit && !slices.Contains(cands, x) {
			cands = append(cands, x)
		}
	}
	slices.Sort(cands)
	for _, s := range cands {
		ok := freeAt(s) >= procs
		for _, x := range append([]sim.Time{oa, ob}, p.t...) {
			if x > s && x < s+dur && freeAt(x) < procs {
				ok = false
			}
		}
		if ok {
			return s
		}
	}
	return limit
}

// TestProfileFind checks find and findWithout against their definition on
// random profiles built by additions and advances, with the job's own
// reservation [oa, ob) added to the profile first, as compression has it.
func TestProfileFind(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		p, procs, now := drawProfile(rt)
		for range 20 {
			from, need, dur, limit := drawQuery(rt, procs, now)
			if got, want := p.find(from, need, dur, limit), p.findBrute(from, need, dur, limit, 0, 0); got != want && (want != limit || got != math.MaxInt64) {
				rt.Fatalf("find(%d, %d, %d, %d) = %d, by definition %d; steps %v %v",
					from, need, dur, limit, got, want, p.t, p.free)
			}
			// the job's own reservation, in the profile
			oa := now + sim.Time(rapid.IntRange(0, 100).Draw(rt, "oa"))
			ob := oa + sim.Time(rapid.IntRange(1, 60).Draw(rt, "olen"))
			q := cloneProfile(profile{}, &p)
			q.add(oa, ob, -need)
			if got, want := q.findWithout(from, need, dur, limit, oa, ob), q.findBrute(from, need, dur, limit, oa, ob); got != want {
				rt.Fatalf("findWithout(%d, %d, %d, %d, %d, %d) = %d, by definition %d; steps %v %v",
					from, need, dur, limit, oa, ob, got, want, q.t, q.free)
			}
		}
	})
}

// TestProfileMatchesDefinition builds random profiles by additions and
// advances and checks each step against the definition: the free
// processors at every time from now to past the last change equal the
// machine's plus every addition covering that time (an addition covers
// [max(from, the time advanced to when it was made), to)); add returns the
// most processors free at any time of its interval after the change, or -1
// for an empty one; and the profile stays in its canonical form, with its
// first breakpoint at the time advanced to, breakpoints increasing and no
// two neighbouring steps with the same count.
func TestProfileMatchesDefinition(t *testing.T) {
	type change struct {
		from, to sim.Time
		delta    int32
	}
	rapid.Check(t, func(rt *rapid.T) {
		procs := rapid.IntRange(1, 20).Draw(rt, "procs")
		p := newProfile(procs)
		now := sim.Time(0)
		var changes []change
		freeAt := func(x sim.Time) int32 {
			f := int32(procs)
			for _, c := range changes {
				if c.from <= x && x < c.to {
					f += c.delta
				}
			}
			return f
		}
		const horizon = 400 // beyond every finite change
		for op := range rapid.IntRange(1, 40).Draw(rt, "changes") {
			if rapid.IntRange(0, 5).Draw(rt, "advance") == 0 {
				now += sim.Time(rapid.IntRange(0, 20).Draw(rt, "by"))
				p.advance(now)
			} else {
				from := now + sim.Time(rapid.IntRange(-2, 100).Draw(rt, "from"))
				to := sim.Time(math.MaxInt64)
				if rapid.IntRange(0, 9).Draw(rt, "forever") > 0 {
					to = from + sim.Time(rapid.IntRange(0, 60).Draw(rt, "len"))
				}
				delta := int32(rapid.IntRange(-procs, procs).Draw(rt, "delta"))
				got := p.add(from, to, delta)
				c := change{max(from, now), to, delta}
				want := int32(-1)
				if c.from < c.to {
					changes = append(changes, c)
					for x := c.from; x < min(c.to, now+horizon); x++ {
						want = max(want, freeAt(x))
					}
				}
				if got != want {
					rt.Fatalf("change %d: add(%d, %d, %d) at %d = %d, by definition %d", op, from, to, delta, now, got, want)
				}
			}
			if p.t[0] != now {
				rt.Fatalf("change %d: first breakpoint %d, advanced to %d", op, p.t[0], now)
			}
			for k := 1; k < len(p.t); k++ {
				if p.t[k] <= p.t[k-1] || p.free[k] == p.free[k-1] {
					rt.Fatalf("change %d: not canonical at step %d: %v %v", op, k, p.t, p.free)
				}
			}
			for x := now; x < now+horizon; x++ {
				if got, want := p.freeAt(x), freeAt(x); got != want {
					rt.Fatalf("change %d: %d free at %d, by definition %d; steps %v %v", op, got, x, want, p.t, p.free)
				}
			}
		}
	})
}
