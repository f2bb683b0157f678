package semiopen

import "fmt"

// Phase is the operational phase of the mixed model (Zakay's thesis,
// chapter 6, section III-C).
type Phase uint8

// The phases.
const (
	// Partial utilization: N users thinking for Z cannot submit enough jobs
	// to use the capacity the open class leaves, X < µ.
	Partial Phase = iota
	// Full utilization: the closed class takes all the remaining capacity,
	// X = µ, and every added user only lengthens the queue.
	Full
)

// String returns "partial" or "full".
func (p Phase) String() string {
	if p == Full {
		return "full"
	}
	return "partial"
}

// MarshalText implements encoding.TextMarshaler.
func (p Phase) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// Capacity returns µ = 1/S, the largest throughput of the server.
func (m Mixed) Capacity() float64 { return 1 / m.Service }

// FullUtilizationResponse returns the closed response time of the full
// utilization phase, from X = µ and the interactive response time law
// X = λ + N/(R_c + Z) (Zakay's thesis, chapter 6, section III-C):
//
//	R_c = N/(µ - λ) - Z
//
// It holds without distributional assumptions once the server is saturated;
// in the partial phase the true R_c is larger (R_c > N/(µ-λ) - Z), so this is
// a lower bound on R_c for every N, which MVA approaches as N grows. The
// model must be valid.
func (m Mixed) FullUtilizationResponse(n int) float64 {
	return float64(n)/(m.Capacity()-m.Lambda) - m.Think
}

// ClosedResponseAt returns the closed response time that a system
// throughput x implies for n closed users in either phase, R_c = N/(X - λ) -
// Z (the interactive response time law, Zakay's thesis, chapter 6, section
// III-C). It needs λ < x.
func (m Mixed) ClosedResponseAt(n int, x float64) (float64, error) {
	if !(x > m.Lambda) {
		return 0, fmt.Errorf("%w: throughput %v; valid: above the open arrival rate %v", ErrParameter, x, m.Lambda)
	}
	return float64(n)/(x-m.Lambda) - m.Think, nil
}

// Knee returns N*, the number of closed users at which the asymptotic
// bounds of the closed class meet, (µ - λ)(Z + S_c): the light-load bound
// X_c <= N/(Z + S_c) and the capacity bound X_c <= µ - λ cross there
// (Lazowska et al., Quantitative System Performance, 1984, section 5.4,
// applied to the closed class with the inflated service S_c). The model
// must be valid.
func (m Mixed) Knee() float64 {
	return (m.Capacity() - m.Lambda) * (m.Think + m.InflatedService())
}

// Phase returns the phase whose operational bound is nearer for n closed
// users: Full beyond the knee ([Mixed.Knee]), Partial up to it. The model must
// be valid.
func (m Mixed) Phase(n int) Phase {
	if float64(n) > m.Knee() {
		return Full
	}
	return Partial
}

// ThroughputBound returns the asymptotic upper bound of the system
// throughput for n closed users, λ + min(N/(Z + S_c), µ - λ). The model must
// be valid.
func (m Mixed) ThroughputBound(n int) float64 {
	return m.Lambda + min(float64(n)/(m.Think+m.InflatedService()), m.Capacity()-m.Lambda)
}
