package figure

import (
	"fmt"
	"slices"

	"github.com/hpcwl/hpcwl/feedback"
	"github.com/hpcwl/hpcwl/trace"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// maxCurvePoints bounds the points of one cumulative curve (see
// cumulative).
const maxCurvePoints = 2000

// Submissions draws the submission and termination curves of a rigid
// replay and of a replay with feedback of the log t (Madon et al., 2024,
// Figs. 2 and 3): the number of jobs submitted, and ended, by each time.
// The rigid replay submits at the recorded times, so its submission curve
// is the log's; with feedback the users submit later when the simulated
// system is slower. rigid must come from feedback.Rigid and fb from
// feedback.Simulate on t.
func Submissions(t *trace.Trace, rigid, fb *feedback.Run) (*Figure, error) {
	if rigid == nil || fb == nil || fb.Source == nil {
		return nil, fmt.Errorf("figure: submission curves need a rigid and a feedback run")
	}
	var recorded, fbSubmits []int64
	for i := range t.Jobs {
		if s := t.Jobs[i].Submit; s >= 0 {
			recorded = append(recorded, s)
		}
	}
	for _, s := range fb.Source.Submitted() {
		if s >= 0 {
			fbSubmits = append(fbSubmits, int64(s))
		}
	}
	ends := func(r *feedback.Run) []int64 {
		out := make([]int64, 0, len(r.Result.Jobs))
		for _, o := range r.Result.Jobs {
			if o.End >= 0 {
				out = append(out, int64(o.End))
			}
		}
		return out
	}
	p := newPlot("", "", "")
	p.Title.Text = t.Name + ": submissions and terminations"
	p.X.Label.Text = "simulated time (days)"
	p.Y.Label.Text = "jobs"
	p.Legend.Top = true
	p.Legend.Left = true
	f := &Figure{Plot: p}
	series := []struct {
		name  string
		times []int64
		dash  bool
	}{
		{"submitted, rigid (recorded)", recorded, false},
		{"submitted, feedback", fbSubmits, false},
		{"ended, rigid", ends(rigid), true},
		{"ended, feedback", ends(fb), true},
	}
	for i, s := range series {
		if len(s.times) == 0 {
			continue
		}
		l, err := f.addStepLine(cumulative(s.times), i%2, 1.5, s.name)
		if err != nil {
			return nil, err
		}
		if s.dash {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
	}
	if f.Series == 0 {
		return nil, fmt.Errorf("%s: no job was submitted", t.Name)
	}
	p.Add(plotter.NewGrid())
	return f, nil
}

// cumulative returns the running count of times (sorted in place) as a
// step curve in days, thinned to about maxCurvePoints points: a point is
// kept when the count grew by 1/maxCurvePoints of the total since the last
// one kept, or time moved by 1/maxCurvePoints of the span.
func cumulative(times []int64) plotter.XYs {
	slices.Sort(times)
	n := len(times)
	span := times[n-1] - times[0]
	pts := make(plotter.XYs, 0, 2*maxCurvePoints+2)
	pts = append(pts, plotter.XY{X: float64(times[0]) / day, Y: 0})
	lastT, lastN := times[0], 0
	for i := 0; i < n; i++ {
		if i+1 < n && times[i+1] == times[i] {
			continue
		}
		if i+1 == n || (i+1-lastN)*maxCurvePoints >= n || (times[i]-lastT)*maxCurvePoints >= span {
			pts = append(pts, plotter.XY{X: float64(times[i]) / day, Y: float64(i + 1)})
			lastT, lastN = times[i], i+1
		}
	}
	return pts
}
