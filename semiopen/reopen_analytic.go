package semiopen

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat"
)

// ReopenAnalytic is the steady state of the re-open model with a constant
// continuation probability.
type ReopenAnalytic struct {
	// Throughput is X = λ/(1-p) (section IV-A), which is also the
	// utilization in units of S (U = X S).
	Throughput  float64 `json:"throughput"`
	Utilization float64 `json:"utilization"`
	// JobsPerUser is 1/(1-p).
	JobsPerUser float64 `json:"jobs_per_user"`
	// Response = S/(1-U), Wait = Response - S, QueueLength = U²/(1-U)
	// (waiting jobs) and InSystem = U/(1-U).
	Response    float64 `json:"response"`
	Wait        float64 `json:"wait"`
	QueueLength float64 `json:"queue_length"`
	InSystem    float64 `json:"in_system"`
}

// Analytic returns the steady state of the model when Continue is a
// [Constant]. Each user then submits 1 + p + p² + ... = 1/(1-p) jobs and the
// throughput is λ/(1-p) whatever the server does (Zakay's thesis, chapter 6,
// section IV-A). With exponential service and think times the server and the
// think stage form a Jackson network, so the server is an M/M/1 queue with
// arrival rate X whatever the think time (which is why Fig. 4 finds the think
// time irrelevant). An error wrapping [ErrParameter] says when the model is
// not valid or its continuation is not constant.
func (m Reopen) Analytic() (ReopenAnalytic, error) {
	if m.Users == 0 {
		m.Users = 1 // the steady state does not depend on the run's length
	}
	if err := m.Validate(); err != nil {
		return ReopenAnalytic{}, err
	}
	c, ok := m.cont().(Constant)
	if !ok {
		return ReopenAnalytic{}, fmt.Errorf("%w: continuation %s; the analytic solution needs a constant probability", ErrParameter, m.cont())
	}
	x := m.Lambda / (1 - c.P)
	u := x * m.Service
	return ReopenAnalytic{Throughput: x, Utilization: u, JobsPerUser: 1 / (1 - c.P),
		Response: m.Service / (1 - u), Wait: m.Service * u / (1 - u),
		QueueLength: u * u / (1 - u), InSystem: u / (1 - u)}, nil
}

// ReopenSummary is the outcome of several independent runs.
type ReopenSummary struct {
	// Runs holds each run; run i drew from PCG(seed, i).
	Runs []ReopenResult `json:"runs"`
	// Mean and SD are the mean and the sample standard deviation over the
	// runs of each field (SD is 0 with one run); Bias holds the means of the
	// bias figures too.
	Mean ReopenResult `json:"mean"`
	SD   ReopenResult `json:"sd"`
}

// Replicate runs the model runs times, run i with rand.New(rand.NewPCG(seed,
// i)), and averages them (the thesis's figures are means of runs of 10,000
// users).
func (m Reopen) Replicate(ctx context.Context, seed uint64, runs int) (*ReopenSummary, error) {
	if runs < 1 {
		return nil, fmt.Errorf("%w: runs %d; valid: >= 1", ErrParameter, runs)
	}
	s := &ReopenSummary{}
	for i := range runs {
		r, err := m.Simulate(ctx, rand.New(rand.NewPCG(seed, uint64(i))))
		if err != nil {
			return nil, err
		}
		s.Runs = append(s.Runs, *r)
	}
	s.Mean, s.SD = aggregate(s.Runs)
	return s, nil
}

// fields lists pointers to the numeric fields of a result, in one order.
func fields(r *ReopenResult) []*float64 {
	return []*float64{&r.Period, &r.Throughput, &r.Utilization, &r.JobsPerUser, &r.Response, &r.Wait,
		&r.QueueLength, &r.InSystem, &r.UserThroughput, &r.Residence, &r.ContinueFraction,
		&r.Bias.Continue.Mean, &r.Bias.Continue.Median, &r.Bias.Continue.P90,
		&r.Bias.Break.Mean, &r.Bias.Break.Median, &r.Bias.Break.P90,
		&r.Bias.KS, &r.Bias.Reverse, &r.Bias.Dominance}
}

func aggregate(runs []ReopenResult) (mean, sd ReopenResult) {
	mf, sf := fields(&mean), fields(&sd)
	xs := make([]float64, len(runs))
	for k := range mf {
		for i := range runs {
			xs[i] = *fields(&runs[i])[k]
		}
		*mf[k] = stat.Mean(xs, nil)
		if len(xs) > 1 {
			*sf[k] = math.Sqrt(stat.Variance(xs, nil))
		}
	}
	for i := range runs {
		mean.Users += runs[i].Users
		mean.Jobs += runs[i].Jobs
		mean.Bias.Continue.N += runs[i].Bias.Continue.N
		mean.Bias.Break.N += runs[i].Bias.Break.N
	}
	n := len(runs)
	mean.Users, mean.Jobs = mean.Users/n, mean.Jobs/n
	mean.Bias.Continue.N, mean.Bias.Break.N = mean.Bias.Continue.N/n, mean.Bias.Break.N/n
	return mean, sd
}
