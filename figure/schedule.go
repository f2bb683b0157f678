package figure

import (
	"cmp"
	"fmt"
	"image/color"
	"slices"

	"github.com/hpcwl/hpcwl/sim"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Schedule is a simulated schedule with the name its figures give it (the
// scheduler's, usually).
type Schedule struct {
	Name   string
	Result *sim.Result
}

const day = 86400

// Measure is a quantity of a schedule that Over draws against time.
type Measure int

// The measures of Over.
const (
	// Utilization is the busy processor-time in each step over the
	// machine's processor-time.
	Utilization Measure = iota
	// QueueLength is the mean number of jobs waiting (submitted, not yet
	// started) during each step.
	QueueLength
)

// String returns the measure's name as the command line spells it.
func (m Measure) String() string {
	if m == QueueLength {
		return "queue"
	}
	return "utilization"
}

// DefaultStep returns the step Over uses when given none: the whole hours
// closest above the schedules' span divided by 200, at least one hour.
func DefaultStep(runs ...Schedule) int64 {
	var last int64
	for _, r := range runs {
		for i := range r.Result.Jobs {
			last = max(last, int64(r.Result.Jobs[i].End), int64(r.Result.Jobs[i].Submit))
		}
	}
	hours := (last/200 + 3599) / 3600
	return max(hours, 1) * 3600
}

// Over draws m of each schedule per step seconds of simulated time, the
// steps starting at time 0, one line per schedule. Both measures are exact
// time averages over each step. step <= 0 means DefaultStep.
func Over(m Measure, step int64, runs ...Schedule) (*Figure, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("figure: %s over time needs at least one schedule", m)
	}
	if step <= 0 {
		step = DefaultStep(runs...)
	}
	p := newPlot("", "", "")
	p.X.Label.Text = "simulated time (days)"
	p.Y.Min = 0
	switch m {
	case Utilization:
		p.Title.Text = fmt.Sprintf("utilization per %s", stepText(step))
		p.Y.Label.Text = "utilization"
		p.Y.Max = 1
	case QueueLength:
		p.Title.Text = fmt.Sprintf("queue length, mean per %s", stepText(step))
		p.Y.Label.Text = "jobs waiting"
	}
	f := &Figure{Plot: p}
	for i, r := range runs {
		if r.Result == nil || len(r.Result.Jobs) == 0 {
			return nil, fmt.Errorf("%s: the schedule holds no job", r.Name)
		}
		if m == Utilization && r.Result.Procs <= 0 {
			return nil, fmt.Errorf("%s: the machine size is unknown", r.Name)
		}
		sums := binned(r.Result, m, step)
		pts := make(plotter.XYs, len(sums)+1)
		for b, s := range sums {
			y := s / float64(step)
			if m == Utilization {
				y /= float64(r.Result.Procs)
			}
			pts[b] = plotter.XY{X: float64(int64(b)*step) / day, Y: y}
		}
		pts[len(sums)] = plotter.XY{X: float64(int64(len(sums))*step) / day, Y: pts[len(sums)-1].Y}
		if _, err := f.addStepLine(pts, i, 1, r.Name); err != nil {
			return nil, err
		}
	}
	p.Add(plotter.NewGrid())
	return f, nil
}

// binned integrates m over each step: processors x seconds running
// (Utilization) or jobs x seconds waiting (QueueLength).
func binned(r *sim.Result, m Measure, step int64) []float64 {
	var last int64
	for i := range r.Jobs {
		last = max(last, int64(r.Jobs[i].End), int64(r.Jobs[i].Start), int64(r.Jobs[i].Submit))
	}
	sums := make([]float64, last/step+1)
	for i := range r.Jobs {
		o := &r.Jobs[i]
		var a, b int64
		w := 1.0
		switch {
		case o.Start < 0: // never started: waiting to the end
			if m == Utilization {
				continue
			}
			a, b = int64(o.Submit), last
		case m == Utilization:
			a, b, w = int64(o.Start), int64(o.End), float64(o.Procs)
		default:
			a, b = int64(o.Submit), int64(o.Start)
		}
		for a < b {
			k := a / step
			end := min(b, (k+1)*step)
			sums[k] += w * float64(end-a)
			a = end
		}
	}
	return sums
}

func stepText(step int64) string {
	unit := func(n int64, one string) string {
		if n == 1 {
			return one
		}
		return fmt.Sprintf("%d %ss", n, one)
	}
	switch {
	case step%(7*day) == 0:
		return unit(step/(7*day), "week")
	case step%day == 0:
		return unit(step/day, "day")
	case step%3600 == 0:
		return unit(step/3600, "hour")
	}
	return fmt.Sprintf("%d s", step)
}

// MaxGanttJobs bounds the jobs of a Gantt chart: beyond it the bars would
// be too thin to see; choose a shorter window.
const MaxGanttJobs = 5000

// Gantt draws the jobs of a schedule that run during [from, from+length):
// time across, processors up, one bar per job. The simulator does not place
// jobs on processors, so the chart does: in order of start (then job ID),
// each job takes the lowest free processors, a contiguous block when one
// is free, and is drawn as one bar per contiguous run of its processors.
func Gantt(r Schedule, from, length int64) (*Figure, error) {
	if length <= 0 {
		return nil, fmt.Errorf("figure: the Gantt window must be longer than 0 s")
	}
	res := r.Result
	if res == nil || res.Procs <= 0 {
		return nil, fmt.Errorf("%s: the machine size is unknown", r.Name)
	}
	to := from + length
	var jobs []*sim.Outcome
	for i := range res.Jobs {
		o := &res.Jobs[i]
		if o.Start >= 0 && int64(o.Start) < to && int64(o.End) > from && o.End > o.Start {
			jobs = append(jobs, o)
		}
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("%s: no job runs between %d s and %d s", r.Name, from, to)
	}
	if len(jobs) > MaxGanttJobs {
		return nil, fmt.Errorf("%s: %d jobs run between %d s and %d s, more than a Gantt chart shows (%d); choose a shorter window",
			r.Name, len(jobs), from, to, MaxGanttJobs)
	}
	slices.SortFunc(jobs, func(a, b *sim.Outcome) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.ID, b.ID))
	})
	bars, err := place(jobs, res.Procs, from, to)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Name, err)
	}
	p := newPlot("", "", "")
	p.Title.Text = fmt.Sprintf("%s: schedule from day %.2f to day %.2f (%d jobs)", r.Name,
		float64(from)/day, float64(to)/day, len(jobs))
	p.X.Label.Text = "simulated time (days)"
	p.Y.Label.Text = "processor"
	p.X.Min, p.X.Max = float64(from)/day, float64(to)/day
	p.Y.Min, p.Y.Max = 0, float64(res.Procs)
	p.Add(bars)
	return &Figure{Plot: p, Series: 1}, nil
}

// ganttBars is a plotter of rectangles (time x processors).
type ganttBars struct {
	rects []ganttRect
}

type ganttRect struct {
	x0, x1, y0, y1 float64
	color          color.Color
}

// place assigns processors to jobs (sorted by start) and returns their bars,
// clipped to [from, to).
func place(jobs []*sim.Outcome, procs int, from, to int64) (*ganttBars, error) {
	freeAt := make([]int64, procs) // when each processor becomes free
	for i := range freeAt {
		freeAt[i] = -1 << 62
	}
	bars := &ganttBars{}
	owner := make([]bool, procs)
	for n, o := range jobs {
		start, end, need := int64(o.Start), int64(o.End), int(o.Procs)
		clear(owner)
		// first contiguous block of free processors, else the lowest free
		run, at := 0, -1
		for k := 0; k < procs && at < 0; k++ {
			if freeAt[k] <= start {
				run++
				if run == need {
					at = k - need + 1
				}
			} else {
				run = 0
			}
		}
		if at >= 0 {
			for k := at; k < at+need; k++ {
				owner[k] = true
			}
		} else {
			got := 0
			for k := 0; k < procs && got < need; k++ {
				if freeAt[k] <= start {
					owner[k] = true
					got++
				}
			}
			if got < need {
				return nil, fmt.Errorf("job %d needs %d processors at %d s but only %d are free: the schedule overcommits the machine",
					o.ID, need, start, got)
			}
		}
		c := plotutil.Color(n)
		x0, x1 := float64(max(start, from))/day, float64(min(end, to))/day
		for k := 0; k < procs; k++ {
			if !owner[k] {
				continue
			}
			freeAt[k] = end
			if k > 0 && owner[k-1] {
				bars.rects[len(bars.rects)-1].y1 = float64(k + 1)
				continue
			}
			bars.rects = append(bars.rects, ganttRect{x0: x0, x1: x1, y0: float64(k), y1: float64(k + 1), color: c})
		}
	}
	return bars, nil
}

// Plot implements plot.Plotter.
func (g *ganttBars) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	edge := draw.LineStyle{Color: color.Black, Width: vg.Points(0.25)}
	for _, r := range g.rects {
		pts := []vg.Point{
			{X: tx(r.x0), Y: ty(r.y0)}, {X: tx(r.x1), Y: ty(r.y0)},
			{X: tx(r.x1), Y: ty(r.y1)}, {X: tx(r.x0), Y: ty(r.y1)},
		}
		c.FillPolygon(r.color, c.ClipPolygonXY(pts))
		c.StrokeLines(edge, c.ClipLinesXY(append(pts, pts[0]))...)
	}
}

// DataRange implements plot.DataRanger.
func (g *ganttBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = g.rects[0].x0, g.rects[0].y0
	xmax, ymax = g.rects[0].x1, g.rects[0].y1
	for _, r := range g.rects[1:] {
		xmin, xmax = min(xmin, r.x0), max(xmax, r.x1)
		ymin, ymax = min(ymin, r.y0), max(ymax, r.y1)
	}
	return
}

// Waits draws the empirical CDF of the simulated waits of each schedule,
// one line per schedule, on a logarithmic x axis (waits below 1 s drawn at
// 1 s), as CDF draws a log's recorded waits. Jobs that never started are
// left out. It fails for a schedule without a started job.
func Waits(runs ...Schedule) (*Figure, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("figure: waits need at least one schedule")
	}
	p := newPlot("CDF of simulated wait (s)", "wait (s), log scale", "fraction of jobs")
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Y.Min, p.Y.Max = 0, 1
	p.Legend.Top, p.Legend.Left = false, false
	p.Legend.YOffs = vg.Centimeter
	f := &Figure{Plot: p}
	for i, r := range runs {
		xs := make([]float64, 0, len(r.Result.Jobs))
		for k := range r.Result.Jobs {
			if o := &r.Result.Jobs[k]; o.Start >= 0 {
				xs = append(xs, float64(o.Wait()))
			}
		}
		if len(xs) == 0 {
			return nil, fmt.Errorf("figure: schedule %s: no job started", r.Name)
		}
		if _, err := f.addStepLine(ecdf(xs), i, 1.5, r.Name); err != nil {
			return nil, err
		}
	}
	p.Add(plotter.NewGrid())
	return f, nil
}
