package scale

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"

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
	c := o.Factor
	if !(c > 0) || math.IsInf(c, 0) {
		return nil, fmt.Errorf("factor %v: %w", c, ErrFactor)
	}
	before, err := OfferedLoad(t)
	if err != nil {
		return nil, err
	}
	if before == 0 {
		return nil, fmt.Errorf("%s: %w", t.Name, ErrNoWork)
	}
	out := t.Clone()
	out.Header = t.Header.Clone()
	r := &Result{Trace: out, Method: o.Method.String(), Factor: c, LoadBefore: before}
	switch o.Method {
	case Interarrival:
		scaleArrivals(out, c)
	case Runtime:
		err = scaleRuntimes(out, c)
	case Size:
		r.Capped, err = scaleSizes(out, c, o)
	default:
		return nil, fmt.Errorf("unknown method %v", o.Method)
	}
	if err != nil {
		return nil, err
	}
	for i := range out.Jobs {
		out.Jobs[i].Wait = -1
		if o.Method != Size {
			out.Jobs[i].ThinkTime = -1
		}
	}
	if r.LoadAfter, err = OfferedLoad(out); err != nil {
		return nil, err
	}
	r.Achieved = r.LoadAfter / before
	r.Warnings = warnings(t, out, r, o)
	out.Header.AddNote(fmt.Sprintf("load scaled by %s x%s: offered load %.4f -> %.4f (submit span, runnable jobs); recorded wait times set to -1",
		r.Method, strconv.FormatFloat(c, 'g', 6, 64), before, r.LoadAfter))
	for _, w := range r.Warnings {
		out.Header.AddNote("load scaling warning (" + w.Property + "): " + w.Text)
	}
	return r, nil
}

// scaleArrivals moves every submit time s to first + (s - first)/c,
// rounded to the second, where first is the earliest known submit time.
// The map is monotone, so the jobs keep their order.
func scaleArrivals(t *trace.Trace, c float64) {
	first := int64(math.MaxInt64)
	for i := range t.Jobs {
		if s := t.Jobs[i].Submit; s >= 0 {
			first = min(first, s)
		}
	}
	for i := range t.Jobs {
		j := &t.Jobs[i]
		if j.Submit >= 0 {
			j.Submit = first + int64(math.Round(float64(j.Submit-first)/c))
		}
	}
	t.Header.Delete("EndTime")
}

// scaleRuntimes multiplies the known runtimes, requested times and
// average CPU times by c, rounding the times to the second.
func scaleRuntimes(t *trace.Trace, c float64) error {
	mul := func(id int64, field string, v int64) (int64, error) {
		if v <= 0 {
			return v, nil
		}
		x := math.Round(float64(v) * c)
		if x > maxField {
			return 0, &RangeError{JobID: id, Field: field, Value: x}
		}
		return int64(x), nil
	}
	var err error
	for i := range t.Jobs {
		j := &t.Jobs[i]
		if j.Runtime, err = mul(j.ID, "runtime", j.Runtime); err != nil {
			return err
		}
		if j.ReqTime, err = mul(j.ID, "requested time", j.ReqTime); err != nil {
			return err
		}
		if j.AvgCPU > 0 {
			j.AvgCPU *= c
		}
	}
	if m, ok := t.Header.MaxRuntime(); ok && m > 0 {
		t.Header.Set("MaxRuntime", strconv.FormatInt(int64(math.Round(float64(m)*c)), 10))
	}
	t.Header.Delete("EndTime")
	return nil
}

// scaleSizes multiplies the known processor counts (allocated and
// requested) by c, rounded and at least 1, optionally snapped to a power
// of two, and capped at the machine when o.Cap is set. It returns the
// number of jobs capped.
func scaleSizes(t *trace.Trace, c float64, o Options) (int, error) {
	machine, err := t.MachineSize()
	if err != nil {
		return 0, err
	}
	capped := 0
	var over *OversizeError
	for i := range t.Jobs {
		j := &t.Jobs[i]
		hit := false
		for _, p := range []*int32{&j.Procs, &j.ReqProcs} {
			if *p <= 0 {
				continue
			}
			n := Size1(int(*p), c, o.PowerOfTwo, machine)
			if n > machine {
				hit = true
				if !o.Cap {
					if over == nil {
						over = &OversizeError{JobID: j.ID, Procs: n, Machine: machine}
					}
					continue
				}
				n = machine
			}
			*p = int32(n)
		}
		if hit {
			capped++
		}
	}
	if over != nil {
		over.Count = capped
		return 0, over
	}
	return capped, nil
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
