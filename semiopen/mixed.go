package semiopen

import (
	"errors"
	"fmt"
	"math"
)

// ErrParameter is the cause of every error about a model parameter out of
// its range; the message names the parameter and the valid range.
var ErrParameter = errors.New("semiopen: parameter out of range")

// Mixed is the mixed open/closed model of one server (Zakay's thesis,
// chapter 6, section III-A): open users arrive at rate Lambda, submit one job
// each and leave; N closed users (the argument of [Mixed.MVA]) each submit a
// job, wait for it to end, think for Think on average and submit the next.
// Jobs of both classes have the same mean service demand Service and the
// scheduler does not tell them apart. Times are in any one unit (the
// thesis uses Service = 1).
type Mixed struct {
	// Lambda is the open arrival rate, jobs per time unit, in
	// [0, 1/Service).
	Lambda float64 `json:"lambda"`
	// Think is the closed users' mean think time Z, >= 0.
	Think float64 `json:"think"`
	// Service is the mean service demand S = 1/µ, > 0.
	Service float64 `json:"service"`
}

// Validate returns an error wrapping [ErrParameter] that names the first
// parameter out of range and its valid range.
func (m Mixed) Validate() error {
	switch {
	case !(m.Service > 0) || math.IsInf(m.Service, 1):
		return fmt.Errorf("%w: service demand %v; valid: a finite number > 0", ErrParameter, m.Service)
	case !(m.Think >= 0) || math.IsInf(m.Think, 1):
		return fmt.Errorf("%w: think time %v; valid: a finite number >= 0", ErrParameter, m.Think)
	case !(m.Lambda >= 0) || m.Lambda*m.Service >= 1:
		return fmt.Errorf("%w: open arrival rate %v; valid: 0 <= lambda < 1/service = %v (the open load lambda*service must stay below 1)",
			ErrParameter, m.Lambda, 1/m.Service)
	}
	return nil
}

// MixedPoint is the solution of the mixed model for one closed population.
type MixedPoint struct {
	// N is the number of closed users.
	N int `json:"n"`
	// ClosedResponse is R_c, the mean response time of closed jobs.
	ClosedResponse float64 `json:"closed_response"`
	// ClosedThroughput is X_c = N/(Z + R_c).
	ClosedThroughput float64 `json:"closed_throughput"`
	// ClosedQueue is Q_c, the mean number of closed jobs at the server
	// (waiting or in service).
	ClosedQueue float64 `json:"closed_queue"`
	// OpenResponse is R_o, the mean response time of open jobs.
	OpenResponse float64 `json:"open_response"`
	// OpenQueue is Q_o = λ R_o.
	OpenQueue float64 `json:"open_queue"`
	// Throughput is the system throughput X = λ + X_c.
	Throughput float64 `json:"throughput"`
	// Utilization is U = S X.
	Utilization float64 `json:"utilization"`
	// Phase is the operational phase the point is closer to ([Mixed.Phase]).
	Phase Phase `json:"phase"`
}

// InflatedService returns the closed class's service time with the open
// load folded in, S_c = S/(1 - λS) (Zakay's thesis, chapter 6, section
// III-B, step 2; Lazowska et al., Quantitative System Performance, 1984,
// section 7.4.3). The model must be valid.
func (m Mixed) InflatedService() float64 { return m.Service / (1 - m.Lambda*m.Service) }

// MVA solves the mixed model for 1..n closed users by exact mean value
// analysis of the closed class, with the service time inflated by the open
// load (Zakay's thesis, chapter 6, section III-B; Lazowska et al. 1984,
// sections 6.4 and 7.4.3). For k = 1..n:
//
//	R_c(k) = S_c (1 + Q_c(k-1)),  X_c(k) = k/(Z + R_c(k)),  Q_c(k) = X_c(k) R_c(k)
//
// and the open class's response time is R_o(k) = S_c (1 + Q_c(k)). The
// result is exact for exponential service at a FCFS server (product form).
// Point k-1 of the result is the solution for k users. n = 0 gives an empty
// result; [Mixed.Open] is the pure open queue.
func (m Mixed) MVA(n int) ([]MixedPoint, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("%w: closed users %d; valid: >= 0", ErrParameter, n)
	}
	sc := m.InflatedService()
	pts := make([]MixedPoint, n)
	q := 0.0
	for k := 1; k <= n; k++ {
		r := sc * (1 + q)
		x := float64(k) / (m.Think + r)
		q = x * r
		ro := sc * (1 + q)
		p := MixedPoint{N: k, ClosedResponse: r, ClosedThroughput: x, ClosedQueue: q,
			OpenResponse: ro, OpenQueue: m.Lambda * ro, Throughput: m.Lambda + x}
		p.Utilization = m.Service * p.Throughput
		p.Phase = m.Phase(k)
		pts[k-1] = p
	}
	return pts, nil
}

// Open returns the solution without closed users: an M/M/1 queue of the
// open class, R_o = S/(1 - λS).
func (m Mixed) Open() (MixedPoint, error) {
	if err := m.Validate(); err != nil {
		return MixedPoint{}, err
	}
	ro := m.InflatedService()
	return MixedPoint{OpenResponse: ro, OpenQueue: m.Lambda * ro, Throughput: m.Lambda,
		Utilization: m.Lambda * m.Service, Phase: Partial}, nil
}
