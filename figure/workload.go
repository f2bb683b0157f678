package figure

import (
	"fmt"
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/trace"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Variable is a per-job quantity of a log whose distribution CDF draws.
type Variable int

// The variables of CDF.
const (
	Runtime      Variable = iota // run time, s
	Size                         // processors
	InterArrival                 // time between consecutive submissions, s
	Wait                         // recorded wait, s
)

// Variables lists the variables of CDF in a fixed order.
var Variables = []Variable{Runtime, Size, InterArrival, Wait}

// String returns the variable's name as the command line spells it.
func (v Variable) String() string {
	switch v {
	case Runtime:
		return "runtime"
	case Size:
		return "size"
	case InterArrival:
		return "interarrival"
	case Wait:
		return "wait"
	}
	return fmt.Sprintf("Variable(%d)", int(v))
}

func (v Variable) label() string {
	switch v {
	case Runtime:
		return "runtime (s)"
	case Size:
		return "processors"
	case InterArrival:
		return "inter-arrival time (s)"
	}
	return "wait (s)"
}

// values returns the known values of v in t, unsorted.
func (v Variable) values(t *trace.Trace) []float64 {
	out := make([]float64, 0, len(t.Jobs))
	switch v {
	case InterArrival:
		subs := make([]int64, 0, len(t.Jobs))
		for i := range t.Jobs {
			if s := t.Jobs[i].Submit; s >= 0 {
				subs = append(subs, s)
			}
		}
		slices.Sort(subs)
		for i := 1; i < len(subs); i++ {
			out = append(out, float64(subs[i]-subs[i-1]))
		}
		return out
	}
	for i := range t.Jobs {
		j := &t.Jobs[i]
		var x int64
		switch v {
		case Runtime:
			x = j.Runtime
		case Size:
			x = int64(j.Processors())
		case Wait:
			x = j.Wait
		}
		if x >= 0 && (v != Size || x > 0) {
			out = append(out, float64(x))
		}
	}
	return out
}

// NoValuesError is CDF's error for a log in which no job has a known value
// of the variable (a log that records no waits, for instance).
type NoValuesError struct {
	Log      string // the log's name
	Variable Variable
}

// Error names the log and the variable.
func (e *NoValuesError) Error() string {
	return fmt.Sprintf("%s: no job with a known %s", e.Log, e.Variable)
}

// maxCDFPoints bounds the points of one CDF line: the line keeps the
// empirical CDF's steps that move it by at least 1/maxCDFPoints vertically
// or horizontally (on the log scale), which is invisible at any print size
// and keeps the figure of a 250,000-job log small.
const maxCDFPoints = 1000

// CDF draws the empirical cumulative distribution of v in each log, one line
// per log, on a logarithmic x axis (the usual view of these heavy-tailed
// variables; Feitelson 2015, section 5.2). Values below 1 (zero runtimes,
// waits and inter-arrivals) are drawn at 1. It fails when a log has no
// known value of v.
func CDF(v Variable, logs ...*trace.Trace) (*Figure, error) {
	if len(logs) == 0 {
		return nil, fmt.Errorf("figure: CDF of %s needs at least one log", v)
	}
	p := newPlot("", "", "")
	p.Title.Text = "CDF of " + v.label()
	p.X.Label.Text = v.label() + ", log scale"
	p.Y.Label.Text = "fraction of jobs"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Y.Min, p.Y.Max = 0, 1
	p.Legend.Top = false
	p.Legend.Left = false
	p.Legend.YOffs = vg.Centimeter
	f := &Figure{Plot: p}
	for i, t := range logs {
		xs := v.values(t)
		if len(xs) == 0 {
			return nil, &NoValuesError{Log: t.Name, Variable: v}
		}
		if _, err := f.addStepLine(ecdf(xs), i, 1.5, t.Name); err != nil {
			return nil, err
		}
	}
	p.Add(plotter.NewGrid())
	return f, nil
}

// ecdf returns the thinned steps of the empirical CDF of xs (sorted in
// place), each x at least 1.
func ecdf(xs []float64) plotter.XYs {
	slices.Sort(xs)
	n := float64(len(xs))
	lo, hi := math.Log(math.Max(xs[0], 1)), math.Log(math.Max(xs[len(xs)-1], 1))
	dx := (hi - lo) / maxCDFPoints
	pts := make(plotter.XYs, 0, 2*maxCDFPoints+2)
	pts = append(pts, plotter.XY{X: math.Max(xs[0], 1), Y: 0})
	last := pts[0]
	for i := 0; i < len(xs); i++ {
		if i+1 < len(xs) && xs[i+1] == xs[i] {
			continue // the CDF steps at the last of equal values
		}
		pt := plotter.XY{X: math.Max(xs[i], 1), Y: float64(i+1) / n}
		if i+1 == len(xs) || pt.Y-last.Y >= 1.0/maxCDFPoints || math.Log(pt.X)-math.Log(last.X) >= dx {
			pts = append(pts, pt)
			last = pt
		}
	}
	return pts
}

// Cycle is a period over which job arrivals repeat.
type Cycle int

// The cycles of Arrivals.
const (
	Daily  Cycle = iota // by hour of the day
	Weekly              // by hour of the week, Monday 00:00 first
)

// String returns the cycle's name as the command line spells it.
func (c Cycle) String() string {
	if c == Weekly {
		return "weekly"
	}
	return "daily"
}

// Arrivals draws the cycle of job arrivals of each log: the fraction of its
// jobs submitted in each hour of the day (Daily) or of the week (Weekly),
// in the log's local time zone (trace.Clock), one line per log.
func Arrivals(c Cycle, logs ...*trace.Trace) (*Figure, error) {
	if len(logs) == 0 {
		return nil, fmt.Errorf("figure: %s cycle needs at least one log", c)
	}
	bins, unit := 24, "hour of the day (local time)"
	if c == Weekly {
		bins, unit = 7*24, "hour of the week from Monday 00:00 (local time)"
	}
	p := newPlot("", "", "")
	p.Title.Text = c.String() + " cycle of job arrivals"
	p.X.Label.Text = unit
	p.Y.Label.Text = "fraction of jobs submitted"
	p.X.Min, p.X.Max = 0, float64(bins)
	p.Y.Min = 0
	p.Legend.Top = true
	if c == Weekly {
		ticks := make([]plot.Tick, 0, 8)
		for d, name := range []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", ""} {
			ticks = append(ticks, plot.Tick{Value: float64(24 * d), Label: name})
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
	}
	f := &Figure{Plot: p}
	for i, t := range logs {
		clock := t.Clock()
		counts := make([]float64, bins)
		n := 0
		for k := range t.Jobs {
			s := t.Jobs[k].Submit
			if s < 0 {
				continue
			}
			h := clock.HourOfDay(s)
			if c == Weekly {
				h = clock.HourOfWeek(s)
			}
			counts[h]++
			n++
		}
		if n == 0 {
			return nil, fmt.Errorf("%s: no job with a known submit time", t.Name)
		}
		pts := make(plotter.XYs, bins+1)
		for h := range counts {
			pts[h] = plotter.XY{X: float64(h), Y: counts[h] / float64(n)}
		}
		pts[bins] = plotter.XY{X: float64(bins), Y: pts[bins-1].Y}
		if _, err := f.addStepLine(pts, i, 1.5, t.Name); err != nil {
			return nil, err
		}
	}
	p.Add(plotter.NewGrid())
	return f, nil
}
