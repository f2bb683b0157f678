package feedback

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hpcwl/hpcwl/session"
)

// Model is a user model: how users react to the simulated schedule.
type Model uint8

// The user models.
const (
	// Madon is Madon's think-time replay of sessions (the default).
	Madon Model = iota
	// Adjusted is Zakay's Adjusted model: recorded think and inter-arrival
	// times between batches.
	Adjusted
	// Distribution is Zakay's distribution-based model after Shmueli and
	// Feitelson: drawn delays and daily and weekly activity windows.
	Distribution
	// Fluid is Zakay's Fluid model: batches flow into the recorded session
	// windows.
	Fluid
)

var modelNames = [...]string{"madon", "adjusted", "distribution", "fluid"}

// String returns the model's name.
func (m Model) String() string {
	if int(m) < len(modelNames) {
		return modelNames[m]
	}
	return fmt.Sprintf("Model(%d)", m)
}

// ParseModel parses madon, adjusted, distribution (or dist) and fluid.
func ParseModel(s string) (Model, error) {
	switch strings.ToLower(s) {
	case "dist", "distribution-based":
		return Distribution, nil
	}
	for i, n := range modelNames {
		if strings.EqualFold(s, n) {
			return Model(i), nil
		}
	}
	return 0, fmt.Errorf("unknown user model %q; valid: %s", s, strings.Join(modelNames[:], ", "))
}

// StartRule says when a session with several predecessors starts in
// Madon's replay (Madon, Da Costa and Pierson, Replay with Feedback, 2024, Algorithm 1).
type StartRule uint8

// The start rules.
const (
	// MaxOverEdges starts a session at the latest predecessor end plus
	// that edge's think time, over all edges (default).
	MaxOverEdges StartRule = iota
	// LastFinisher starts it at the end of the predecessor that finished
	// last plus that edge's think time.
	LastFinisher
)

// String returns "max" or "last".
func (r StartRule) String() string {
	if r == LastFinisher {
		return "last"
	}
	return "max"
}

// ParseStartRule parses "max" (MaxOverEdges) and "last" (LastFinisher).
func ParseStartRule(s string) (StartRule, error) {
	switch strings.ToLower(s) {
	case "max", "max-over-edges", "":
		return MaxOverEdges, nil
	case "last", "last-finisher":
		return LastFinisher, nil
	}
	return 0, fmt.Errorf("unknown start rule %q; valid: max (latest of predecessor end + think time over all edges), last (the last predecessor to finish, plus its think time)", s)
}

// FluidVariant chooses between the two published Fluid models (Zakay, Improved Realism and Representativeness of Workloads to Improve Reliability of Performance Evaluations, PhD thesis,
// chapter 4, section VII).
type FluidVariant uint8

// The Fluid variants.
const (
	// FluidV1 (thesis ch. 4, the default here): when a user's session
	// windows run out they are recycled from the week after the last one;
	// skipped windows are not reinserted.
	FluidV1 FluidVariant = iota
	// FluidV2 (ch. 5): an arrival past the end of its window moves to the
	// next window, and a window in which no batch arrived is reinserted one
	// week later.
	FluidV2
)

// Options configure a feedback source. The zero value is Madon's replay
// with the a60 partitioning and the transitive reduction.
type Options struct {
	// Model is the user model; default Madon.
	Model Model
	// Sessions is the session partitioning. The zero value means a60
	// (interarrival, 60 min) for Madon and Arrival at 60 min for the
	// others; set SessionsSet to use the zero Options (a0).
	Sessions    session.Options
	SessionsSet bool
	// Reduction is the dependency edge reduction; default transitive
	// (exact for feedback: it keeps every start constraint).
	Reduction session.Reduction
	// StartRule applies to Madon's replay; default MaxOverEdges.
	StartRule StartRule
	// Fluid is the Fluid variant; default FluidV1.
	Fluid FluidVariant
	// Seed seeds the Distribution and Fluid models (user u draws from
	// PCG(Seed, u's index)); the other models are deterministic.
	Seed uint64
}

// SessionOptions returns the session partitioning o uses.
func (o Options) SessionOptions() session.Options {
	if o.SessionsSet || o.Sessions != (session.Options{}) {
		return o.Sessions
	}
	if o.Model == Madon {
		return session.Default(session.Interarrival)
	}
	return session.Default(session.Arrival)
}

// ErrNoUsers is returned for a log without user IDs: nobody can react to
// the schedule.
var ErrNoUsers = errors.New("feedback: the log has no user IDs (field 12 is -1 for every job), so no user can react to the schedule; use rigid replay (--replay rigid)")
