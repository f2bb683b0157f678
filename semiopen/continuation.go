package semiopen

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Continuation is the probability that a user of the re-open model submits
// another job after a job of response time r (wait plus service, in the
// model's time unit) ended (Zakay's thesis, chapter 6, section IV).
type Continuation interface {
	// Prob returns the probability, in [0, 1], for response time r >= 0.
	Prob(r float64) float64
	// String names the function as [ParseContinuation] reads it.
	String() string
}

// Constant is a continuation probability that ignores the response time
// (section IV-A). Users then submit 1/(1-P) jobs on average and the
// throughput λ/(1-P) is fixed by the workload: the model is open.
type Constant struct {
	// P is the probability, in [0, 1).
	P float64
}

// Prob implements [Continuation].
func (c Constant) Prob(float64) float64 { return c.P }

// String returns the probability, e.g. "0.36".
func (c Constant) String() string { return strconv.FormatFloat(c.P, 'g', -1, 64) }

// Exponential is p(r) = e^-r (section IV-B): 1 for an immediate response,
// falling exponentially with the response time.
type Exponential struct{}

// Prob implements [Continuation].
func (Exponential) Prob(r float64) float64 { return math.Exp(-r) }

// String returns "exp".
func (Exponential) String() string { return "exp" }

// Shmueli is Shmueli and Feitelson's hyperbola fitted to the logs of the
// Parallel Workloads Archive, p(r) = 0.8/(0.05 r + 1) with r in minutes
// (Shmueli and Feitelson's analysis of how users continue their sessions,
// as used in Zakay's thesis, chapter 6, section IV-B). The re-open model's time unit is the mean job
// runtime, which in those logs lasts a couple of minutes to about 10: the
// thesis therefore uses 10r in place of r, Scale = 10.
type Shmueli struct {
	// Scale is the number of minutes in one time unit of the model, > 0;
	// 0 means the thesis's 10.
	Scale float64
}

// Prob implements [Continuation]: 0.8/(0.05 Scale r + 1).
func (s Shmueli) Prob(r float64) float64 { return 0.8 / (0.05*s.scale()*r + 1) }

func (s Shmueli) scale() float64 {
	if s.Scale == 0 {
		return 10
	}
	return s.Scale
}

// String returns "shmueli" for the thesis's scale of 10, else
// "shmueli:SCALE".
func (s Shmueli) String() string {
	if s.scale() == 10 {
		return "shmueli"
	}
	return "shmueli:" + strconv.FormatFloat(s.Scale, 'g', -1, 64)
}

// ParseContinuation reads a continuation function: a probability in [0, 1)
// (constant p), "exp" (e^-r), "shmueli" (0.8/(0.5 r + 1), the thesis's 10r)
// or "shmueli:SCALE" (0.8/(0.05 SCALE r + 1)). Errors wrap [ErrParameter]
// and list the valid forms.
func ParseContinuation(s string) (Continuation, error) {
	const valid = "valid: a probability 0 <= p < 1, exp (p = e^-r), shmueli (p = 0.8/(0.05*10r + 1)) or shmueli:SCALE (SCALE > 0 minutes per time unit)"
	switch t := strings.ToLower(strings.TrimSpace(s)); {
	case t == "exp" || t == "exponential":
		return Exponential{}, nil
	case t == "shmueli":
		return Shmueli{}, nil
	case strings.HasPrefix(t, "shmueli:"):
		v, err := strconv.ParseFloat(t[len("shmueli:"):], 64)
		if err != nil || !(v > 0) || math.IsInf(v, 1) {
			return nil, fmt.Errorf("%w: continuation %q; %s", ErrParameter, s, valid)
		}
		return Shmueli{Scale: v}, nil
	default:
		v, err := strconv.ParseFloat(t, 64)
		if err != nil || !(v >= 0 && v < 1) {
			return nil, fmt.Errorf("%w: continuation %q; %s", ErrParameter, s, valid)
		}
		return Constant{P: v}, nil
	}
}
