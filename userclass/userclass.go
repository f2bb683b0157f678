// Package userclass treats users as observations, as Talby does in section
// 9.4-9.5 of his thesis (D. Talby, User Modeling of Parallel Workloads, PhD
// thesis, Hebrew University, 2006): each user is described by the
// variables of section 9.4.1 over all of the user's jobs and sessions
// ([Compute]), principal components of 16 of them show which features
// explain users (Table 22), and k-means on eight of them finds four classes
// named by the thesis' rules (section 9.5, Table 23; [Classify]). The
// session classes come from package sessionclass.
package userclass

import (
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/hpcwl/hpcwl/kmeans"
	"github.com/hpcwl/hpcwl/pca"
	"github.com/hpcwl/hpcwl/sessionclass"
	"github.com/hpcwl/hpcwl/trace"
)

// The user variables, in the row order of Talby's Table 23.
const (
	J       = iota // number of jobs
	S              // number of sessions
	Rm             // runtime median, s
	Ri             // runtime 90% interval (P95 - P5), s
	Pm             // processors median, normalized to 128 processors
	Pi             // processors interval, normalized
	Im             // inter-arrival median, s
	Ii             // inter-arrival interval, s
	Tm             // think-time median, s
	Ti             // think-time interval, s
	Day            // %D: fraction of jobs submitted in daytime
	Work           // %W: fraction of jobs submitted on workdays
	FracIWD        // fraction of the user's sessions of class IWD
	FracIWN        // ... IWN
	FracIW         // ... IW
	FracBHP        // ... BHP
	FracBHD        // ... BHD
	JW             // jobs per week of activity
	Days           // duration: last end - first submit, days
	NumVariables
)

// Names are the variables' symbols in Talby's tables.
var Names = [NumVariables]string{"J", "S", "Rm", "Ri", "Pm", "Pi", "Im", "Ii", "Tm", "Ti", "%D", "%W",
	"%IWD", "%IWN", "%IW", "%BHP", "%BHD", "JW", "D"}

// PCAVariables are the 16 variables of Talby's user PCA (Table 22): all
// but Tm and Ti (correlated 1.0 and 0.99 with Im and Ii) and D.
var PCAVariables = []int{J, S, Rm, Ri, Pm, Pi, Im, Ii, Day, Work, FracIWD, FracIWN, FracIW, FracBHP, FracBHD, JW}

// ClusterVariables are the eight variables k-means uses (Talby (2006),
// section 9.5): %D, Pm, Rm, J, %W, Im, JW and %BHD.
var ClusterVariables = []int{Day, Pm, Rm, J, Work, Im, JW, FracBHD}

// User is one user as an observation.
type User struct {
	// Log is the index of the user's trace among those given.
	Log int
	// ID is the user ID (field 12).
	ID int32
	// X holds the variables, indexed by J ... Days.
	X [NumVariables]float64
	// Class is the user's class once classified, else -1.
	Class Class
}

// Compute returns the users of t (user ID >= 0) with their variables,
// from t's sessions ss (sessionclass.Compute on t, classified) and the
// machine size procs that processor counts are normalized by.
//
// Choices where the thesis is silent: inter-arrival and think times are
// taken between consecutive jobs of the user in submit order (the think
// time from the end of the previous one), so inter-arrival times are never
// negative; %D and %W count jobs by submit time; JW is J over the weeks from
// the first submit to the last end, at least one week.
func Compute(t *trace.Trace, log int, ss []sessionclass.Session, procs int) ([]User, error) {
	if procs <= 0 {
		return nil, fmt.Errorf("userclass: machine size %d", procs)
	}
	norm := 128 / float64(procs)
	byUser := map[int32][]int{} // sessions of each user, in order
	var ids []int32
	for i := range ss {
		if ss[i].Log != log {
			return nil, fmt.Errorf("userclass: session %d is of log %d, not %d", i, ss[i].Log, log)
		}
		u := ss[i].User
		if u < 0 {
			continue
		}
		if _, ok := byUser[u]; !ok {
			ids = append(ids, u)
		}
		byUser[u] = append(byUser[u], i)
	}
	slices.Sort(ids)
	clock := t.Clock()
	var rt, pr, ia, tt []float64
	out := make([]User, 0, len(ids))
	for _, id := range ids {
		u := User{Log: log, ID: id, Class: -1}
		var jobs []int32
		var count [sessionclass.NumClasses]int
		for _, s := range byUser[id] {
			jobs = append(jobs, ss[s].Jobs...)
			if c := ss[s].Class; c >= 0 {
				count[c]++
			}
		}
		slices.SortStableFunc(jobs, func(a, b int32) int {
			ja, jb := &t.Jobs[a], &t.Jobs[b]
			if ja.Submit != jb.Submit {
				return int(min(max(ja.Submit-jb.Submit, -1), 1))
			}
			return int(min(max(ja.ID-jb.ID, -1), 1))
		})
		rt, pr, ia, tt = rt[:0], pr[:0], ia[:0], tt[:0]
		day, work := 0, 0
		first, last := t.Jobs[jobs[0]].Submit, int64(0)
		for k, ix := range jobs {
			j := &t.Jobs[ix]
			if j.Runtime >= 0 {
				rt = append(rt, float64(j.Runtime))
			}
			if n := j.Processors(); n > 0 {
				pr = append(pr, float64(n)*norm)
			}
			if k > 0 {
				p := &t.Jobs[jobs[k-1]]
				ia = append(ia, float64(j.Submit-p.Submit))
				tt = append(tt, float64(j.Submit-end(p)))
			}
			if isDaytime(clock, j.Submit) {
				day++
			}
			if clock.DayOfWeek(j.Submit) < 5 {
				work++
			}
			last = max(last, end(j))
		}
		x := &u.X
		n := float64(len(jobs))
		x[J], x[S] = n, float64(len(byUser[id]))
		x[Rm], x[Ri] = medianInterval(rt)
		x[Pm], x[Pi] = medianInterval(pr)
		x[Im], x[Ii] = medianInterval(ia)
		x[Tm], x[Ti] = medianInterval(tt)
		x[Day], x[Work] = float64(day)/n, float64(work)/n
		for c := range sessionclass.NumClasses {
			x[FracIWD+int(c)] = float64(count[c]) / x[S]
		}
		span := float64(max(last-first, 0))
		x[Days] = span / 86400
		x[JW] = n / max(1, span/(7*86400))
		out = append(out, u)
	}
	return out, nil
}

// end is submit + wait + runtime, with unknown parts taken as 0.
func end(j *trace.Job) int64 {
	return j.Submit + max(j.Wait, 0) + max(j.Runtime, 0)
}

func isDaytime(c *trace.Clock, s int64) bool {
	lt := c.Time(s)
	sec := lt.Hour()*3600 + lt.Minute()*60 + lt.Second()
	return sec >= sessionclass.DayStart && sec <= sessionclass.DayEnd
}

func medianInterval(v []float64) (float64, float64) {
	if len(v) == 0 {
		return 0, 0
	}
	slices.Sort(v)
	q := func(p float64) float64 { return stat.Quantile(p, stat.Empirical, v, nil) }
	return q(0.5), q(0.95) - q(0.05)
}

// Matrix returns the rows of the chosen variables of us.
func Matrix(us []User, vars []int) [][]float64 {
	x := make([][]float64, len(us))
	for i := range us {
		row := make([]float64, len(vars))
		for k, v := range vars {
			row[k] = us[i].X[v]
		}
		x[i] = row
	}
	return x
}

// PCA is the principal component analysis of the 16 PCA variables on their
// correlation matrix (Talby (2006), Table 22).
func PCA(us []User) (*pca.Result, error) {
	names := make([]string, len(PCAVariables))
	for i, v := range PCAVariables {
		names[i] = Names[v]
	}
	return pca.Correlation(Matrix(us, PCAVariables), names)
}

// Class is one of Talby's four user classes (section 9.5).
type Class int

// The user classes, in the order of Talby's Table 23.
const (
	// LTLU: long-term, light users.
	LTLU Class = iota
	// LTHU: long-term, heavy users.
	LTHU
	// STWE: short-term, weekend users.
	STWE
	// STWD: short-term, workday users.
	STWD
	NumClasses
)

var classNames = [NumClasses]string{"LTLU", "LTHU", "STWE", "STWD"}

// String returns the class's abbreviation.
func (c Class) String() string {
	if c < 0 || c >= NumClasses {
		return "-"
	}
	return classNames[c]
}

// Stats summarizes one variable over the users of a class (Table 23: mean,
// median and 90% interval).
type Stats = sessionclass.Stats

// ClassSummary describes one class.
type ClassSummary struct {
	Class     string             `json:"class"`
	Users     int                `json:"users"`
	Share     float64            `json:"share"`
	Centre    map[string]float64 `json:"centre"`
	Variables map[string]Stats   `json:"variables"`
}

// Classes is the result of [Classify].
type Classes struct {
	// Classes are in the order LTLU, LTHU, STWE, STWD.
	Classes    []ClassSummary `json:"classes"`
	WithinSS   float64        `json:"within_ss"`
	Iterations int            `json:"iterations"`
}

// ErrTooFew reports fewer users than classes.
var ErrTooFew = errors.New("userclass: fewer users than classes")

// Classify clusters us into four classes by k-means on the z-scores of the
// eight clustering variables and names them by Talby's rules (section 9.5;
// our reading of them as rules on the centres): STWE has the smallest
// workday fraction; of the rest, STWD the smallest daytime fraction; of the
// rest, LTHU the largest fraction of BHD sessions; LTLU is the last. It
// sets each user's Class.
func Classify(us []User, opt sessionclass.ClassifyOptions) (*Classes, error) {
	if len(us) < int(NumClasses) {
		return nil, fmt.Errorf("%w: %d users", ErrTooFew, len(us))
	}
	raw := Matrix(us, ClusterVariables)
	in := raw
	if opt.Log {
		in = make([][]float64, len(raw))
		for i, row := range raw {
			r := append([]float64(nil), row...)
			for k, v := range ClusterVariables {
				if slices.Contains([]int{Pm, Rm, J, Im, JW}, v) {
					r[k] = sessionclass.Transform(r[k])
				}
			}
			in[i] = r
		}
	}
	z, _ := pca.Standardize(in)
	sessionclass.ClipScores(z, opt.Clip)
	res, err := kmeans.Cluster(z, kmeans.Options{K: int(NumClasses), Seed: opt.Seed, Restarts: opt.Restarts, MaxIter: opt.MaxIter})
	if err != nil {
		return nil, err
	}
	centre := make([][]float64, NumClasses)
	for c := range centre {
		centre[c] = make([]float64, len(ClusterVariables))
	}
	for i, row := range raw {
		c := res.Assign[i]
		for k, v := range row {
			centre[c][k] += v / float64(res.Sizes[c])
		}
	}
	col := func(v int) int { return slices.Index(ClusterVariables, v) }
	type rule struct {
		class   Class
		col     int
		largest bool
	}
	name := []Class{-1, -1, -1, -1}
	for _, r := range []rule{{STWE, col(Work), false}, {STWD, col(Day), false}, {LTHU, col(FracBHD), true}, {LTLU, col(J), true}} {
		best := -1
		for c := range centre {
			if name[c] >= 0 {
				continue
			}
			if best < 0 || (r.largest && centre[c][r.col] > centre[best][r.col]) || (!r.largest && centre[c][r.col] < centre[best][r.col]) {
				best = c
			}
		}
		name[best] = r.class
	}
	for i := range us {
		us[i].Class = name[res.Assign[i]]
	}
	out := &Classes{WithinSS: res.WithinSS, Iterations: res.Iterations}
	for c := range NumClasses {
		k := slices.Index(name, c)
		cs := ClassSummary{Class: c.String(), Users: res.Sizes[k], Share: float64(res.Sizes[k]) / float64(len(us)),
			Centre: map[string]float64{}, Variables: map[string]Stats{}}
		for j, v := range ClusterVariables {
			cs.Centre[Names[v]] = centre[k][j]
		}
		var vals []float64
		for v := range NumVariables {
			vals = vals[:0]
			for i := range us {
				if us[i].Class == c {
					vals = append(vals, us[i].X[v])
				}
			}
			st := Stats{}
			if len(vals) > 0 {
				st.Mean = stat.Mean(vals, nil)
				st.Median, st.Interval = medianInterval(vals)
			}
			cs.Variables[Names[v]] = st
		}
		out.Classes = append(out.Classes, cs)
	}
	return out, nil
}
