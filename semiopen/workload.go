package semiopen

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// WorkloadOptions shape the log of the mixed model that [MixedWorkload]
// writes.
type WorkloadOptions struct {
	// Unit is the length in seconds of the model's time unit (SWF times are
	// whole seconds); 0 means 600 (a mean job of 10 minutes with Service = 1).
	Unit int64
	// Horizon is the length of the log in model time units: open arrivals
	// cover [0, Horizon] and every closed user has jobs up to it; 0 means
	// 20,000.
	Horizon float64
}

func (o WorkloadOptions) withDefaults() WorkloadOptions {
	if o.Unit == 0 {
		o.Unit = 600
	}
	if o.Horizon == 0 {
		o.Horizon = 20000
	}
	return o
}

func (o WorkloadOptions) validate() error {
	switch {
	case o.Unit < 1 || o.Unit > 86400:
		return fmt.Errorf("%w: time unit %d s; valid: 1 to 86400 seconds", ErrParameter, o.Unit)
	case !(o.Horizon >= 10) || o.Horizon > 1e7:
		return fmt.Errorf("%w: horizon %v time units; valid: 10 to 1e7", ErrParameter, o.Horizon)
	}
	return nil
}

// closedUser returns the user ID of closed user u (0-based): u+1. Open
// users follow the closed ones.
func closedUser(u int) int32 { return int32(u + 1) }

// MixedWorkload writes the mixed model with n closed users as a log of a
// one-processor machine, every job on one processor with an exponential
// runtime of mean m.Service (times in units of o.Unit seconds, rounded to
// whole seconds, at least 1 s):
//
//   - closed user u (ID u+1) starts after an exponential think time and then
//     submits jobs one after the other, each recorded with no wait and
//     followed by an exponential think time of mean m.Think before the
//     next, until the horizon;
//   - open users (IDs n+1, ...) arrive in a Poisson stream of rate
//     m.Lambda over the horizon and submit one job each.
//
// Replayed with Zakay's Adjusted feedback, each closed user's next job
// arrives its recorded think time after the previous one ends in the
// simulation, as in the closed class of the model (Zakay's thesis, chapter
// 4 for the feedback, chapter 6 section III for the model); the open jobs
// keep their recorded arrivals. The jobs are sorted by submit time and
// numbered from 1; the header records the model.
func MixedWorkload(m Mixed, n int, o WorkloadOptions, rng *rand.Rand) (*trace.Trace, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("%w: closed users %d; valid: >= 0", ErrParameter, n)
	}
	o = o.withDefaults()
	if err := o.validate(); err != nil {
		return nil, err
	}
	unit := float64(o.Unit)
	horizon := int64(math.Round(o.Horizon * unit))
	draw := func(mean float64) int64 { return int64(math.Round(rng.ExpFloat64() * mean * unit)) }
	run := func() int64 { return max(draw(m.Service), 1) }
	var jobs []trace.Job
	add := func(user int32, submit, runtime int64) {
		jobs = append(jobs, trace.Job{Submit: submit, Wait: 0, Runtime: runtime, ReqTime: runtime,
			ThinkTime: -1, AvgCPU: -1, UsedMem: -1, ReqMem: -1, Procs: 1, ReqProcs: 1, User: user,
			Group: -1, App: -1, Queue: -1, Partition: -1, Preceding: -1, Status: 1})
	}
	for u := range n {
		for t := draw(m.Think); t <= horizon; {
			r := run()
			add(closedUser(u), t, r)
			t += r + draw(m.Think)
		}
	}
	if m.Lambda > 0 {
		user := closedUser(n)
		for t := rng.ExpFloat64() / m.Lambda; ; t += rng.ExpFloat64() / m.Lambda {
			s := int64(math.Round(t * unit))
			if s > horizon {
				break
			}
			add(user, s, run())
			user++
		}
	}
	sortJobs(jobs)
	var h swf.Header
	h.Set("Version", "2.2")
	h.Set("MaxJobs", strconv.Itoa(len(jobs)))
	h.Set("MaxRecords", strconv.Itoa(len(jobs)))
	h.Set("MaxNodes", "1")
	h.Set("MaxProcs", "1")
	h.AddNote(fmt.Sprintf("mixed open/closed model (Zakay's thesis, ch. 6): %d closed users, think time %v, open arrival rate %v, service %v; time unit %d s, horizon %v units",
		n, m.Think, m.Lambda, m.Service, o.Unit, o.Horizon))
	h.AddNote(fmt.Sprintf("closed users are IDs 1..%d, open users IDs above %d; replay with feedback (user model adjusted) to close the loop", n, n))
	return trace.New(h, jobs, trace.Options{}), nil
}

// sortJobs orders jobs by submit time then user, and numbers them from 1.
func sortJobs(jobs []trace.Job) {
	slices.SortStableFunc(jobs, func(a, b trace.Job) int {
		if c := cmp.Compare(a.Submit, b.Submit); c != 0 {
			return c
		}
		return cmp.Compare(a.User, b.User)
	})
	for i := range jobs {
		jobs[i].ID = int64(i + 1)
	}
}
