package resample

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/trace"
	"github.com/hpcwl/hpcwl/userclass"
)

// Feature is a per-user quantity by which selective resampling prefers
// users, computed over the user's sub-trace in its pool.
type Feature uint8

// The features of selective resampling.
const (
	// FeatureRuntime is the mean runtime of the user's jobs, s.
	FeatureRuntime Feature = iota + 1
	// FeatureJobsPerWeek is the user's jobs per week active.
	FeatureJobsPerWeek
	// FeatureProcs is the mean number of processors of the user's jobs.
	FeatureProcs
	// FeatureArea is the mean processor-seconds (runtime x processors) of
	// the user's jobs.
	FeatureArea
	// FeatureJobs is the user's number of jobs.
	FeatureJobs
)

var featureNames = map[Feature]string{FeatureRuntime: "runtime", FeatureJobsPerWeek: "jobs-per-week",
	FeatureProcs: "procs", FeatureArea: "area", FeatureJobs: "jobs"}

// String returns the feature's name as ParsePreference reads it.
func (f Feature) String() string { return featureNames[f] }

// Preference biases the choice of users in [Pools.Generate], the
// "selective manipulation" Zakay proposes: classify users, then resample
// with a bias towards one class (N. Zakay, Improved Realism and
// Representativeness of Workloads to Improve Reliability of Performance
// Evaluations, PhD thesis, Hebrew University, chapter 3, section 6,
// "proposed applications").
//
// The weighting, exactly: every user of the long-term and temporary pools
// is preferred or not; a preferred user has weight Bias, the others weight
// 1. By feature, the preferred users of a pool are those whose feature is
// strictly above the pool's median (High) or strictly below it (low); the
// median is taken over the pool's users, so each pool keeps its own share.
// By user set (Users, e.g. one of Talby's user classes, [ClassUsers]), the
// preferred users are those in the set. Then, with w_u the weights and
// W_P their sum over pool P:
//
//   - long-term slots: round(f N_LT) slots are shared by systematic
//     sampling, user u getting floor or ceil of round(f N_LT) w_u / W_LT
//     slots (one uniform offset per run), the copies of one user spread
//     over its activity as without bias;
//   - initial temporary users: drawn without replacement with probability
//     proportional to weeksActive(u) w_u;
//   - weekly arrivals: user u arrives in a week with probability
//     r_T' w_u / W_T (in ceil(max) Bernoulli rounds when that exceeds 1),
//     so the expected number of arrivals per week stays r_T'.
//
// The numbers of users are those of the unbiased generator; the load
// changes with the jobs of the users preferred (a bias towards heavy users
// raises it). Bias 1 draws every user alike (but not with the unbiased
// generator's random numbers); Bias below 1 avoids the class.
type Preference struct {
	// Feature and High choose the preferred users by feature; ignored when
	// Users is set.
	Feature Feature
	High    bool
	// Users, when not nil, is the set of preferred user IDs.
	Users map[int32]bool
	// Label names the set of Users in the output, e.g. "class:LTHU".
	Label string
	// Bias is the preferred users' weight, > 0.
	Bias float64
}

// String describes the preference as the output records it:
// "runtime:high bias=4" or "class:LTHU bias=4".
func (p *Preference) String() string {
	if p.Users != nil {
		return fmt.Sprintf("%s bias=%s", strings.ReplaceAll(p.Label, " ", "_"), fmtFloat(p.Bias))
	}
	hl := "low"
	if p.High {
		hl = "high"
	}
	return fmt.Sprintf("%s:%s bias=%s", p.Feature, hl, fmtFloat(p.Bias))
}

// ParsePreference reads "FEATURE:high" or "FEATURE:low" with FEATURE one
// of runtime, jobs-per-week, procs, area, jobs.
func ParsePreference(s string, bias float64) (*Preference, error) {
	name, hl, ok := strings.Cut(s, ":")
	var f Feature
	for k, v := range featureNames {
		if v == name {
			f = k
		}
	}
	if !ok || f == 0 || (hl != "high" && hl != "low") {
		return nil, fmt.Errorf("preference %q: want FEATURE:high or FEATURE:low, FEATURE one of runtime, jobs-per-week, procs, area, jobs (or class:NAME)", s)
	}
	if !(bias > 0) || math.IsInf(bias, 0) {
		return nil, fmt.Errorf("bias %v: want a positive number (1 draws every user alike, above 1 prefers, below 1 avoids)", bias)
	}
	return &Preference{Feature: f, High: hl == "high", Bias: bias}, nil
}

// ClassUsers returns the users of t in Talby's user class c (D. Talby,
// User Modeling of Parallel Workloads, PhD thesis, Hebrew University,
// 2006, section 9.5), as package userclass finds them on t alone with
// k-means seed seed, for [Preference.Users].
func ClassUsers(t *trace.Trace, c userclass.Class, seed uint64) (map[int32]bool, error) {
	r, err := userclass.Analyze([]*trace.Trace{t}, userclass.Options{Classify: sessionclass.ClassifyOptions{Seed: seed}})
	if err != nil {
		return nil, err
	}
	out := map[int32]bool{}
	for _, u := range r.UserRows() {
		if u.Class == c {
			out[u.ID] = true
		}
	}
	return out, nil
}

// ParseUserClass reads a class abbreviation of Talby's: LTLU, LTHU, STWE
// or STWD.
func ParseUserClass(s string) (userclass.Class, error) {
	for c := userclass.Class(0); c < userclass.NumClasses; c++ {
		if strings.EqualFold(s, c.String()) {
			return c, nil
		}
	}
	return 0, fmt.Errorf("unknown user class %q; valid: LTLU, LTHU, STWE, STWD", s)
}

// feature returns u's feature value.
func (p *Pools) feature(u *User, f Feature) float64 {
	var sum float64
	for _, i := range u.Jobs {
		j := &p.Trace.Jobs[i]
		switch f {
		case FeatureRuntime:
			sum += float64(j.Runtime)
		case FeatureProcs:
			sum += float64(j.Processors())
		case FeatureArea:
			sum += float64(j.Runtime) * float64(j.Processors())
		}
	}
	n := float64(len(u.Jobs))
	switch f {
	case FeatureJobs:
		return n
	case FeatureJobsPerWeek:
		return n / float64(max(1, u.WeeksActive))
	}
	return sum / n
}

// Preferred says which users of a pool (LongTerm or Temporary) pref
// prefers, in the pool's order.
func (p *Pools) Preferred(pool []*User, pref *Preference) []bool {
	out := make([]bool, len(pool))
	if pref.Users != nil {
		for i, u := range pool {
			out[i] = pref.Users[u.ID]
		}
		return out
	}
	x := make([]float64, len(pool))
	for i, u := range pool {
		x[i] = p.feature(u, pref.Feature)
	}
	s := slices.Clone(x)
	slices.Sort(s)
	var med float64
	if n := len(s); n > 0 {
		med = (s[(n-1)/2] + s[n/2]) / 2
	}
	for i := range pool {
		out[i] = (pref.High && x[i] > med) || (!pref.High && x[i] < med)
	}
	return out
}

// Weights returns the selective-resampling weights of the users of a pool
// under pref, in the pool's order: Bias for a preferred user, else 1.
func (p *Pools) Weights(pool []*User, pref *Preference) []float64 {
	w := make([]float64, len(pool))
	for i, b := range p.Preferred(pool, pref) {
		w[i] = 1
		if b {
			w[i] = pref.Bias
		}
	}
	return w
}

// systematic shares n slots among weights by systematic sampling with
// offset u in [0, 1): count i is the number of points u, u+1, ..., u+n-1
// falling in [C_{i-1}, C_i), C being the running sum of n w_i / sum(w).
func systematic(w []float64, n int, u float64) []int {
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	counts := make([]int, len(w))
	if n == 0 || sum <= 0 {
		return counts
	}
	c, k := 0.0, 0
	for i, x := range w {
		c += float64(n) * x / sum
		if i == len(w)-1 {
			c = float64(n) + 1 // rounding: the last user takes what is left
		}
		for k < n && u+float64(k) < c {
			counts[i]++
			k++
		}
	}
	return counts
}
