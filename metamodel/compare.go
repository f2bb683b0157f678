package metamodel

import (
	"math"
	"slices"

	"github.com/hpcwl/hpcwl/summary"
)

// Model names one of the meta-model's equation sets.
type Model string

// The equation sets.
const (
	// JDCm is Table 24: everything from Cm and JD.
	JDCm Model = "JD/Cm"
	// CLCm is Table 26: the Multiple-Jobs axis from CL (and Cm's rows of
	// Table 24).
	CLCm Model = "CL/Cm"
	// Machine is Table 28: Cm, JD and CL from the machine size.
	Machine Model = "MS"
)

// Comparison is one predicted variable of one log next to its measured
// value.
type Comparison struct {
	Log       string  `json:"log"`
	Model     Model   `json:"model"`
	Variable  string  `json:"variable"`
	Predicted float64 `json:"predicted"`
	Measured  float64 `json:"measured"`
}

// values returns the prediction's variables by Talby's symbols.
func (p Prediction) values() map[string]float64 {
	return map[string]float64{"Cm": p.Cm, "JD": p.JD, "CL": p.CL, "Ci": p.Ci, "Rm": p.Rm, "Ri": p.Ri,
		"Pm": p.Pm, "Pi": p.Pi, "UJ": p.UJ, "Am": p.Am, "Ai": p.Ai}
}

func measured(v summary.Variables) map[string]float64 {
	return map[string]float64{"Cm": v.Cm, "JD": v.JD, "CL": float64(v.CL), "Ci": v.Ci, "Rm": v.Rm, "Ri": v.Ri,
		"Pm": v.Pm, "Pi": v.Pi, "UJ": v.UJ, "Am": v.Am, "Ai": v.Ai}
}

// Predicted variables of each model (its inputs excluded).
var (
	jdOutputs      = []string{"Ci", "Rm", "Ri", "Pm", "Pi", "UJ", "CL", "Am", "Ai"}
	clOutputs      = []string{"JD", "Am", "Ai"}
	machineOutputs = []string{"Cm", "JD", "CL"}
)

// Compare predicts the variables of a log from its measured inputs by each
// model (Table 24 from its Cm and JD, Table 26 from its Cm and CL, Table 28
// from its machine size) and pairs them with the measured values. Models
// whose inputs are missing or out of their domain are skipped.
func Compare(log string, v summary.Variables) []Comparison {
	m := measured(v)
	var out []Comparison
	add := func(model Model, p Prediction, vars []string) {
		pv := p.values()
		for _, k := range vars {
			out = append(out, Comparison{Log: log, Model: model, Variable: k, Predicted: pv[k], Measured: m[k]})
		}
	}
	if p, err := FromJD(v.Cm, v.JD); err == nil {
		add(JDCm, p, jdOutputs)
	}
	if p, err := FromCL(v.Cm, float64(v.CL)); err == nil {
		add(CLCm, p, clOutputs)
	}
	if v.TN > 0 {
		ms := float64(v.TN)
		p := Prediction{Cm: MachineCm(ms), JD: MachineJD(ms), CL: MachineCL(ms)}
		add(Machine, p, machineOutputs)
	}
	return out
}

// Agreement summarizes the comparisons of one variable of one model over
// several logs.
type Agreement struct {
	Model    Model  `json:"model"`
	Variable string `json:"variable"`
	Logs     int    `json:"logs"`
	// R2 is 1 − Σ(measured − predicted)² / Σ(measured − mean)², on the
	// variable's own scale (the thesis' R² are those of its fits, on the
	// fitting scale, e.g. log-log for power laws).
	R2 float64 `json:"r2"`
	// LogR2 is the same on ln of the values (for positive values).
	LogR2 float64 `json:"log_r2"`
	// MedianRatio is the median of predicted/measured.
	MedianRatio float64 `json:"median_ratio"`
}

// Agree summarizes cs per model and variable, in the order they first
// appear.
func Agree(cs []Comparison) []Agreement {
	type key struct {
		m Model
		v string
	}
	var order []key
	groups := map[key][]Comparison{}
	for _, c := range cs {
		if math.IsNaN(c.Measured) || math.IsNaN(c.Predicted) {
			continue
		}
		k := key{c.Model, c.Variable}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], c)
	}
	var out []Agreement
	for _, k := range order {
		g := groups[k]
		a := Agreement{Model: k.m, Variable: k.v, Logs: len(g), R2: math.NaN(), LogR2: math.NaN()}
		r2 := func(f func(float64) float64) float64 {
			var mean float64
			for _, c := range g {
				mean += f(c.Measured)
			}
			mean /= float64(len(g))
			var res, tot float64
			for _, c := range g {
				res += (f(c.Measured) - f(c.Predicted)) * (f(c.Measured) - f(c.Predicted))
				tot += (f(c.Measured) - mean) * (f(c.Measured) - mean)
			}
			if tot == 0 || math.IsNaN(res) {
				return math.NaN()
			}
			return 1 - res/tot
		}
		a.R2 = r2(func(x float64) float64 { return x })
		pos := true
		var ratios []float64
		for _, c := range g {
			if !(c.Measured > 0 && c.Predicted > 0) {
				pos = false
			} else {
				ratios = append(ratios, c.Predicted/c.Measured)
			}
		}
		if pos {
			a.LogR2 = r2(math.Log)
		}
		if len(ratios) > 0 {
			slices.Sort(ratios)
			n := len(ratios)
			a.MedianRatio = ratios[n/2]
			if n%2 == 0 {
				a.MedianRatio = (ratios[n/2-1] + ratios[n/2]) / 2
			}
		}
		out = append(out, a)
	}
	return out
}
