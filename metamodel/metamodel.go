// Package metamodel holds the parametric meta-model of parallel workloads of
// Talby, Feitelson and Raveh (D. Talby, User Modeling of Parallel Workloads,
// PhD thesis, Hebrew University, 2006, chapter 10): the workload variables of
// Tables 2 and 3 as functions of one variable from each Co-Plot axis, the
// median CPU work Cm and either the jobs per day JD (Table 24) or the CPU
// load CL (Table 26), and Cm, JD and CL from the machine size alone
// (Table 28).
package metamodel

import (
	"errors"
	"fmt"
	"math"
)

// ErrDomain reports an input outside the domain of an equation.
var ErrDomain = errors.New("metamodel: input out of domain")

// Prediction holds the workload variables the meta-model predicts (Talby
// (2006), Tables 2 and 3 symbols): times in seconds, JD in jobs per day,
// Pm and Pi in processors, UJ in users per 1000 jobs, CL a fraction.
type Prediction struct {
	Cm float64 `json:"Cm"`
	JD float64 `json:"JD"`
	CL float64 `json:"CL"`
	Ci float64 `json:"Ci"`
	Rm float64 `json:"Rm"`
	Ri float64 `json:"Ri"`
	Pm float64 `json:"Pm"`
	Pi float64 `json:"Pi"`
	UJ float64 `json:"UJ"`
	Am float64 `json:"Am"`
	Ai float64 `json:"Ai"`
}

// singleJob fills the variables of the Single-Job axis from Cm (Talby
// (2006), Table 24, the rows shared by Tables 24 and 26).
func singleJob(p *Prediction) {
	cm := p.Cm
	p.Ci = 14052*math.Log(cm) - 31068    // Table 24, R² 0.75
	p.Rm = 0.8346*cm + 131.0012          // Table 24, R² 0.60
	p.Ri = 10423*math.Log(cm) - 14441    // Table 24, R² 0.76
	p.Pm = -1.531*math.Log(cm) + 12.261  // Table 24, R² 0.28
	p.Pi = 74.69 * math.Exp(-0.002*cm)   // Table 24, R² 0.44
	p.UJ = 0.7633 * math.Pow(cm, 0.3073) // Table 24, R² 0.45
}

// FromJD is the JD/Cm meta-model (Talby (2006), Table 24): every variable
// from the median CPU work cm (s) and the jobs per day jd.
func FromJD(cm, jd float64) (Prediction, error) {
	if !(cm > 0) || math.IsInf(cm, 0) || !(jd > 0) || math.IsInf(jd, 0) {
		return Prediction{}, fmt.Errorf("%w: Cm = %g and JD = %g must be positive and finite", ErrDomain, cm, jd)
	}
	p := Prediction{Cm: cm, JD: jd}
	singleJob(&p)
	p.CL = 2.2024 * math.Pow(jd, -0.2534) // Table 24, R² 0.75
	p.Am = 2764.4 * math.Pow(jd, -0.6582) // Table 24, R² 0.74
	p.Ai = 580400 * math.Pow(jd, -1.1079) // Table 24, R² 0.96
	return p, nil
}

// FromCL is the CL/Cm meta-model (Talby (2006), Table 26): every variable
// from the median CPU work cm (s) and the CPU load cl, which leads the
// Multiple-Jobs axis in place of JD.
func FromCL(cm, cl float64) (Prediction, error) {
	if !(cm > 0) || math.IsInf(cm, 0) || !(cl > 0) || math.IsInf(cl, 0) {
		return Prediction{}, fmt.Errorf("%w: Cm = %g and CL = %g must be positive and finite", ErrDomain, cm, cl)
	}
	p := Prediction{Cm: cm, CL: cl}
	singleJob(&p)
	p.JD = 39.309 * math.Pow(cl, -2.9549) // Table 26, R² 0.75
	p.Am = 285.72 * math.Pow(cl, 2.208)   // Table 26, R² 0.72
	p.Ai = 10103 * math.Pow(cl, 3.3032)   // Table 26, R² 0.73
	return p, nil
}

// FromMachine predicts Cm, JD and CL from the machine size ms in processors
// alone (Talby (2006), section 10.5, Table 28), and the rest of the
// variables from Cm and CL by Table 26.
func FromMachine(ms float64) (Prediction, error) {
	if !(ms >= 1) || math.IsInf(ms, 0) {
		return Prediction{}, fmt.Errorf("%w: machine size %g must be at least 1 processor", ErrDomain, ms)
	}
	cm, jd, cl := MachineCm(ms), MachineJD(ms), MachineCL(ms)
	if !(cl > 0) {
		return Prediction{}, fmt.Errorf("%w: machine size %g gives a CPU load %.3g <= 0 (Table 28 holds below about %.0f processors)", ErrDomain, ms, cl, math.Exp(1.1356/0.09))
	}
	p, err := FromCL(cm, cl)
	p.JD = jd
	return p, err
}

// MachineCm is the median CPU work, s, of a machine of ms processors
// (Talby (2006), Table 28: Cm = 361860·MS^−1.3417, R² 0.68).
func MachineCm(ms float64) float64 { return 361860 * math.Pow(ms, -1.3417) }

// MachineJD is the jobs per day of a machine of ms processors (Talby
// (2006), Table 28: JD = 0.3694·MS − 1.3102, R² 0.86).
func MachineJD(ms float64) float64 { return 0.3694*ms - 1.3102 }

// MachineCL is the CPU load of a machine of ms processors (Talby (2006),
// Table 28: CL = −0.09·ln(MS) + 1.1356, R² 0.57).
func MachineCL(ms float64) float64 { return -0.09*math.Log(ms) + 1.1356 }
