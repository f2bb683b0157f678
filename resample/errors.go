package resample

import (
	"errors"
	"fmt"
)

// ErrNoUsers is returned for a log in which no job has a user ID.
var ErrNoUsers = errors.New("resample: no job has a user ID (SWF field 12 is -1 throughout); resampling recombines whole users' sub-traces, so it needs a log that records who submitted each job")

// ErrEmptyPools is returned when classification leaves no long-term and no
// temporary user.
var ErrEmptyPools = errors.New("resample: no user is left in the long-term or temporary pool")

// ShortLogError reports a log too short to classify its users.
type ShortLogError struct {
	// Weeks is the log's length and Need the long-term span, in weeks.
	Weeks, Need float64
}

func (e *ShortLogError) Error() string {
	return fmt.Sprintf("resample: the log spans %.1f weeks, but telling long-term users (active more than %.4g weeks) from temporary ones needs a longer log; use a log longer than %.4g weeks or lower the long-term span (--long-term-span)",
		e.Weeks, e.Need, e.Need)
}

// RangeError reports an option outside its valid range.
type RangeError struct {
	Name     string
	Value    string
	Min, Max string
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("resample: %s %s is out of range; valid: %s to %s", e.Name, e.Value, e.Min, e.Max)
}

// ErrNoRare is returned when RBNPW > 0 but no rare behaviour was named or detected.
var ErrNoRare = errors.New("resample: RB_NPW > 0 but the rare-behaviour pool is empty; name rare behaviours (--rare USER:BEGIN-END) or turn on the detector (--detect-rare)")
