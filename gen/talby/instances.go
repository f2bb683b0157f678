package talby

import (
	"fmt"
	"math"

	"github.com/hpcwl/hpcwl/summary"
)

// Instance summarizes one of several workloads generated from the same
// parameters: its seed, counts and the workload variables of Talby's
// Tables 2 and 3 (summary.Variables).
type Instance struct {
	Seed uint64 `json:"seed"`
	Jobs int    `json:"jobs"`
	// UsersCreated counts every user the model created; UsersWithJobs
	// those with at least one job.
	UsersCreated  int               `json:"users_created"`
	UsersWithJobs int               `json:"users_with_jobs"`
	Sessions      int               `json:"sessions"`
	Vars          summary.Variables `json:"variables"`
}

// Spread is the mean and sample standard deviation of a value over
// instances.
type Spread struct {
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
}

// InstanceVariables names the values Average summarizes, in order.
var InstanceVariables = []string{"jobs", "users_created", "users_with_jobs", "sessions", "JD", "CL", "UJ", "Rm", "Ri", "Pm", "Pi", "Cm", "Ci", "Am", "Ai"}

func (in Instance) values() []float64 {
	v := in.Vars
	return []float64{float64(in.Jobs), float64(in.UsersCreated), float64(in.UsersWithJobs), float64(in.Sessions), v.JD, float64(v.CL), v.UJ,
		v.Rm, v.Ri, v.Pm, v.Pi, v.Cm, v.Ci, v.Am, v.Ai}
}

// Average returns the mean and standard deviation over the instances of
// each of InstanceVariables, as Talby advises for models with long-range
// dependence: two workloads of the same parameters can differ as much as
// two real logs, so results should be averaged over many instances
// (Talby (2006), section 14.1).
func Average(ins []Instance) map[string]Spread {
	out := map[string]Spread{}
	for k, name := range InstanceVariables {
		var s, s2 float64
		for _, in := range ins {
			x := in.values()[k]
			s += x
			s2 += x * x
		}
		n := float64(len(ins))
		m := s / n
		sd := 0.0
		if len(ins) > 1 {
			sd = math.Sqrt(math.Max(0, (s2-n*m*m)/(n-1)))
		}
		out[name] = Spread{Mean: m, SD: sd}
	}
	return out
}

// Instances generates n workloads of cfg.Weeks weeks from p, instance i
// (from 0) with seed cfg.Seed + i, summarizes each and hands it to fn
// (when not nil) before the next is generated, so that only one is in
// memory at a time.
func Instances(p Params, cfg Config, n int, fn func(i int, w *Workload, c Config) error) ([]Instance, error) {
	if n < 1 {
		return nil, fmt.Errorf("%w: instances = %d: must be at least 1", ErrConfig, n)
	}
	out := make([]Instance, 0, n)
	for i := range n {
		c := cfg
		c.Seed = cfg.Seed + uint64(i)
		w, err := Generate(p, c)
		if err != nil {
			return nil, err
		}
		t, err := w.Trace(p, c)
		if err != nil {
			return nil, err
		}
		out = append(out, Instance{Seed: c.Seed, Jobs: len(w.Jobs), UsersCreated: w.Users, UsersWithJobs: w.UsersWithJobs, Sessions: w.Sessions, Vars: summary.Of(t).Talby})
		if fn != nil {
			if err := fn(i, w, c); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}
