package metamodel

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/summary"
)

// TestAgreeByHand works the agreement of small groups out by hand: R² on
// the values and on their logarithms, and the median of predicted/measured
// over the pairs where both are positive (the mean of the middle two for an
// even count).
func TestAgreeByHand(t *testing.T) {
	c := func(v string, p, m float64) Comparison {
		return Comparison{Model: JDCm, Variable: v, Predicted: p, Measured: m}
	}
	nan := math.NaN()
	for _, tc := range []struct {
		name   string
		cs     []Comparison
		logs   int
		r2     float64
		logR2  float64
		median float64
	}{
		// Measured 10, 22, 30 (mean 62/3), predicted 10, 20, 30:
		// residuals 4, total 608/3, R² = 1 - 12/608. On ln: residual
		// ln(1.1)², total 0.641603, R² 0.985842.
		{"three logs", []Comparison{c("Am", 10, 10), c("Am", 20, 22), c("Am", 30, 30)}, 3, 1 - 12.0/608, 0.9858416725, 1},
		// Ratios 0.5, 10/11, 1, 1: median (10/11 + 1) / 2.
		// Measured mean 18: residuals 29, total 288.
		{"even count", []Comparison{c("Am", 10, 10), c("Am", 20, 22), c("Am", 30, 30), c("Am", 5, 10)}, 4,
			1 - 29.0/288, 0.4783034991, (10.0/11 + 1) / 2},
		// A measured 0 and a predicted 0 leave the ratios (and ln) out:
		// ratios 1 and 2, median 1.5. R²: measured 0, 10, 10 (mean 20/3,
		// total 600/9), residuals 125; measured 5, 10, 10 (total 150/9).
		{"zero measured", []Comparison{c("Ci", 5, 0), c("Ci", 10, 10), c("Ci", 20, 10)}, 3, 1 - 125/(600.0/9), nan, 1.5},
		{"zero predicted", []Comparison{c("Ci", 0, 5), c("Ci", 10, 10), c("Ci", 20, 10)}, 3, 1 - 125/(150.0/9), nan, 1.5},
		// No positive pair: no ratio, no ln; all measured equal: no R².
		{"no positive pair", []Comparison{c("Pm", -1, -2), c("Pm", -3, -2)}, 2, nan, nan, 0},
		// NaN values are left out.
		{"NaN left out", []Comparison{c("UJ", 2, 2), c("UJ", nan, 3), c("UJ", 4, 4)}, 2, 1, 1, 1},
	} {
		a := Agree(tc.cs)
		if len(a) != 1 {
			t.Fatalf("%s: %d agreements, want 1", tc.name, len(a))
		}
		g := a[0]
		if g.Logs != tc.logs || !same(g.R2, tc.r2) || !same(g.LogR2, tc.logR2) || !same(g.MedianRatio, tc.median) {
			t.Errorf("%s: logs %d R² %v ln R² %v median ratio %v, want %d %v %v %v",
				tc.name, g.Logs, g.R2, g.LogR2, g.MedianRatio, tc.logs, tc.r2, tc.logR2, tc.median)
		}
	}
}

// same reports whether a and b agree to 1e-9 or are both NaN.
func same(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-9
}

// TestCompare checks which models Compare applies to a log's measured
// variables and that each row pairs the equations' prediction (the values
// of TestFromJD, TestFromCL and TestMachine) with the measured value.
func TestCompare(t *testing.T) {
	v := summary.Variables{TN: 100, Cm: 25, JD: 100, CL: 0.45, Am: 120, Ai: 3000, Ci: 14000, Rm: 150, Ri: 19000, Pm: 7, Pi: 70, UJ: 2}
	type row struct {
		model     Model
		variable  string
		predicted float64
	}
	want := []row{
		{JDCm, "Ci", 14163.6}, {JDCm, "Rm", 151.87}, {JDCm, "Ri", 19109.3}, {JDCm, "Pm", 7.333}, {JDCm, "Pi", 71.047},
		{JDCm, "UJ", 2.052}, {JDCm, "CL", 0.686}, {JDCm, "Am", 133.41}, {JDCm, "Ai", 3531.2},
		{CLCm, "JD", 416.1}, {CLCm, "Am", 49.0}, {CLCm, "Ai", 722.7},
		{Machine, "Cm", 750.1}, {Machine, "JD", 35.6}, {Machine, "CL", 0.721},
	}
	m := measured(v)
	got := Compare("L", v)
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Log != "L" || g.Model != w.model || g.Variable != w.variable || g.Measured != m[w.variable] ||
			!(math.Abs(g.Predicted-w.predicted) <= 0.002*math.Abs(w.predicted)+0.05) {
			t.Errorf("row %d: %+v, want %s %s predicted %g measured %g", i, g, w.model, w.variable, w.predicted, m[w.variable])
		}
	}
	// Missing inputs skip their models.
	for _, c := range []struct {
		name   string
		v      summary.Variables
		models []Model
	}{
		{"no machine size", summary.Variables{Cm: 25, JD: 100, CL: 0.45}, []Model{JDCm, CLCm}},
		{"no Cm", summary.Variables{TN: 100, JD: 100, CL: 0.45}, []Model{Machine}},
		{"no JD", summary.Variables{TN: 100, Cm: 25, CL: 0.45}, []Model{CLCm, Machine}},
		{"no CL", summary.Variables{TN: 100, Cm: 25, JD: 100}, []Model{JDCm, Machine}},
	} {
		var models []Model
		for _, r := range Compare("L", c.v) {
			if len(models) == 0 || models[len(models)-1] != r.Model {
				models = append(models, r.Model)
			}
		}
		if strings.Join(names(models), ",") != strings.Join(names(c.models), ",") {
			t.Errorf("%s: models %v, want %v", c.name, models, c.models)
		}
	}
}

func names(ms []Model) []string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = string(m)
	}
	return s
}

// TestDomainEdges checks the edges of each equation set's domain: a zero
// input is refused, a machine of one processor is accepted (Table 28 at
// MS = 1: Cm = 361,860 s, JD = 0.3694 - 1.3102, CL = 1.1356), and the
// error for a machine too large names the size where CL reaches 0,
// exp(1.1356 / 0.09) = 301,878 processors.
func TestDomainEdges(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
	}{
		{"FromJD JD 0", second(FromJD(25, 0))},
		{"FromJD Cm 0", second(FromJD(0, 100))},
		{"FromJD JD +Inf", second(FromJD(25, math.Inf(1)))},
		{"FromCL Cm 0", second(FromCL(0, 0.5))},
		{"FromCL CL 0", second(FromCL(25, 0))},
		{"FromCL CL +Inf", second(FromCL(25, math.Inf(1)))},
		{"FromMachine 0.5", second(FromMachine(0.5))},
	} {
		if !errors.Is(c.err, ErrDomain) {
			t.Errorf("%s: %v, want ErrDomain", c.name, c.err)
		}
	}
	p, err := FromMachine(1)
	if err != nil || p.Cm != 361860 || !(math.Abs(p.JD-(0.3694-1.3102)) <= 1e-12) || !(math.Abs(p.CL-1.1356) <= 1e-12) {
		t.Errorf("FromMachine(1) = %+v, %v", p, err)
	}
	_, err = FromMachine(400000)
	if err == nil || !strings.Contains(err.Error(), "below about 301878 processors") {
		t.Errorf("FromMachine(400000): %v, want the limit 301878 processors", err)
	}
}

func second(_ Prediction, err error) error { return err }
