package summary

import (
	"math"

	"github.com/hpcwl/hpcwl/trace"
)

// Variables are the workload characterization variables of Talby's thesis,
// Tables 2 and 3 (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, Tables 2 and 3). Medians
// ("m") and 90% intervals ("i", P95 - P5) are over jobs. EJ is NaN when the
// log has no executable numbers; the loads are NaN without a machine size.
type Variables struct {
	TN int     `json:"TN"` // processors in the machine
	JD float64 `json:"JD"` // jobs per day
	RL Float   `json:"RL"` // runtime load: sum r*p / (TN * duration)
	CL Float   `json:"CL"` // CPU load: sum C*p / (TN * duration), C = average CPU time, else runtime
	UJ float64 `json:"UJ"` // users per 1000 jobs
	EJ Float   `json:"EJ"` // executables per 1000 jobs
	Rm float64 `json:"Rm"` // runtime median
	Ri float64 `json:"Ri"` // runtime 90% interval
	Pm float64 `json:"Pm"` // processors median
	Pi float64 `json:"Pi"` // processors 90% interval
	Nm Float   `json:"Nm"` // normalized processors (p*128/TN) median
	Ni Float   `json:"Ni"` // normalized processors 90% interval
	Cm float64 `json:"Cm"` // CPU work median
	Ci float64 `json:"Ci"` // CPU work 90% interval
	Am float64 `json:"Am"` // inter-arrival median
	Ai float64 `json:"Ai"` // inter-arrival 90% interval
}

// talbyVariables computes the variables; the slices are copied, not sorted
// in place, since the caller summarizes them afterwards.
func talbyVariables(t *trace.Trace, s *Summary, procs, run, inter []float64) Variables {
	nan := Float(math.NaN())
	v := Variables{TN: t.Procs, RL: nan, CL: nan, EJ: nan, Nm: nan, Ni: nan}
	dur := float64(s.LastSubmit - s.PeriodStart)
	if dur > 0 {
		v.JD = float64(s.Jobs) / (dur / 86400)
	}
	v.UJ = 1000 * float64(s.Users) / float64(s.Jobs)
	exes := map[int32]struct{}{}
	var cpu []float64
	var rArea, cArea float64
	for i := range t.Jobs {
		j := &t.Jobs[i]
		if j.App >= 0 {
			exes[j.App] = struct{}{}
		}
		c := j.AvgCPU
		if c < 0 {
			c = float64(j.Runtime)
		}
		if c >= 0 {
			cpu = append(cpu, c)
		}
		if p := j.Processors(); p > 0 {
			if j.Runtime > 0 {
				rArea += float64(j.Runtime) * float64(p)
			}
			if c > 0 {
				cArea += c * float64(p)
			}
		}
	}
	if len(exes) > 0 {
		v.EJ = Float(1000 * float64(len(exes)) / float64(s.Jobs))
	}
	if t.Procs > 0 && dur > 0 {
		v.RL = Float(rArea / (float64(t.Procs) * dur))
		v.CL = Float(cArea / (float64(t.Procs) * dur))
	}
	r := NewDist(append([]float64(nil), run...))
	p := NewDist(append([]float64(nil), procs...))
	c := NewDist(cpu)
	a := NewDist(append([]float64(nil), inter...))
	v.Rm, v.Ri = r.Median, r.Interval()
	v.Pm, v.Pi = p.Median, p.Interval()
	v.Cm, v.Ci = c.Median, c.Interval()
	v.Am, v.Ai = a.Median, a.Interval()
	if t.Procs > 0 {
		k := 128 / float64(t.Procs)
		v.Nm, v.Ni = Float(p.Median*k), Float(p.Interval()*k)
	}
	return v
}
