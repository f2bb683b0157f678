// Package verify checks a schedule independently of the simulator that
// produced it: given the jobs of a log, the machine size and the start and
// end of every job (a jobs.csv written by hpcwl simulate --jobs or by
// Batsim), it checks that every job ran exactly once, never before its
// submission, for the time the run rules give it, without ever using more
// processors than the machine has, and, when asked, the invariants of the
// named policy (first come first served order; EASY's reservation for the
// oldest waiting job; conservative backfilling's reservations, replayed as
// the textbook defines them, or an upper bound of them that every variant
// of conservative backfilling keeps). When the schedule names the processors
// of each job (Batsim's allocated_resources), no processor may be held by
// two jobs at once.
//
// The checks share no code with packages sim and sched beyond the job
// type: the schedule is replayed from its start and end times alone.
package verify

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/hpcwl/hpcwl/sim"
)

// Entry is one job of a schedule as a jobs.csv records it.
type Entry struct {
	// ID is the job number (job_id; Batsim's "workload!id" form is read
	// as id).
	ID int64
	// Submit is the recorded submission time (submission_time).
	Submit sim.Time
	// Procs is the number of processors allocated
	// (requested_number_of_resources).
	Procs int
	// Start and End are starting_time and finish_time; Start < 0 marks a
	// job that never started.
	Start, End sim.Time
	// Alloc is the set of processors allocated (allocated_resources, as
	// intervals of processor numbers from 0, both ends included), or nil
	// when the schedule does not say.
	Alloc []Interval
	// Line is the line of the file (1 is the header), for messages.
	Line int
}

// Interval is a range of processor numbers, Lo to Hi included.
type Interval struct{ Lo, Hi int }

// Policy names the scheduling policy whose invariants are checked.
type Policy uint8

const (
	// AnyPolicy checks only the rules every schedule keeps.
	AnyPolicy Policy = iota
	// FCFS requires jobs to start in arrival order (submit time, then job
	// id).
	FCFS
	// EASY requires the oldest waiting job never to start later than the
	// shadow time computed for it at any instant (Lifka 1995; Mu'alem and
	// Feitelson 2001).
	EASY
	// Conservative requires every job to start no later than its
	// reservation under textbook conservative backfilling (Mu'alem and
	// Feitelson 2001): reservations made at arrival at the earliest slot
	// where the job fits, and compressed in arrival order after every
	// pass at which a job ended, replayed along the schedule's own starts
	// and ends.
	Conservative
	// ConservativeBound requires every job to start no later than the
	// latest time its reservation at arrival can be under any variant of
	// conservative backfilling, whatever its compression: the time by
	// which every job running then is planned to end and every job waiting
	// then is planned to end after starting at its own such bound. A
	// necessary condition only, for schedulers that compress otherwise.
	ConservativeBound
)

// String returns the policy's name as [ParsePolicy] reads it.
func (p Policy) String() string {
	switch p {
	case FCFS:
		return "fcfs"
	case EASY:
		return "easy"
	case Conservative:
		return "conservative"
	case ConservativeBound:
		return "conservative-bound"
	}
	return "none"
}

// ParsePolicy reads a policy name: none, fcfs, easy, conservative or
// conservative-bound.
func ParsePolicy(s string) (Policy, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "none":
		return AnyPolicy, nil
	case "fcfs":
		return FCFS, nil
	case "easy":
		return EASY, nil
	case "conservative":
		return Conservative, nil
	case "conservative-bound":
		return ConservativeBound, nil
	}
	return 0, fmt.Errorf("unknown policy %q; valid: none, fcfs, easy, conservative, conservative-bound", s)
}

// Rule names one checked rule.
type Rule string

// The rules, as they appear in a [Violation].
const (
	RuleMissing   Rule = "missing"    // a job of the log is not in the schedule
	RuleDuplicate Rule = "duplicate"  // a job appears more than once
	RuleUnknown   Rule = "unknown"    // a job of the schedule is not in the log
	RuleNotRun    Rule = "not-run"    // a job never started
	RuleSubmit    Rule = "submit"     // recorded submission differs from the log's
	RuleSize      Rule = "size"       // processors differ from the log's
	RuleEarly     Rule = "early"      // started before its submission
	RuleDuration  Rule = "duration"   // ran for another time than the run rules give
	RuleCapacity  Rule = "capacity"   // more processors busy than the machine has
	RuleAlloc     Rule = "allocation" // processors allocated twice, outside the machine or not as many as the job's
	RuleFCFSOrder Rule = "fcfs-order" // started before a job that arrived earlier
	RuleEASY      Rule = "easy-shadow"
	RuleCons      Rule = "conservative-reservation"
	RuleConsBound Rule = "conservative-bound"
)

// Violation is one broken rule.
type Violation struct {
	Rule  Rule
	JobID int64
	// Time is the instant of the violation (the job's start for most
	// rules).
	Time sim.Time
	// Line is the schedule's line of the job, 0 when it has none.
	Line int
	What string
}

// String formats v as one line of a report.
func (v Violation) String() string {
	loc := ""
	if v.Line > 0 {
		loc = fmt.Sprintf(" (line %d)", v.Line)
	}
	return fmt.Sprintf("%s: job %d at t=%d%s: %s", v.Rule, v.JobID, v.Time, loc, v.What)
}

// Options control [Check].
type Options struct {
	// Procs is the machine size, > 0.
	Procs int
	// Kill says jobs were killed at their requested time: a job runs
	// min(runtime, requested time), else its runtime.
	Kill bool
	// Policy selects the policy invariants checked.
	Policy Policy
	// Max is how many violations are kept in the report (all are
	// counted); 0 means 20.
	Max int
	// EstimateFactor multiplies requested times into the planned
	// durations of the reservation checks (rounded up), as the scheduler's
	// estimate factor does ("EASY with doubled estimates"); 0 means 1. It
	// must be >= 1.
	EstimateFactor float64
}

// Report is the outcome of [Check].
type Report struct {
	// Jobs is the number of jobs of the log; Entries of the schedule.
	Jobs, Entries int
	// Count is the number of violations found; Violations holds the first
	// ones (by rule, then time).
	Count      int
	Violations []Violation
	// Policy is the policy whose invariants were asked for; PolicyChecked
	// reports whether they were checked, and Note why not if they were
	// not.
	Policy        Policy
	PolicyChecked bool
	Note          string
	// AllocChecked reports that the schedule named the processors of its
	// jobs and they were checked one by one.
	AllocChecked bool
}

// OK reports whether no violation was found.
func (r *Report) OK() bool { return r.Count == 0 }

type checker struct {
	rep *Report
	max int
}

func (c *checker) add(v Violation) {
	c.rep.Count++
	if len(c.rep.Violations) < c.max {
		c.rep.Violations = append(c.rep.Violations, v)
	}
}

// Check verifies schedule against the jobs of the log (as [sim.Prepare]
// made them, so that sizes, runtimes and requested times are the ones the
// simulation used). The rules every schedule keeps are checked first; the
// policy's invariants only when those hold, since they assume a valid
// schedule. It returns an error only for bad options.
func Check(jobs []sim.Job, schedule []Entry, opt Options) (*Report, error) {
	if opt.Procs <= 0 {
		return nil, fmt.Errorf("machine size %d: must be > 0", opt.Procs)
	}
	if f := opt.EstimateFactor; f != 0 && !(f >= 1 && f <= 1e6) {
		return nil, fmt.Errorf("estimate factor %v: must be >= 1", f)
	}
	rep := &Report{Jobs: len(jobs), Entries: len(schedule), Policy: opt.Policy}
	c := &checker{rep: rep, max: opt.Max}
	if c.max <= 0 {
		c.max = 20
	}
	byID := make(map[int64]int, len(jobs))
	for i, j := range jobs {
		if _, dup := byID[j.ID]; dup {
			return nil, fmt.Errorf("job id %d appears twice in the log", j.ID)
		}
		byID[j.ID] = i
	}
	// Every job exactly once.
	entry := make([]int, len(jobs)) // index in schedule + 1, 0: none
	for k, e := range schedule {
		i, ok := byID[e.ID]
		switch {
		case !ok:
			c.add(Violation{RuleUnknown, e.ID, e.Start, e.Line, "not a job of the log"})
			continue
		case entry[i] != 0:
			c.add(Violation{RuleDuplicate, e.ID, e.Start, e.Line,
				fmt.Sprintf("already scheduled on line %d", schedule[entry[i]-1].Line)})
			continue
		}
		entry[i] = k + 1
	}
	for i, j := range jobs {
		if entry[i] == 0 {
			c.add(Violation{RuleMissing, j.ID, j.Submit, 0, "job of the log absent from the schedule"})
		}
	}
	// Per job: submission, size, start, duration.
	var placed []placement
	for i, j := range jobs {
		if entry[i] == 0 {
			continue
		}
		e := schedule[entry[i]-1]
		bad := false
		if e.Submit != j.Submit {
			c.add(Violation{RuleSubmit, j.ID, e.Submit, e.Line, fmt.Sprintf("submitted at %d, the log says %d", e.Submit, j.Submit)})
		}
		if e.Procs != int(j.Procs) {
			c.add(Violation{RuleSize, j.ID, e.Start, e.Line, fmt.Sprintf("%d processors, the log's job has %d", e.Procs, j.Procs)})
			bad = true
		}
		if e.Start < 0 {
			c.add(Violation{RuleNotRun, j.ID, j.Submit, e.Line, "never started"})
			continue
		}
		if e.Start < j.Submit {
			c.add(Violation{RuleEarly, j.ID, e.Start, e.Line, fmt.Sprintf("starts at %d, before its submission at %d", e.Start, j.Submit)})
		}
		want, rule := j.Runtime, "its runtime"
		if opt.Kill && j.Estimate < j.Runtime {
			want, rule = j.Estimate, "its requested time (killed)"
		}
		if got := e.End - e.Start; got != want {
			c.add(Violation{RuleDuration, j.ID, e.Start, e.Line, fmt.Sprintf("runs %d s (%d to %d), %s is %d s", got, e.Start, e.End, rule, want)})
			bad = true
		}
		if !bad {
			placed = append(placed, placement{job: i, id: j.ID, start: e.Start, end: e.End, procs: int(j.Procs), line: e.Line})
		} else {
			// Keep the job on the machine as recorded for the capacity
			// check: over-allocation is judged on what the schedule says.
			placed = append(placed, placement{job: i, id: j.ID, start: e.Start, end: max(e.Start, e.End), procs: e.Procs, line: e.Line})
		}
	}
	checkCapacity(c, placed, opt.Procs)
	checkAlloc(c, schedule, entry, opt.Procs)
	if rep.Count > 0 {
		if opt.Policy != AnyPolicy {
			rep.Note = "policy invariants not checked: the schedule breaks the basic rules"
		}
		return rep, nil
	}
	switch opt.Policy {
	case FCFS:
		rep.PolicyChecked = true
		checkFCFS(c, jobs, placed)
	case EASY, Conservative, ConservativeBound:
		plan := make([]sim.Time, len(jobs))
		for i, j := range jobs {
			plan[i] = j.Estimate
			if opt.EstimateFactor > 1 {
				plan[i] = sim.Time(math.Ceil(float64(j.Estimate) * opt.EstimateFactor))
			}
		}
		if !opt.Kill {
			n := 0
			for _, j := range jobs {
				if j.Runtime > j.Estimate {
					n++ // its prediction is missed and replaced
				}
			}
			if n > 0 {
				rep.Note = fmt.Sprintf("%s reservations not checked: %d jobs run past their requested time and were not killed, so planned ends are no upper bounds (check a run with --kill)", opt.Policy, n)
				return rep, nil
			}
		}
		rep.PolicyChecked = true
		switch opt.Policy {
		case EASY:
			checkEASY(c, jobs, plan, placed, opt.Procs)
		case Conservative:
			checkConservative(c, jobs, plan, placed, opt.Procs)
		default:
			checkConservativeBound(c, jobs, plan, placed)
		}
	}
	return rep, nil
}

// placement is a job as the schedule places it.
type placement struct {
	job        int // index in jobs
	id         int64
	start, end sim.Time
	procs      int
	line       int
}

// eventOrder orders the starts and ends of jobs a and b: by time, an end
// before a start at the same instant (it frees processors first), then by
// job number.
func eventOrder(at, bt sim.Time, aStart, bStart bool, aID, bID int64) int {
	if at != bt {
		return cmp.Compare(at, bt)
	}
	if aStart != bStart {
		if aStart {
			return 1
		}
		return -1
	}
	return cmp.Compare(aID, bID)
}

// checkCapacity sweeps starts and ends in time order, ends before starts
// at equal times (a job of zero length occupies nothing), and reports
// every start that takes the busy processors over the machine's size.
func checkCapacity(c *checker, ps []placement, procs int) {
	type ev struct {
		t     sim.Time
		start bool
		p     *placement
	}
	evs := make([]ev, 0, 2*len(ps))
	for k := range ps {
		p := &ps[k]
		if p.end > p.start {
			evs = append(evs, ev{p.start, true, p}, ev{p.end, false, p})
		}
	}
	slices.SortFunc(evs, func(a, b ev) int { return eventOrder(a.t, b.t, a.start, b.start, a.p.id, b.p.id) })
	busy := 0
	for _, e := range evs {
		if !e.start {
			busy -= e.p.procs
			continue
		}
		busy += e.p.procs
		if busy > procs {
			c.add(Violation{RuleCapacity, e.p.id, e.t, e.p.line,
				fmt.Sprintf("its start makes %d processors busy on a machine of %d", busy, procs)})
		}
	}
}

// checkAlloc checks the processors each job was given, when the schedule
// names them: as many as the job has, all on the machine, and none given
// to two jobs at once (a job ending at an instant frees its processors
// before a job starting then takes them; a job of zero length holds none).
func checkAlloc(c *checker, schedule []Entry, entry []int, procs int) {
	type ev struct {
		t     sim.Time
		start bool
		e     *Entry
	}
	var evs []ev
	for _, k := range entry {
		if k == 0 {
			continue
		}
		e := &schedule[k-1]
		if e.Alloc == nil || e.Start < 0 {
			continue
		}
		c.rep.AllocChecked = true
		n, bad := 0, false
		for _, iv := range e.Alloc {
			n += iv.Hi - iv.Lo + 1
			if iv.Lo < 0 || iv.Hi >= procs || iv.Hi < iv.Lo {
				bad = true
			}
		}
		switch {
		case bad:
			c.add(Violation{RuleAlloc, e.ID, e.Start, e.Line, fmt.Sprintf("allocated processors outside 0-%d", procs-1)})
			continue
		case n != e.Procs:
			c.add(Violation{RuleAlloc, e.ID, e.Start, e.Line, fmt.Sprintf("%d processors allocated for a job of %d", n, e.Procs)})
		}
		if e.End > e.Start {
			evs = append(evs, ev{e.Start, true, e}, ev{e.End, false, e})
		}
	}
	slices.SortFunc(evs, func(a, b ev) int { return eventOrder(a.t, b.t, a.start, b.start, a.e.ID, b.e.ID) })
	owner := make([]*Entry, procs)
	for _, x := range evs {
		reported := false // one report per job
		for _, iv := range x.e.Alloc {
			for p := iv.Lo; p <= iv.Hi; p++ {
				switch {
				case !x.start:
					if owner[p] == x.e {
						owner[p] = nil
					}
				case owner[p] != nil:
					if !reported {
						reported = true
						c.add(Violation{RuleAlloc, x.e.ID, x.t, x.e.Line,
							fmt.Sprintf("processor %d is still held by job %d (until %d)", p, owner[p].ID, owner[p].End)})
					}
				default:
					owner[p] = x.e
				}
			}
		}
	}
}

// arrivalLess orders jobs by arrival: submit time, then job id.
func arrivalLess(a, b *sim.Job) int {
	return cmp.Or(cmp.Compare(a.Submit, b.Submit), cmp.Compare(a.ID, b.ID))
}

// checkFCFS requires starts in arrival order: no job starts before a job
// that arrived earlier.
func checkFCFS(c *checker, jobs []sim.Job, ps []placement) {
	order := slices.Clone(ps)
	slices.SortFunc(order, func(a, b placement) int { return arrivalLess(&jobs[a.job], &jobs[b.job]) })
	// latest start so far among earlier arrivals, and whose.
	var last *placement
	for k := range order {
		p := &order[k]
		if last != nil && p.start < last.start {
			c.add(Violation{RuleFCFSOrder, p.id, p.start, p.line,
				fmt.Sprintf("starts before job %d (started at %d), which arrived earlier", last.id, last.start)})
		}
		if last == nil || p.start > last.start {
			last = p
		}
	}
}

// checkEASY replays the schedule in time. At every instant t with an event
// (submission, start or end), after the jobs ending at t released their
// processors and every start at t took its own, the oldest job submitted by
// t that has not started (the head) has a shadow time: the earliest planned
// end (start + planned time: the requested time, times the estimate
// factor if any) of a running job at which the free
// processors plus those of every running job planned to end by then cover
// it. EASY starts the head no later than that (when planned ends bound the
// actual ones); a head that starts later is a violation, reported once per
// job at the instant of its earliest shadow time.
func checkEASY(c *checker, jobs []sim.Job, plan []sim.Time, ps []placement, procs int) {
	order := slices.Clone(ps)
	slices.SortFunc(order, func(a, b placement) int { return arrivalLess(&jobs[a.job], &jobs[b.job]) })
	var times []sim.Time
	for _, p := range order {
		times = append(times, jobs[p.job].Submit, p.start, p.end)
	}
	slices.Sort(times)
	times = slices.Compact(times)
	byStart := slices.Clone(order)
	slices.SortFunc(byStart, func(a, b placement) int { return cmp.Compare(a.start, b.start) })
	type run struct {
		planned, end sim.Time
		procs        int
	}
	var running []run
	head, next := 0, 0 // head: first in arrival order not started by now
	reported := make(map[int64]bool)
	for _, now := range times {
		// Ends at or before now release; starts at or before now take.
		kept := running[:0]
		for _, r := range running {
			if r.end > now {
				kept = append(kept, r)
			}
		}
		running = kept
		for next < len(byStart) && byStart[next].start <= now {
			p := byStart[next]
			if p.end > now {
				running = append(running, run{p.start + plan[p.job], p.end, p.procs})
			}
			next++
		}
		for head < len(order) && order[head].start <= now {
			head++
		}
		if head == len(order) || jobs[order[head].job].Submit > now {
			continue
		}
		h := order[head]
		free := procs
		for _, r := range running {
			free -= r.procs
		}
		shadow := sim.Time(math.MaxInt64)
		if free < h.procs {
			ends := make([]sim.Time, len(running))
			for k, r := range running {
				ends[k] = r.planned
			}
			slices.Sort(ends)
			for _, e := range ends {
				avail := free
				for _, r := range running {
					if r.planned <= e {
						avail += r.procs
					}
				}
				if avail >= h.procs {
					shadow = e
					break
				}
			}
		} else {
			// The head fits now but did not start: EASY starts it at once.
			shadow = now
		}
		if h.start > shadow && !reported[h.id] {
			reported[h.id] = true
			c.add(Violation{RuleEASY, h.id, now, h.line,
				fmt.Sprintf("oldest waiting job at t=%d with shadow time %d, starts at %d", now, shadow, h.start)})
		}
	}
}

// checkConservativeBound bounds each job's reservation at arrival under
// conservative backfilling from above, and requires the job to start by
// that bound. At job j's arrival every job running is planned to end by
// its start + requested time, and every job waiting (arrived before j, in
// arrival order, and not started before j's submission) holds a
// reservation no later than its own bound B_i, so it is planned to end by
// B_i + requested time. After the latest of these ends the plan has the
// whole machine free, so j's reservation is at the latest
//
//	B_j = max(submit_j, planned ends of running jobs, B_i + requested_i of waiting jobs)
//
// and with planned ends that bound the actual ones, conservative
// backfilling starts j by its reservation, hence by B_j. This is a
// necessary condition only (the actual reservation can be earlier), but
// one that EASY, which reserves for the first waiting job alone, can break.
func checkConservativeBound(c *checker, jobs []sim.Job, plan []sim.Time, ps []placement) {
	order := slices.Clone(ps)
	slices.SortFunc(order, func(a, b placement) int { return arrivalLess(&jobs[a.job], &jobs[b.job]) })
	bound := make([]sim.Time, len(order))
	var live []int // positions in order of jobs arrived and not ended, by arrival
	for k := range order {
		p := &order[k]
		t := jobs[p.job].Submit
		b := t
		kept := live[:0]
		for _, i := range live {
			q := &order[i]
			if q.end <= t && q.start < t {
				continue // ended before j arrived
			}
			kept = append(kept, i)
			est := plan[q.job]
			if q.start < t {
				b = max(b, q.start+est) // running
			} else {
				b = max(b, bound[i]+est) // waiting
			}
		}
		live = append(kept, k)
		bound[k] = b
		if p.start > b {
			c.add(Violation{RuleConsBound, p.id, p.start, p.line,
				fmt.Sprintf("starts at %d, after %d, the latest its reservation at arrival (t=%d) could be", p.start, b, t)})
		}
	}
}
