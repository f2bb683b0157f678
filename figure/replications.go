package figure

import (
	"fmt"
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/replicate"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Replications draws the histogram of a metric (one of
// replicate.MetricNames) across the variants of r, saturated variants left
// out as in r's summary, with the original log's value marked by a vertical
// line (Zakay, PhD thesis, 2018, chapter 3, section 6: where the original
// falls in the variants' spread). bins <= 0 means the square root of the
// number of variants, at least 5.
func Replications(r *replicate.Result, metric string, bins int) (*Figure, error) {
	if !slices.Contains(replicate.MetricNames, metric) {
		return nil, fmt.Errorf("figure: unknown metric %q; valid: %v", metric, replicate.MetricNames)
	}
	var vals plotter.Values
	for i := range r.Variants {
		if v := r.Variants[i].Value(metric); !r.Variants[i].Saturated && !math.IsNaN(v) && !math.IsInf(v, 0) {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		return nil, fmt.Errorf("figure: no unsaturated variant has a value of %s", metric)
	}
	if bins <= 0 {
		bins = max(5, int(math.Ceil(math.Sqrt(float64(len(vals))))))
	}
	p := newPlot("", "", "")
	p.Title.Text = fmt.Sprintf("%s across %d variants", metric, len(vals))
	p.X.Label.Text = metric
	p.Y.Label.Text = "variants"
	p.Legend.Top = true
	h, err := plotter.NewHist(vals, bins)
	if err != nil {
		return nil, err
	}
	h.FillColor = plotutil.Color(0)
	p.Add(h)
	p.Legend.Add("variants", h)
	f := &Figure{Plot: p, Series: 1}
	orig := r.Original.Value(metric)
	if r.Original.Jobs > 0 && !math.IsNaN(orig) && !math.IsInf(orig, 0) {
		top := 0.0
		for _, b := range h.Bins {
			top = max(top, b.Weight)
		}
		l, err := plotter.NewLine(plotter.XYs{{X: orig, Y: 0}, {X: orig, Y: top}})
		if err != nil {
			return nil, err
		}
		l.Color = plotutil.Color(1)
		l.Width = vg.Points(2)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("original log: %.4g", orig), l)
		f.Series++
	}
	return f, nil
}
