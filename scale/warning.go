package scale

import (
	"fmt"
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/trace"
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
func warnings(in, out *trace.Trace, r *Result, o Options) []Warning {
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
		f0, l0 := in.Span()
		f1, l1 := out.Span()
		add("daily cycle", "inter-arrival times divided by %s (submit times %s from the log's start): the log spans %.1f days instead of %.1f, "+
			"jobs leave their time of day and day of week (weekday 8-18h share of submissions %.1f%% -> %.1f%%) and the "+
			"gaps between a user's sessions %s by the same factor; real systems of %s load have %s, not "+
			"%s, inter-arrival times (median here %s -> %s)",
			num(c), moved, float64(l1-f1)/86400, float64(l0-f0)/86400, 100*dayShare(in), 100*dayShare(out),
			gaps, higher, longer, shorter, secs(medianInterarrival(in)), secs(medianInterarrival(out)))
	case Runtime:
		add("runtime distribution", "every runtime and requested time multiplied by %s (median runtime %s -> %s): "+
			"real systems of %s load have %s, not %s, runtimes, and waits now change partly because jobs are %s",
			num(c), secs(medianOf(in, func(j *trace.Job) float64 { return float64(j.Runtime) })),
			secs(medianOf(out, func(j *trace.Job) float64 { return float64(j.Runtime) })), higher, shorter, longer, longer)
	case Size:
		m0, p0, s0 := sizeFigures(in)
		m1, p1, s1 := sizeFigures(out)
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
				"their work is cut and full-machine jobs pile up", r.Capped, 100*float64(r.Capped)/float64(max(1, in.Len())), out.Procs)
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

// dayShare returns the fraction of t's submissions on weekdays between
// 08:00 and 18:00 local time.
func dayShare(t *trace.Trace) float64 {
	clk := t.Clock()
	in, all := 0, 0
	for i := range t.Jobs {
		s := t.Jobs[i].Submit
		if s < 0 {
			continue
		}
		all++
		if h := clk.HourOfWeek(s); h < 5*24 && h%24 >= 8 && h%24 < 18 {
			in++
		}
	}
	if all == 0 {
		return 0
	}
	return float64(in) / float64(all)
}

// medianOf returns the lower median (the smallest value whose cumulative
// fraction reaches 1/2) of f over t's runnable jobs, NaN for none.
func medianOf(t *trace.Trace, f func(*trace.Job) float64) float64 {
	var xs []float64
	for i := range t.Jobs {
		if j := &t.Jobs[i]; j.Runnable() {
			xs = append(xs, f(j))
		}
	}
	return lowerMedian(xs)
}

func lowerMedian(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	slices.Sort(xs)
	return xs[(len(xs)+1)/2-1]
}

// medianInterarrival returns the lower median of the intervals between
// consecutive known submit times.
func medianInterarrival(t *trace.Trace) float64 {
	var sub []int64
	for i := range t.Jobs {
		if s := t.Jobs[i].Submit; s >= 0 {
			sub = append(sub, s)
		}
	}
	slices.Sort(sub)
	var d []float64
	for i := 1; i < len(sub); i++ {
		d = append(d, float64(sub[i]-sub[i-1]))
	}
	return lowerMedian(d)
}

// sizeFigures returns the mean size of t's runnable jobs, the share of
// powers of two among the parallel ones and the share of serial jobs.
func sizeFigures(t *trace.Trace) (mean, pow2, serial float64) {
	n, par, p2, sum := 0, 0, 0, 0
	for i := range t.Jobs {
		j := &t.Jobs[i]
		if !j.Runnable() {
			continue
		}
		p := j.Processors()
		n++
		sum += p
		if p > 1 {
			par++
			if p&(p-1) == 0 {
				p2++
			}
		}
	}
	if n == 0 {
		return 0, 0, 0
	}
	if par > 0 {
		pow2 = float64(p2) / float64(par)
	}
	return float64(sum) / float64(n), pow2, float64(n-par) / float64(n)
}
