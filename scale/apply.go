package scale

import (
	"math"
	"math/bits"

	"github.com/hpcwl/hpcwl/trace"
)

// Result is a scaled log and what the scaling did to it.
type Result struct {
	// Trace is the scaled log. Its recorded wait times are unknown (-1):
	// the recorded schedule does not fit the new load. Interarrival and
	// Runtime also make the think times (SWF field 18) unknown, and drop
	// the header's EndTime, which no longer holds.
	Trace *trace.Trace `json:"-"`
	// Method and Factor are the scaling asked for.
	Method string  `json:"method"`
	Factor float64 `json:"factor"`
	// LoadBefore and LoadAfter are the offered loads ([OfferedLoad]) of
	// the log and of the scaled log; Achieved is their ratio, the factor
	// actually reached (rounding, sizes of 1 scaled down, capping).
	LoadBefore float64 `json:"offered_load_before"`
	LoadAfter  float64 `json:"offered_load_after"`
	Achieved   float64 `json:"achieved_factor"`
	// Capped counts the jobs whose scaled size was capped at the machine
	// (Size with Cap).
	Capped int `json:"capped"`
	// Warnings name the properties of the log the scaling broke.
	Warnings []Warning `json:"warnings"`
}

// Apply returns t scaled by o (t is not modified). It fails when the
// factor is not positive and finite, when the offered load is undefined
// (see [OfferedLoad]) or zero ([ErrNoWork]), when size scaling makes a job wider than the
// machine and o.Cap is not set ([*OversizeError]), and when a scaled value
// exceeds what SWF holds ([*RangeError]).
func Apply(t *trace.Trace, o Options) (*Result, error) {
	s := NewStream(t.Name, &t.Header, t.Procs, o)
	for i := range t.Jobs {
		s.Measure(&t.Jobs[i])
	}
	if err := s.Start(0); err != nil {
		return nil, err
	}
	out := t.Clone()
	for i := range out.Jobs {
		if err := s.Scale(&out.Jobs[i]); err != nil {
			return nil, err
		}
	}
	r, h, err := s.Finish(&t.Header)
	if err != nil {
		return nil, err
	}
	out.Header = h
	r.Trace = out
	return r, nil
}

// Size1 returns a size p scaled by c: round(p*c), at least 1; with pow2,
// a result above 1 moves to the nearest power of two in log scale, the
// largest power of two within machine when it would exceed it and p*c
// does not. The result may exceed machine (and math.MaxInt32 is its
// ceiling); callers cap or refuse it.
func Size1(p int, c float64, pow2 bool, machine int) int {
	x := math.Max(1, math.Round(float64(p)*c))
	if x > maxField {
		x = maxField
	}
	n := int(x)
	if pow2 && n > 1 {
		k := math.Round(math.Log2(float64(p) * c))
		q := int(math.Pow(2, math.Min(k, 30)))
		if q > machine && float64(p)*c <= float64(machine) {
			q = 1 << (bits.Len(uint(machine)) - 1)
		}
		n = q
	}
	return n
}
