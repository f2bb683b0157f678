package metamodel

import (
	"errors"
	"math"
	"testing"
)

// Reference values computed from the published equations (Talby (2006),
// Tables 24, 26 and 28).
func TestFromJD(t *testing.T) {
	for _, c := range []struct {
		cm, jd float64
		want   Prediction
	}{
		{25, 100, Prediction{Ci: 14163.6, Rm: 151.87, Ri: 19109.3, Pm: 7.333, Pi: 71.047, UJ: 2.052, CL: 0.686, Am: 133.41, Ai: 3531.2}},
		{600, 300, Prediction{Ci: 58821.7, Rm: 631.76, Ri: 52234.2, Pm: 2.467, Pi: 22.496, UJ: 5.450, CL: 0.519, Am: 64.74, Ai: 1045.5}},
	} {
		p, err := FromJD(c.cm, c.jd)
		if err != nil {
			t.Fatal(err)
		}
		got, want := p.values(), c.want.values()
		for _, k := range jdOutputs {
			if !(math.Abs(got[k]-want[k]) <= 0.002*math.Abs(want[k])+0.001) {
				t.Errorf("Cm %g JD %g: %s = %.4f, want %.4f", c.cm, c.jd, k, got[k], want[k])
			}
		}
	}
}

func TestFromCL(t *testing.T) {
	for _, c := range []struct{ cl, jd, am, ai float64 }{{0.45, 416.1, 49.0, 722.7}, {0.65, 140.4, 110.4, 2434.8}} {
		p, err := FromCL(25, c.cl)
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(p.JD-c.jd) <= 0.1) || !(math.Abs(p.Am-c.am) <= 0.1) || !(math.Abs(p.Ai-c.ai) <= 0.5) {
			t.Errorf("CL %g: JD %.1f Am %.1f Ai %.1f, want %.1f %.1f %.1f", c.cl, p.JD, p.Am, p.Ai, c.jd, c.am, c.ai)
		}
	}
}

func TestMachine(t *testing.T) {
	for _, c := range []struct{ ms, cm, jd, cl float64 }{
		{100, 750.1, 35.6, 0.721}, {430, 106.0, 157.5, 0.590}, {1024, 33.1, 377.0, 0.512}, {2048, 13.1, 755.2, 0.449},
	} {
		p, err := FromMachine(c.ms)
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(p.Cm-c.cm) <= 0.1) || !(math.Abs(p.JD-c.jd) <= 0.1) || !(math.Abs(p.CL-c.cl) <= 0.001) {
			t.Errorf("MS %g: Cm %.1f JD %.1f CL %.3f, want %.1f %.1f %.3f", c.ms, p.Cm, p.JD, p.CL, c.cm, c.jd, c.cl)
		}
	}
	if _, err := FromMachine(400000); !errors.Is(err, ErrDomain) {
		t.Errorf("a machine whose load would be negative: %v", err)
	}
	for _, f := range []func() error{
		func() error { _, err := FromJD(0, 100); return err },
		func() error { _, err := FromCL(25, -1); return err },
		func() error { _, err := FromMachine(0); return err },
	} {
		if err := f(); !errors.Is(err, ErrDomain) {
			t.Errorf("bad input: %v", err)
		}
	}
}

func TestAgree(t *testing.T) {
	cs := []Comparison{
		{Model: JDCm, Variable: "Am", Predicted: 10, Measured: 10},
		{Model: JDCm, Variable: "Am", Predicted: 20, Measured: 22},
		{Model: JDCm, Variable: "Am", Predicted: 30, Measured: 30},
	}
	a := Agree(cs)
	if len(a) != 1 || a[0].Logs != 3 || !(a[0].R2 > 0.9 && a[0].R2 < 1) || a[0].MedianRatio != 1 {
		t.Errorf("got %+v", a)
	}
}
