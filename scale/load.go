package scale

import (
	"errors"
	"fmt"
	"math"

	"github.com/hpcwl/hpcwl/trace"
)

// ErrNoPeriod is returned for a log whose runnable jobs are all submitted
// at one instant, or that has none: its offered load is undefined.
var ErrNoPeriod = errors.New("the offered load is undefined: the runnable jobs span no time (fewer than two distinct submit times)")

// ErrNoWork is returned for a log whose runnable jobs all have a runtime
// of 0: no factor changes its load.
var ErrNoWork = errors.New("the jobs hold no work (every runtime is 0): no factor changes the load")

// OfferedLoad returns the offered load of t: the processor time of its
// runnable jobs (runtime x processors) over the machine's processors times
// the span from the first to the last runnable submission. It is the load
// [Apply] multiplies. It fails when the machine size is unknown or the
// jobs span no time.
func OfferedLoad(t *trace.Trace) (float64, error) {
	procs, err := t.MachineSize()
	if err != nil {
		return 0, err
	}
	area, first, last := work(t)
	if last <= first {
		return 0, fmt.Errorf("%s: %w", t.Name, ErrNoPeriod)
	}
	return area / (float64(procs) * float64(last-first)), nil
}

// work returns the processor-seconds of t's runnable jobs and the first
// and last of their submit times.
func work(t *trace.Trace) (area float64, first, last int64) {
	first, last = math.MaxInt64, math.MinInt64
	for i := range t.Jobs {
		j := &t.Jobs[i]
		if !j.Runnable() {
			continue
		}
		area += j.Area()
		first, last = min(first, j.Submit), max(last, j.Submit)
	}
	return area, first, last
}

// FactorFor returns the factor that takes t's offered load to target: the
// target over [OfferedLoad]. Size scaling with rounding or capping reaches
// it only approximately ([Result.LoadAfter] says how closely).
func FactorFor(t *trace.Trace, target float64) (float64, error) {
	if !(target > 0) || math.IsInf(target, 0) {
		return 0, fmt.Errorf("target load %v: %w", target, ErrFactor)
	}
	l, err := OfferedLoad(t)
	if err != nil {
		return 0, err
	}
	if l == 0 {
		return 0, fmt.Errorf("%s: %w", t.Name, ErrNoWork)
	}
	return target / l, nil
}
