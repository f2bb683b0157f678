package semiopen

import (
	"container/heap"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// Reopen is the re-open model (Zakay's thesis, chapter 6, section IV, after
// Schroeder et al.'s partly-open model): users arrive in a Poisson stream of
// rate Lambda and submit a first job; after each of their jobs ends, with
// response time r, a user submits another one after an exponential think time
// of mean Think with probability Continue.Prob(r), and otherwise leaves. One
// FCFS server serves the jobs with exponential service times of mean Service.
// The thesis simulates 10,000 users per run with Service = 1.
type Reopen struct {
	// Lambda is the user arrival rate, > 0 and below 1/Service.
	Lambda float64
	// Think is the mean think time Z between a job's end and the user's next
	// submission, >= 0 (0: at once).
	Think float64
	// Service is the mean service time S = 1/µ, > 0.
	Service float64
	// Continue gives the probability of another job; nil means Constant{0},
	// the open model. A Constant p must keep the server stable,
	// λ <= (1-p)µ (section IV-A).
	Continue Continuation
	// Users is the number of users of a run, >= 1.
	Users int
}

func (m Reopen) cont() Continuation {
	if m.Continue == nil {
		return Constant{}
	}
	return m.Continue
}

// Validate returns an error wrapping [ErrParameter] that names the first
// parameter out of range and its valid range.
func (m Reopen) Validate() error {
	switch {
	case !(m.Service > 0) || math.IsInf(m.Service, 1):
		return fmt.Errorf("%w: service time %v; valid: a finite number > 0", ErrParameter, m.Service)
	case !(m.Think >= 0) || math.IsInf(m.Think, 1):
		return fmt.Errorf("%w: think time %v; valid: a finite number >= 0", ErrParameter, m.Think)
	case !(m.Lambda > 0) || m.Lambda*m.Service >= 1:
		return fmt.Errorf("%w: user arrival rate %v; valid: 0 < lambda < 1/service = %v", ErrParameter, m.Lambda, 1/m.Service)
	case m.Users < 1:
		return fmt.Errorf("%w: users %d; valid: >= 1", ErrParameter, m.Users)
	}
	if c, ok := m.cont().(Constant); ok {
		if !(c.P >= 0 && c.P < 1) {
			return fmt.Errorf("%w: continuation probability %v; valid: 0 <= p < 1", ErrParameter, c.P)
		}
		if m.Lambda*m.Service >= 1-c.P {
			return fmt.Errorf("%w: continuation probability %v with lambda %v saturates the server; valid: p < 1 - lambda*service = %v (section IV-A: lambda <= (1-p)mu)",
				ErrParameter, c.P, m.Lambda, 1-m.Lambda*m.Service)
		}
	}
	if s, ok := m.cont().(Shmueli); ok && !(s.Scale >= 0) {
		return fmt.Errorf("%w: Shmueli scale %v; valid: > 0", ErrParameter, s.Scale)
	}
	return nil
}

// ReopenResult is one simulated run of the re-open model. Rates and
// time-averages are over the arrival period, from 0 to the last user's
// arrival, so that the drain after it does not dilute them; job means are
// over the jobs submitted in that period.
type ReopenResult struct {
	// Users and Jobs are the users simulated and all their jobs.
	Users int `json:"users"`
	Jobs  int `json:"jobs"`
	// Period is the arrival period's length.
	Period float64 `json:"period"`
	// Throughput is the jobs completed per time unit in the period.
	Throughput float64 `json:"throughput"`
	// Utilization is the server's busy fraction in the period.
	Utilization float64 `json:"utilization"`
	// JobsPerUser is Jobs/Users.
	JobsPerUser float64 `json:"jobs_per_user"`
	// Response and Wait are the mean response time (wait + service) and
	// wait of the period's jobs.
	Response float64 `json:"response"`
	Wait     float64 `json:"wait"`
	// QueueLength is the time-average number of jobs waiting (not in
	// service); InSystem counts the job in service too.
	QueueLength float64 `json:"queue_length"`
	InSystem    float64 `json:"in_system"`
	// UserThroughput is the mean over users of jobs/residence, the residence
	// running from the user's arrival to the end of his last job (the
	// thesis's throughput per user).
	UserThroughput float64 `json:"user_throughput"`
	// Residence is the mean residence time of a user.
	Residence float64 `json:"residence"`
	// ContinueFraction is the fraction of job ends after which the user
	// submitted another job, (Jobs - Users)/Jobs.
	ContinueFraction float64 `json:"continue_fraction"`
	// Bias compares the service times of the jobs after which users
	// continued and of those after which they left (section IV-C).
	Bias Bias `json:"bias"`
}

// rjob is a job of the re-open simulation.
type rjob struct {
	user    int32
	submit  float64
	service float64
}

// thinkEvent is a user's next submission after a think time.
type thinkEvent struct {
	at   float64
	seq  int64
	user int32
}

type thinkHeap []thinkEvent

func (h thinkHeap) Len() int { return len(h) }
func (h thinkHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}
func (h thinkHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *thinkHeap) Push(x any)   { *h = append(*h, x.(thinkEvent)) }
func (h *thinkHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// reopenRun is the state of one simulation.
type reopenRun struct {
	m      Reopen
	p      Continuation
	rng    *rand.Rand
	now    float64
	period float64 // arrival of the last user, +Inf before it
	// queue holds the waiting jobs in FCFS order from head on.
	queue []rjob
	head  int
	busy  bool
	cur   rjob
	done  float64 // end of the job in service
	think thinkHeap
	seq   int64
	// per user
	arrive []float64
	jobs   []int32
	last   []float64
	// accumulators over the period
	area, areaSys, busyTime float64
	doneIn, jobsIn          int
	respIn, waitIn          float64
	cont, brk               []float64
	total                   int
}

// Simulate runs the model once with the random numbers of rng: Users
// arrivals, then every job until the last user leaves. The same rng state
// gives the same result. ctx is checked every 4096 events. Events at the
// same instant are taken in this order: the job completion, the arrival,
// then the think-time ends in the order the users started thinking.
func (m Reopen) Simulate(ctx context.Context, rng *rand.Rand) (*ReopenResult, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	s := &reopenRun{m: m, p: m.cont(), rng: rng, period: math.Inf(1),
		arrive: make([]float64, m.Users), jobs: make([]int32, m.Users), last: make([]float64, m.Users)}
	nextUser, nextArrival := 0, rng.ExpFloat64()/m.Lambda
	for events := 0; ; events++ {
		if events%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		t, kind := math.Inf(1), 0
		if nextUser < m.Users {
			t, kind = nextArrival, 1
		}
		if len(s.think) > 0 && s.think[0].at < t {
			t, kind = s.think[0].at, 2
		}
		if s.busy && s.done <= t {
			t, kind = s.done, 3
		}
		if kind == 0 {
			break
		}
		s.advance(t)
		switch kind {
		case 1:
			u := int32(nextUser)
			s.arrive[u] = t
			nextUser++
			if nextUser == m.Users {
				s.period = t
			} else {
				nextArrival = t + rng.ExpFloat64()/m.Lambda
			}
			s.submit(u)
		case 2:
			ev := heap.Pop(&s.think).(thinkEvent)
			s.submit(ev.user)
		case 3:
			s.complete()
		}
	}
	return s.result(), nil
}

// advance integrates the queue length and busy time up to t (within the
// period) and moves the clock.
func (s *reopenRun) advance(t float64) {
	hi := min(t, s.period)
	if dt := hi - s.now; dt > 0 {
		w := float64(len(s.queue) - s.head)
		s.area += w * dt
		if s.busy {
			s.busyTime += dt
			w++
		}
		s.areaSys += w * dt
	}
	s.now = t
}

// submit makes user u submit a job now.
func (s *reopenRun) submit(u int32) {
	j := rjob{user: u, submit: s.now, service: s.rng.ExpFloat64() * s.m.Service}
	s.jobs[u]++
	s.total++
	if s.busy {
		s.queue = append(s.queue, j)
		return
	}
	s.start(j)
}

func (s *reopenRun) start(j rjob) {
	s.busy, s.cur, s.done = true, j, s.now+j.service
}

// complete ends the job in service, starts the next and lets its user
// decide.
func (s *reopenRun) complete() {
	j := s.cur
	s.busy = false
	if s.now <= s.period {
		s.doneIn++
	}
	if j.submit <= s.period {
		s.jobsIn++
		s.respIn += s.now - j.submit
		s.waitIn += s.now - j.submit - j.service
	}
	if s.head < len(s.queue) {
		s.start(s.queue[s.head])
		s.head++
		if s.head > 1024 && s.head*2 > len(s.queue) {
			s.queue = append(s.queue[:0], s.queue[s.head:]...)
			s.head = 0
		}
	}
	s.last[j.user] = s.now
	r := s.now - j.submit
	if s.rng.Float64() < s.p.Prob(r) {
		s.cont = append(s.cont, j.service)
		s.seq++
		at := s.now + s.rng.ExpFloat64()*s.m.Think
		heap.Push(&s.think, thinkEvent{at: at, seq: s.seq, user: j.user})
		return
	}
	s.brk = append(s.brk, j.service)
}

func (s *reopenRun) result() *ReopenResult {
	n := s.m.Users
	r := &ReopenResult{Users: n, Jobs: s.total, Period: s.period}
	if s.period > 0 {
		r.Throughput = float64(s.doneIn) / s.period
		r.Utilization = s.busyTime / s.period
		r.QueueLength = s.area / s.period
		r.InSystem = s.areaSys / s.period
	}
	if s.jobsIn > 0 {
		r.Response = s.respIn / float64(s.jobsIn)
		r.Wait = s.waitIn / float64(s.jobsIn)
	}
	r.JobsPerUser = float64(s.total) / float64(n)
	r.ContinueFraction = float64(s.total-n) / float64(s.total)
	var ut, res float64
	for u := range n {
		d := s.last[u] - s.arrive[u]
		res += d
		if d > 0 {
			ut += float64(s.jobs[u]) / d
		}
	}
	r.UserThroughput = ut / float64(n)
	r.Residence = res / float64(n)
	r.Bias = biasOf(s.cont, s.brk)
	return r
}
