package fit

import (
	"errors"
	"fmt"
	"math"
)

// Status reports how an iterative fit ended.
type Status int

const (
	// Converged means the convergence criterion was met (closed-form
	// estimators always report it).
	Converged Status = iota
	// IterationLimit means the iteration limit was reached first; the
	// returned parameters are the last iterate and usually still usable.
	IterationLimit
	// Failure means the optimiser stopped without a usable optimum.
	Failure
)

// String returns the status name.
func (s Status) String() string {
	switch s {
	case Converged:
		return "converged"
	case IterationLimit:
		return "iteration limit"
	case Failure:
		return "failure"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Err returns nil for Converged and the matching sentinel error otherwise.
func (s Status) Err() error {
	switch s {
	case Converged:
		return nil
	case IterationLimit:
		return ErrIterationLimit
	}
	return ErrFailure
}

// MarshalText encodes the status as its name.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText decodes a status name written by MarshalText.
func (s *Status) UnmarshalText(b []byte) error {
	for _, c := range []Status{Converged, IterationLimit, Failure} {
		if string(b) == c.String() {
			*s = c
			return nil
		}
	}
	return fmt.Errorf("fit: unknown status %q", b)
}

// Sentinel errors.
var (
	// ErrIterationLimit is Status IterationLimit as an error.
	ErrIterationLimit = errors.New("fit: iteration limit reached before convergence")
	// ErrFailure is Status Failure as an error.
	ErrFailure = errors.New("fit: optimisation failed")
	// ErrTooFew is wrapped by errors about samples too small to fit.
	ErrTooFew = errors.New("fit: too few values")
	// ErrDomain is wrapped by errors about values outside a distribution's
	// support (e.g. non-positive values for a Gamma).
	ErrDomain = errors.New("fit: value outside the support")
)

// Result describes a completed fit.
type Result struct {
	// Status tells whether the fit converged.
	Status Status `json:"status"`
	// LogLikelihood is the log-likelihood of the sample (weighted sum when
	// weights were given) under the fitted parameters.
	LogLikelihood float64 `json:"log_likelihood"`
	// N is the number of values (the weight total when weighted).
	N float64 `json:"n"`
	// NumParameters is the number of free parameters estimated.
	NumParameters int `json:"num_parameters"`
	// Iterations is the number of iterations of an iterative method, 0 for
	// closed-form estimators.
	Iterations int `json:"iterations"`
}

// AIC returns Akaike's information criterion 2k − 2 ln L (smaller is better).
func (r Result) AIC() float64 { return 2*float64(r.NumParameters) - 2*r.LogLikelihood }

// BIC returns the Bayesian information criterion k ln n − 2 ln L (smaller is
// better). MCLUST reports the negative of this, 2 ln L − k ln n.
func (r Result) BIC() float64 {
	return float64(r.NumParameters)*math.Log(r.N) - 2*r.LogLikelihood
}

// Settings controls the iterative fitters. A nil *Settings means the
// defaults.
type Settings struct {
	// MaxIterations bounds the EM or optimiser iterations; default 1000.
	MaxIterations int
	// Tolerance is the relative change of the log-likelihood between
	// iterations below which EM stops, |ΔlogL| < Tolerance·|logL|; default
	// 1e-10 (EPS of lublin99.c, the reference program of Lublin and
	// Feitelson's model).
	Tolerance float64
}

func (s *Settings) maxIter() int {
	if s == nil || s.MaxIterations <= 0 {
		return 1000
	}
	return s.MaxIterations
}

func (s *Settings) tol() float64 {
	if s == nil || s.Tolerance <= 0 {
		return 1e-10
	}
	return s.Tolerance
}

// checkWeights panics (a programming error) if w is non-nil and of a
// different length than x.
func checkWeights(x, w []float64) {
	if w != nil && len(w) != len(x) {
		panic("fit: len(weights) != len(x)")
	}
}

// weight returns w[i] or 1 when w is nil.
func weight(w []float64, i int) float64 {
	if w == nil {
		return 1
	}
	return w[i]
}

// needN returns an error wrapping ErrTooFew when len(x) < n.
func needN(what string, x []float64, n int) error {
	if len(x) < n {
		return fmt.Errorf("%w: %s needs at least %d values, got %d", ErrTooFew, what, n, len(x))
	}
	return nil
}

// needPositive returns an error wrapping ErrDomain if some value is <= 0.
func needPositive(what string, x []float64) error {
	for i, v := range x {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: %s needs finite positive values, x[%d] = %v", ErrDomain, what, i, v)
		}
	}
	return nil
}

// logLik returns Σ w_i logProb(x_i) and the weight total.
func logLik(x, w []float64, logProb func(float64) float64) (ll, n float64) {
	for i, v := range x {
		wi := weight(w, i)
		if wi == 0 {
			continue
		}
		ll += wi * logProb(v)
		n += wi
	}
	return ll, n
}
