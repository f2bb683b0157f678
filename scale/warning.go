package scale

import (
	"fmt"
	"math"
	"slices"
)

// Warning names a property of the log that a scaling broke and says by
// how much.
type Warning struct {
	// Property is "daily cycle", "runtime distribution", "size
	// distribution", "machine" (jobs capped at it), "factor" (the factor
	// reached differs from the one asked) or "extreme load".
	Property string `json:"property"`
	Text     string `json:"text"`
}

// ExtremeLoad is the offered load from which results of naively scaled
// workloads are questionable: Talby (2006, section 4.3) finds that every
// naive method contradicts how real systems of higher load differ, so
// results at loads of 95% and more built this way cannot be trusted.
const ExtremeLoad = 0.95

// warnings lists what the scaling r of in into out broke.
func warnings(in, out *figures, r *Result, o Options, procs int) []Warning {
	var ws []Warning
	add := func(p, f string, a ...any) { ws = append(ws, Warning{p, fmt.Sprintf(f, a...)}) }
	c := r.Factor
	// The words for a higher load (c > 1) and for a lower one.
	higher, moved, gaps, longer, shorter, larger := "higher", "compressed", "shrink", "longer", "shorter", "larger"
	if c < 1 {
		higher, moved, gaps, longer, shorter, larger = "lower", "stretched", "grow", "shorter", "longer", "smaller"
	}
	switch o.Method {
	case Interarrival:
		f0, l0 := in.span()
		f1, l1 := out.span()
		add("daily cycle", "inter-arrival times divided by %s (submit times %s from the log's start): the log spans %.1f days instead of %.1f, "+
			"jobs leave their time of day and day of week (weekday 8-18h share of submissions %.1f%% -> %.1f%%) and the "+
			"gaps between a user's sessions %s by the same factor; real systems of %s load have %s, not "+
			"%s, inter-arrival times (median here %s -> %s)",
			num(c), moved, float64(l1-f1)/86400, float64(l0-f0)/86400, 100*in.dayShare(), 100*out.dayShare(),
			gaps, higher, longer, shorter, secs(in.medianInterarrival()), secs(out.medianInterarrival()))
	case Runtime:
		add("runtime distribution", "every runtime and requested time multiplied by %s (median runtime %s -> %s): "+
			"real systems of %s load have %s, not %s, runtimes, and waits now change partly because jobs are %s",
			num(c), secs(in.medianRuntime()), secs(out.medianRuntime()), higher, shorter, longer, longer)
	case Size:
		m0, p0, s0 := in.sizes()
		m1, p1, s1 := out.sizes()
		how, why := "rounded", "schedulers behave differently without the dominance of powers of two"
		if o.PowerOfTwo {
			how, why = "rounded to powers of two", "snapping to powers of two moves every other size"
		}
		add("size distribution", "every size multiplied by %s and %s (mean %.1f -> %.1f processors; power-of-two "+
			"share of parallel jobs %.1f%% -> %.1f%%; serial jobs %.1f%% -> %.1f%%): real systems of %s load have only "+
			"weakly %s jobs, and %s",
			num(c), how, m0, m1, 100*p0, 100*p1, 100*s0, 100*s1, higher, larger, why)
		if r.Capped > 0 {
			add("machine", "%d job(s) (%.2f%% of the log) would exceed the machine of %d processors and were capped at it: "+
				"their work is cut and full-machine jobs pile up", r.Capped, 100*float64(r.Capped)/float64(max(1, in.n)), procs)
		}
	}
	if math.Abs(r.Achieved-c) > 0.01*c {
		add("factor", "the offered load changed by %.4g, not %s (rounding to whole seconds or processors, serial jobs, capping)", r.Achieved, num(c))
	}
	if r.LoadAfter >= 1 {
		add("extreme load", "offered load %.3f is at or above 1: the machine cannot keep up and queues grow for the whole run; "+
			"waits and slowdowns then measure the run's length, not the scheduler", r.LoadAfter)
	} else if r.LoadAfter >= ExtremeLoad {
		add("extreme load", "offered load %.3f is at least %.0f%%: results at such loads built by naive scaling are questionable",
			r.LoadAfter, 100*ExtremeLoad)
	}
	return ws
}

func num(x float64) string { return fmt.Sprintf("%.4g", x) }

// secs formats seconds compactly.
func secs(s float64) string {
	switch {
	case math.IsNaN(s):
		return "n/a"
	case s < 120:
		return fmt.Sprintf("%.0fs", s)
	case s < 7200:
		return fmt.Sprintf("%.1fm", s/60)
	case s < 2*86400:
		return fmt.Sprintf("%.1fh", s/3600)
	}
	return fmt.Sprintf("%.1fd", s/86400)
}

// lowerMedian returns the smallest value whose cumulative fraction reaches
// 1/2, NaN for none; it sorts xs.
func lowerMedian(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	slices.Sort(xs)
	return xs[(len(xs)+1)/2-1]
}
