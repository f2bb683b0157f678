package sim

import (
	"fmt"
	"strconv"
	"strings"
)

// Predictor gives runtime predictions (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, chapter 8, Listing 1). Backfilling
// schedulers plan with [View.Prediction]; the kill time stays the job's
// Estimate whatever the prediction.
//
// A prediction is given for every job on arrival. When a running job is
// still running at start + prediction (a deadline miss), Missed must return
// a new prediction greater than the elapsed time.
type Predictor interface {
	// Predict returns the prediction for job j on arrival, >= 0 seconds.
	Predict(j *Job) Time
	// Missed returns a new prediction, > m.Elapsed, for running job j that
	// has just reached its current prediction.
	Missed(j *Job, m MissInfo) Time
}

// LearningPredictor is a [Predictor] that learns from arrivals, starts and
// terminations (user history predictors such as RUH or SBH, spec section
// 13.4-13.6) and may revise the predictions of any waiting or running job.
// The engine applies the returned updates (appended to dst); a running
// job's update that does not exceed its elapsed time is treated as a
// deadline miss.
type LearningPredictor interface {
	Predictor
	// Arrived is called after Predict for the arriving job r, once r is
	// registered (v.Prediction(r) is Predict's value), so that the
	// predictor learns the job's Ref.
	Arrived(v *View, r Ref, dst []Update) []Update
	// Started is called when job r starts.
	Started(v *View, r Ref, dst []Update) []Update
	// Ended is called when job r terminates (v.End(r) is set).
	Ended(v *View, r Ref, dst []Update) []Update
}

// Update is a new prediction for a job.
type Update struct {
	Job        Ref
	Prediction Time
}

// MissInfo describes a deadline miss.
type MissInfo struct {
	// Current is the prediction just reached; Initial the prediction the
	// job had before its first miss.
	Current, Initial Time
	// Elapsed is how long the job has run (== Current at a miss).
	Elapsed Time
	// N counts the job's misses, this one included (1, 2, ...).
	N int
}

// MissPolicy chooses a new prediction after a deadline miss (spec talby
// section 13.3).
type MissPolicy interface {
	Next(j *Job, m MissInfo) Time
	String() string
}

// gradualSteps are policy G's increments, in seconds: 1 min, 5 min, 15 min,
// 30 min, 1 h, 2 h, 5 h, 10 h, 20 h, 50 h, 100 h (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, chapter 8,
// after Tsafrir, Etsion & Feitelson 2006 as implemented in predictsim).
var gradualSteps = [...]Time{60, 300, 900, 1800, 3600, 7200, 18000, 36000, 72000, 180000, 360000}

// gradualFrom returns base plus the smallest increment of policy G that
// exceeds after (after the table, multiples of 100 h are added).
func gradualFrom(base, after Time) Time {
	for _, s := range gradualSteps {
		if base+s > after {
			return base + s
		}
	}
	last := gradualSteps[len(gradualSteps)-1]
	n := (after-base-last)/last + 1
	return base + last + n*last
}

// Gradual is policy G: on each miss the prediction becomes the initial
// prediction plus the next increment of 1 min, 5 min, 15 min, 30 min, 1 h,
// 2 h, 5 h, 10 h, 20 h, 50 h, 100 h that exceeds the elapsed time, then
// further multiples of 100 h. The value is capped at the job's Estimate
// unless the cap would not exceed the elapsed time.
type Gradual struct{}

// Next implements [MissPolicy].
func (Gradual) Next(j *Job, m MissInfo) Time {
	p := gradualFrom(m.Initial, max(m.Elapsed, m.Current))
	if p > j.Estimate && j.Estimate > m.Elapsed {
		p = j.Estimate
	}
	return p
}

func (Gradual) String() string { return "gradual" }

// EstimateThenGradual is policy EG: a prediction below the Estimate is
// raised to the Estimate; beyond it, policy G applies from the Estimate.
type EstimateThenGradual struct{}

// Next implements [MissPolicy].
func (EstimateThenGradual) Next(j *Job, m MissInfo) Time {
	if m.Current < j.Estimate && j.Estimate > m.Elapsed {
		return j.Estimate
	}
	base := max(j.Estimate, m.Initial)
	if base > m.Elapsed {
		return base
	}
	return gradualFrom(base, m.Elapsed)
}

func (EstimateThenGradual) String() string { return "estimate-gradual" }

// TimesTen is policy M10: the prediction is multiplied by 10 on every miss.
// With Limit > 0 (the "balanced" variant) growth stops at Limit and policy
// G's increments take over beyond it.
type TimesTen struct {
	// Limit bounds the multiplicative growth, in seconds; 0 means none.
	Limit Time
}

// Next implements [MissPolicy].
func (p TimesTen) Next(j *Job, m MissInfo) Time {
	c := max(m.Current, 1)
	n := c * 10
	for n <= m.Elapsed {
		n *= 10
	}
	if p.Limit > 0 && n > p.Limit {
		if p.Limit > m.Elapsed {
			return p.Limit
		}
		return gradualFrom(max(p.Limit, c), m.Elapsed)
	}
	return n
}

func (p TimesTen) String() string {
	if p.Limit > 0 {
		return "times10:" + strconv.FormatInt(int64(p.Limit), 10)
	}
	return "times10"
}

// ParseMissPolicy parses "gradual" (G), "estimate-gradual" (EG), "times10"
// (M10, unbounded) or "times10:LIMIT" (seconds).
func ParseMissPolicy(s string) (MissPolicy, error) {
	switch strings.ToLower(s) {
	case "gradual", "g", "":
		return Gradual{}, nil
	case "estimate-gradual", "eg":
		return EstimateThenGradual{}, nil
	case "times10", "m10":
		return TimesTen{}, nil
	}
	if rest, ok := strings.CutPrefix(strings.ToLower(s), "times10:"); ok {
		n, err := strconv.ParseInt(rest, 10, 64)
		if err == nil && n > 0 {
			return TimesTen{Limit: Time(n)}, nil
		}
	}
	return nil, fmt.Errorf("unknown deadline-miss policy %q; valid: gradual, estimate-gradual, times10, times10:SECONDS", s)
}

// Requested predicts the job's requested time (its Estimate), the
// prediction EASY uses. Misses happen only when a job outlives its
// estimate and is not killed; Miss handles them (nil means [Gradual]).
type Requested struct {
	Miss MissPolicy
}

// Predict implements [Predictor].
func (p Requested) Predict(j *Job) Time { return j.Estimate }

// Missed implements [Predictor].
func (p Requested) Missed(j *Job, m MissInfo) Time { return missNext(p.Miss, j, m) }

// Perfect predicts the actual runtime; it never misses.
type Perfect struct{}

// Predict implements [Predictor].
func (Perfect) Predict(j *Job) Time { return j.Runtime }

// Missed implements [Predictor]. A perfect prediction is never missed; the
// method exists for completeness and applies [Gradual].
func (Perfect) Missed(j *Job, m MissInfo) Time { return missNext(nil, j, m) }

// Constant predicts the same Value for every job (1 s is the best constant,
// Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, chapter 8, Listing 2); Miss handles misses (nil means [Gradual]).
type Constant struct {
	Value Time
	Miss  MissPolicy
}

// Predict implements [Predictor].
func (p Constant) Predict(*Job) Time { return p.Value }

// Missed implements [Predictor].
func (p Constant) Missed(j *Job, m MissInfo) Time { return missNext(p.Miss, j, m) }

func missNext(p MissPolicy, j *Job, m MissInfo) Time {
	if p == nil {
		p = Gradual{}
	}
	return p.Next(j, m)
}

// ParsePredictor parses "requested", "perfect" or "constant:SECONDS"
// (package predict has the full registry, with the history predictors)
// (default 1 s); miss is the deadline-miss policy (nil means [Gradual]).
func ParsePredictor(s string, miss MissPolicy) (Predictor, error) {
	switch strings.ToLower(s) {
	case "requested", "estimate", "":
		return Requested{Miss: miss}, nil
	case "perfect":
		return Perfect{}, nil
	case "constant":
		return Constant{Value: 1, Miss: miss}, nil
	}
	if rest, ok := strings.CutPrefix(strings.ToLower(s), "constant:"); ok {
		n, err := strconv.ParseInt(rest, 10, 64)
		if err == nil && n >= 0 {
			return Constant{Value: Time(n), Miss: miss}, nil
		}
	}
	return nil, fmt.Errorf("unknown predictor %q; valid: requested, perfect, constant, constant:SECONDS", s)
}
