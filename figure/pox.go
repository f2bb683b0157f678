package figure

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/hpcwl/hpcwl/locality"
)

// Pox draws the pox plot of a rescaled-range analysis (Mandelbrot and
// Wallis, 1969; as Zakay and Feitelson draw it, N. Zakay, Improved Realism
// and Representativeness of Workloads to Improve Reliability of Performance
// Evaluations, PhD thesis, Hebrew University, chapter 3, section 5, Fig. 6):
// the R/S of every block against its size, both on logarithmic axes, with
// the least-squares line whose slope is the Hurst parameter H, and for
// reference a line of slope 1/2 (independent arrivals) through the same
// centre. name labels the points (the log's name); unit names the block
// unit ("hours"). It fails for an analysis without points or without a
// fitted slope (too short a series).
func Pox(name, unit string, r locality.HurstResult) (*Figure, error) {
	if len(r.Points) < 2 || math.IsNaN(r.H) {
		return nil, fmt.Errorf("%s: the series is too short for a pox plot (%d points)", name, len(r.Points))
	}
	p := newPlot("", "", "")
	p.Title.Text = fmt.Sprintf("pox plot of arrivals, H = %.3f", r.H)
	p.X.Label.Text = "block size n (" + unit + "), log scale"
	p.Y.Label.Text = "R/S, log scale"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, true
	pts := make(plotter.XYs, len(r.Points))
	lo, hi := math.Inf(1), math.Inf(-1)
	var mx, my float64
	for i, q := range r.Points {
		pts[i] = plotter.XY{X: float64(q.N), Y: q.RS}
		lo, hi = math.Min(lo, float64(q.N)), math.Max(hi, float64(q.N))
		mx += math.Log10(float64(q.N))
		my += math.Log10(q.RS)
	}
	mx /= float64(len(pts))
	my /= float64(len(pts))
	f := &Figure{Plot: p}
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, err
	}
	s.GlyphStyle.Shape = draw.CrossGlyph{}
	s.GlyphStyle.Radius = vg.Points(2)
	s.GlyphStyle.Color = plotutil.Color(0)
	p.Add(s)
	p.Legend.Add(name+" (one point per block)", s)
	f.Series++
	line := func(slope, intercept float64) plotter.XYs {
		return plotter.XYs{{X: lo, Y: math.Pow(10, intercept+slope*math.Log10(lo))}, {X: hi, Y: math.Pow(10, intercept+slope*math.Log10(hi))}}
	}
	fit, err := plotter.NewLine(line(r.H, r.Intercept))
	if err != nil {
		return nil, err
	}
	fit.Color, fit.Width = plotutil.Color(1), vg.Points(1.5)
	p.Add(fit)
	p.Legend.Add(fmt.Sprintf("least squares, slope H = %.3f", r.H), fit)
	half, err := plotter.NewLine(line(0.5, my-0.5*mx))
	if err != nil {
		return nil, err
	}
	half.Color, half.Width, half.Dashes = plotutil.Color(2), vg.Points(1), []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(half)
	p.Legend.Add("slope 1/2", half)
	f.Series += 2
	p.Add(plotter.NewGrid())
	return f, nil
}
