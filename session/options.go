package session

import (
	"fmt"
	"strings"
)

// Method is a way of cutting a user's jobs into sessions and batches.
type Method uint8

// The session identification methods (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis, chapter 2;
// Madon, Da Costa and Pierson, Replay with Feedback, 2024).
const (
	// Arrival: same session iff the inter-arrival time is <= Threshold;
	// batches by the Max rule within the session (Zakay, recommended).
	Arrival Method = iota
	// Last: think time from the end of the previous job of the user.
	Last
	// Max: think time from the latest end of all earlier jobs of the user.
	Max
	// LastCut: Last with every end cut at arrival + Cut.
	LastCut
	// MaxCut: Max with every end cut at arrival + Cut.
	MaxCut
	// Interarrival: Madon's partitioning, a new session iff the
	// inter-arrival time is >= Threshold (so a threshold of 0 puts every
	// job in its own session); batches as for Arrival.
	Interarrival
)

var methodNames = [...]string{"arrival", "last", "max", "last+cut", "max+cut", "interarrival"}

// String returns the method's name as [ParseMethod] accepts it.
func (m Method) String() string {
	if int(m) < len(methodNames) {
		return methodNames[m]
	}
	return fmt.Sprintf("Method(%d)", m)
}

// ParseMethod parses a method name (case-insensitive): arrival, last, max,
// last+cut, max+cut, interarrival (also "madon").
func ParseMethod(s string) (Method, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "arrival":
		return Arrival, nil
	case "last":
		return Last, nil
	case "max":
		return Max, nil
	case "last+cut", "lastcut", "last-cut":
		return LastCut, nil
	case "max+cut", "maxcut", "max-cut":
		return MaxCut, nil
	case "interarrival", "madon":
		return Interarrival, nil
	}
	return 0, fmt.Errorf("unknown session method %q; valid: %s", s, strings.Join(methodNames[:], ", "))
}

// Options choose a method and its parameters. The fields have no implicit
// defaults, because a zero threshold is meaningful (Madon's a0); start from
// [Default] for the published values.
type Options struct {
	// Method is the identification method.
	Method Method
	// Threshold is the session threshold in seconds, >= 0: the largest
	// inter-arrival time inside a session for Arrival, the smallest one
	// that starts a new session for Interarrival, the largest think time
	// inside a session for the others.
	Threshold int64
	// Cut is the cut of the LastCut and MaxCut methods in seconds, > 0;
	// other methods ignore it.
	Cut int64
}

// Default returns the published parameters of method m: 60 min for Arrival
// and Interarrival (Zakay Definition 1; Madon's a60), 20 min for the
// think-time methods (Zakay section 4.2) and a cut of 1 h for the cut
// variants (section 4.4).
func Default(m Method) Options {
	switch m {
	case Arrival, Interarrival:
		return Options{Method: m, Threshold: 3600}
	case LastCut, MaxCut:
		return Options{Method: m, Threshold: 1200, Cut: 3600}
	}
	return Options{Method: m, Threshold: 1200}
}

// Validate reports a bad combination of options.
func (o Options) Validate() error {
	if int(o.Method) >= len(methodNames) {
		return fmt.Errorf("session: unknown method %d", o.Method)
	}
	if o.Threshold < 0 {
		return fmt.Errorf("session threshold %d s: must be >= 0", o.Threshold)
	}
	if (o.Method == LastCut || o.Method == MaxCut) && o.Cut <= 0 {
		return fmt.Errorf("the %s method needs a cut > 0, got %d s", o.Method, o.Cut)
	}
	return nil
}

// String returns the options in the form [ParseSpec] accepts, such as
// "arrival:1h", "a0" or "max+cut:20m:1h".
func (o Options) String() string {
	switch o.Method {
	case Interarrival:
		if o.Threshold%60 == 0 {
			return fmt.Sprintf("a%d", o.Threshold/60)
		}
	case LastCut, MaxCut:
		return fmt.Sprintf("%s:%s:%s", o.Method, FormatDuration(o.Threshold), FormatDuration(o.Cut))
	}
	return fmt.Sprintf("%s:%s", o.Method, FormatDuration(o.Threshold))
}

const specForms = `METHOD[:THRESHOLD[:CUT]] with METHOD arrival, last, max, last+cut, max+cut or interarrival ` +
	`and durations such as 20m or 1h (e.g. arrival:60m, max+cut:20m:1h), or aN for Madon's interarrival partitioning ` +
	`with an N-minute threshold (a0, a60)`

// ParseSpec parses a session specification: "arrival:60m", "last:20m",
// "max+cut:20m:1h", "interarrival:1h", or Madon's shorthands "a0" and
// "a60" (aN: interarrival with an N-minute threshold). A missing threshold
// or cut takes the [Default] value.
func ParseSpec(s string) (Options, error) {
	in := strings.ToLower(strings.TrimSpace(s))
	if len(in) > 1 && in[0] == 'a' && in[1] >= '0' && in[1] <= '9' {
		sec, err := ParseDuration(in[1:] + "m")
		if err != nil {
			return Options{}, fmt.Errorf("bad session specification %q; use %s", s, specForms)
		}
		return Options{Method: Interarrival, Threshold: sec}, nil
	}
	parts := strings.Split(in, ":")
	if len(parts) > 3 {
		return Options{}, fmt.Errorf("bad session specification %q; use %s", s, specForms)
	}
	m, err := ParseMethod(parts[0])
	if err != nil {
		return Options{}, fmt.Errorf("%w; a specification is %s", err, specForms)
	}
	o := Default(m)
	if len(parts) > 1 {
		if o.Threshold, err = ParseDuration(parts[1]); err != nil {
			return Options{}, fmt.Errorf("session threshold: %w", err)
		}
	}
	if len(parts) > 2 {
		if m != LastCut && m != MaxCut {
			return Options{}, fmt.Errorf("bad session specification %q: only last+cut and max+cut take a cut", s)
		}
		if o.Cut, err = ParseDuration(parts[2]); err != nil {
			return Options{}, fmt.Errorf("session cut: %w", err)
		}
	}
	return o, o.Validate()
}
