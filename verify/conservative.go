package verify

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/sim"
)

// plan is the free-processor profile of the conservative replay: a sorted
// list of steps, steps[i].free processors being free from steps[i].at to
// the next step's time (the last step lasts for ever). It is written from
// the definition, plainly, and shares nothing with the scheduler's own
// profile.
type plan struct {
	steps []planStep
}

type planStep struct {
	at   sim.Time
	free int
}

func newPlan(procs int) *plan {
	return &plan{steps: []planStep{{math.MinInt64, procs}}}
}

// split makes sure a step begins at x and returns its index.
func (p *plan) split(x sim.Time) int {
	i, found := slices.BinarySearchFunc(p.steps, x, func(s planStep, x sim.Time) int { return cmp.Compare(s.at, x) })
	if found {
		return i
	}
	p.steps = slices.Insert(p.steps, i, planStep{x, p.steps[i-1].free})
	return i
}

// add adds d free processors on [a, b).
func (p *plan) add(a, b sim.Time, d int) {
	a = max(a, p.steps[0].at) // the past is forgotten
	if a >= b {
		return
	}
	i := p.split(a)
	j := p.split(b)
	for k := i; k < j; k++ {
		p.steps[k].free += d
	}
}

// earliest returns the first time t >= now at which n processors are free
// on all of [t, t+l).
func (p *plan) earliest(now, l sim.Time, n int) sim.Time {
	cand := now
	for i, s := range p.steps {
		end := sim.Time(math.MaxInt64)
		if i+1 < len(p.steps) {
			end = p.steps[i+1].at
		}
		if end <= cand {
			continue
		}
		if s.free < n {
			cand = end
			continue
		}
		if end-cand >= l {
			return cand
		}
	}
	return cand // unreachable for n <= procs: the last step has them all
}

// forget drops the steps that ended before now.
func (p *plan) forget(now sim.Time) {
	k := 0
	for k+1 < len(p.steps) && p.steps[k+1].at <= now {
		k++
	}
	p.steps = p.steps[k:]
}

// checkConservative replays conservative backfilling's reservations as the
// textbook defines them (Mu'alem and Feitelson 2001; the pyss simulator of
// Feitelson's group) along the schedule's own starts and ends, and requires
// every job to start no later than its reservation. At every instant of the
// schedule, in passes:
//
//  1. the jobs ending now (that started before the pass) release what the
//     plan held for them from now to their planned end;
//  2. if any job ended, every waiting job, in arrival order, gives up its
//     reservation and takes the earliest slot where it now fits for its
//     planned duration, the others left in place (never a later one: when
//     the schedule started a job ahead of its reservation and the plan has
//     no room left, the reservation stands);
//  3. in the first pass only, the jobs submitted now, in arrival order
//     (submission time, then job number), each reserve the earliest slot
//     where they fit for their whole planned duration;
//  4. the waiting jobs whose reservation has come start, if the schedule
//     starts them now;
//
// and another pass follows while a job started in this one ends at once
// (a job of zero runtime). Planned durations are the requested times times
// the estimate factor, rounded up, at least one second; a job planned to
// end after its actual end frees the rest when it ends.
//
// A job that starts later than its reservation at that time (which is no
// later than its reservation at arrival: reservations only move earlier)
// is a violation, reported once. A job the schedule starts earlier than
// its reservation is not one (the plan gives way to it); the replay takes
// the schedule's starts as they are and goes on, so one deviation does not
// hide the next.
func checkConservative(c *checker, jobs []sim.Job, planned []sim.Time, ps []placement, procs int) {
	order := slices.Clone(ps)
	slices.SortFunc(order, func(a, b placement) int { return arrivalLess(&jobs[a.job], &jobs[b.job]) })
	n := len(order)
	length := make([]sim.Time, n)
	for k, p := range order {
		length[k] = max(1, planned[p.job])
	}
	byStart := make([]int, n)
	byEnd := make([]int, n)
	for k := range n {
		byStart[k], byEnd[k] = k, k
	}
	slices.SortStableFunc(byStart, func(a, b int) int { return cmp.Compare(order[a].start, order[b].start) })
	slices.SortStableFunc(byEnd, func(a, b int) int { return cmp.Compare(order[a].end, order[b].end) })
	var times []sim.Time
	for _, p := range order {
		times = append(times, jobs[p.job].Submit, p.start, p.end)
	}
	slices.Sort(times)
	times = slices.Compact(times)

	const (
		future = iota
		waiting
		running
		done
	)
	state := make([]uint8, n)
	res := make([]sim.Time, n)       // current reservation of a waiting job
	atArrival := make([]sim.Time, n) // reservation made at arrival
	pl := newPlan(procs)
	var queue []int // waiting jobs in arrival order
	reported := make([]bool, n)
	nextArrival, nextStart, nextEnd := 0, 0, 0

	startJob := func(k int, now sim.Time) {
		pl.add(res[k], res[k]+length[k], order[k].procs)
		pl.add(now, now+length[k], -order[k].procs)
		state[k] = running
	}
	for _, now := range times {
		// The jobs starting now, for the passes to pick from.
		startsNow := nextStart
		for nextStart < n && order[byStart[nextStart]].start == now {
			nextStart++
		}
		for first := true; ; first = false {
			ended := false
			for e := nextEnd; e < n && order[byEnd[e]].end <= now; e++ {
				k := byEnd[e]
				if state[k] != running || order[k].end != now {
					continue
				}
				state[k] = done
				if planEnd := order[k].start + length[k]; now < planEnd {
					pl.add(now, planEnd, order[k].procs)
				}
				ended = true
			}
			if ended {
				for _, k := range queue {
					if state[k] != waiting {
						continue
					}
					pl.add(res[k], res[k]+length[k], order[k].procs)
					// Never later: where the schedule has started a job
					// ahead of its reservation, the plan may have no room
					// left, and the reservation stands.
					res[k] = min(res[k], pl.earliest(now, length[k], order[k].procs))
					pl.add(res[k], res[k]+length[k], -order[k].procs)
				}
			}
			if first {
				for nextArrival < n && jobs[order[nextArrival].job].Submit == now {
					k := nextArrival
					res[k] = pl.earliest(now, length[k], order[k].procs)
					atArrival[k] = res[k]
					pl.add(res[k], res[k]+length[k], -order[k].procs)
					state[k] = waiting
					queue = append(queue, k)
					nextArrival++
				}
			}
			// The waiting jobs whose reservation has come and that the
			// schedule starts now; failing those, the ones it starts now
			// ahead of their reservation.
			again := false
			for _, early := range []bool{false, true} {
				for s := startsNow; s < nextStart; s++ {
					k := byStart[s]
					if state[k] == waiting && (early || res[k] <= now) {
						startJob(k, now)
						again = again || order[k].end == now
					}
				}
				if again {
					break
				}
			}
			if !again {
				break
			}
		}
		for nextEnd < n && order[byEnd[nextEnd]].end <= now && state[byEnd[nextEnd]] == done {
			nextEnd++
		}
		// Waiting jobs whose reservation has come without a start.
		for _, k := range queue {
			if state[k] != waiting || res[k] > now {
				continue
			}
			if !reported[k] {
				reported[k] = true
				p := &order[k]
				c.add(Violation{RuleCons, p.id, res[k], p.line,
					fmt.Sprintf("starts at %d, after its reservation %d (made at arrival, t=%d, for %d)", p.start, res[k], jobs[p.job].Submit, atArrival[k])})
			}
			// Carry on as if it were reserved again from the next second.
			pl.add(res[k], res[k]+length[k], order[k].procs)
			res[k] = pl.earliest(now+1, length[k], order[k].procs)
			pl.add(res[k], res[k]+length[k], -order[k].procs)
		}
		kept := queue[:0]
		for _, k := range queue {
			if state[k] == waiting {
				kept = append(kept, k)
			}
		}
		queue = kept
		pl.forget(now)
	}
}
