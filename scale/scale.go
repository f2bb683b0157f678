package scale

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Method is how [Apply] changes the load.
type Method uint8

// The three naive load-scaling methods (Talby, 2006, section 4.3).
const (
	// Interarrival divides every inter-arrival time by the factor: each
	// submit time moves towards the first one, (s - first) / c.
	Interarrival Method = iota
	// Runtime multiplies every runtime and requested time (and the
	// average CPU time per processor) by the factor.
	Runtime
	// Size multiplies every processor count, allocated and requested, by
	// the factor, rounded to the nearest integer and at least 1.
	Size
)

var methodNames = [...]string{"interarrival", "runtime", "size"}

// String returns "interarrival", "runtime" or "size".
func (m Method) String() string {
	if int(m) < len(methodNames) {
		return methodNames[m]
	}
	return fmt.Sprintf("Method(%d)", m)
}

// ParseMethod parses a method's name (case-insensitive); "arrival" and
// "procs" are accepted for Interarrival and Size.
func ParseMethod(s string) (Method, error) {
	switch strings.ToLower(s) {
	case "interarrival", "inter-arrival", "arrival":
		return Interarrival, nil
	case "runtime":
		return Runtime, nil
	case "size", "procs", "parallelism":
		return Size, nil
	}
	return 0, fmt.Errorf("unknown load-scaling method %q; valid: %s", s, strings.Join(methodNames[:], ", "))
}

// Options configure [Apply].
type Options struct {
	// Method is the scaling method; default Interarrival.
	Method Method
	// Factor multiplies the offered load; it must be positive and finite.
	Factor float64
	// Cap, for Size, caps a scaled size at the machine instead of failing
	// with an [*OversizeError]; capped jobs are counted and warned of.
	Cap bool
	// PowerOfTwo, for Size, rounds every scaled size of a parallel job to
	// the nearest power of two (in log scale) that fits the machine, so
	// that the log keeps the dominance of power-of-two sizes.
	PowerOfTwo bool
}

// ErrFactor is wrapped by the errors of a factor or target load that is
// not a positive finite number.
var ErrFactor = errors.New("the load factor must be a positive finite number")

// OversizeError reports a job that size scaling makes wider than the
// machine when [Options.Cap] is not set.
type OversizeError struct {
	JobID   int64 // the job's number (SWF field 1)
	Procs   int   // its scaled size
	Machine int   // the machine's processors
	Count   int   // how many jobs would exceed the machine
}

func (e *OversizeError) Error() string {
	return fmt.Sprintf("scaling sizes makes %d job(s) wider than the machine of %d processors (the first, job %d, would need %d)",
		e.Count, e.Machine, e.JobID, e.Procs)
}

// maxField is the largest value of a 32-bit SWF field.
const maxField = math.MaxInt32

// RangeError reports a scaled value beyond what SWF can hold.
type RangeError struct {
	JobID int64
	Field string
	Value float64
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("job %d: scaled %s %.0f exceeds %d, the largest value SWF holds", e.JobID, e.Field, e.Value, maxField)
}
