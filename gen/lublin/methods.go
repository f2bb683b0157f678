package lublin

import (
	"fmt"
	"math"
)

// ArrivalMethod selects how the peak-hour interarrival distribution is
// combined with the daily cycle (Lublin and Feitelson, The workload on
// parallel supercomputers, JPDC 63(11), 2003, section 7.3). The paper's
// method 2 (expected time slots) is not offered: it leaves the probability
// Pr(k) of its iteration undefined, and the readings we tried either collapse
// (a slot whose interarrivals all end within it gets a zero scale) or give a
// daily cycle twelve times further from the target than method 3
// (docs/validation.md).
type ArrivalMethod string

const (
	// SlotWeight is the paper's chosen method 3 and the reference program's:
	// interarrivals are virtual seconds, and a half-hour slot holds 1800·w(t)/w̄
	// of them. Default.
	SlotWeight ArrivalMethod = "slot-weight"
	// ExpectedInterarrival is the paper's method 1 (rejected there): after an
	// arrival in slot t the next interarrival is e^x, x ~ Gamma(α, β(t)),
	// with β(t) = β + ln(w̄/w(t))/α, so that the mean of ln interarrival
	// follows the slot's weight.
	ExpectedInterarrival ArrivalMethod = "expected-interarrival"
)

// ArrivalMethods lists the valid arrival methods.
var ArrivalMethods = []ArrivalMethod{SlotWeight, ExpectedInterarrival}

// ExpectedInterarrivalBetas returns β(t) of method 1 for each half-hour slot
// (slot 0 = 00:00-00:30): β + ln(w̄/w(t))/α with α = AArr·ARAR, β = BArr and w
// the daily weights of [DailyWeights] (mean w̄ = 1). Lublin and Feitelson
// (2003), section 7.3.
func ExpectedInterarrivalBetas(t TypeParams) ([buckets]float64, error) {
	w := DailyWeights(t.ANum, t.BNum)
	a := t.AArr * t.ARAR
	var b [buckets]float64
	for i := range b {
		b[i] = t.BArr - math.Log(w[i])/a
		if !(b[i] > 0) {
			return b, fmt.Errorf("%w: arrival method %s: slot %d has weight %.3g, which makes its Gamma scale %.3g non-positive", ErrInvalidParams, ExpectedInterarrival, i, w[i], b[i])
		}
	}
	return b, nil
}
