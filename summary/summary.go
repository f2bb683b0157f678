package summary

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/hpcwl/hpcwl/trace"
	"gonum.org/v1/gonum/stat"
)

// Dist summarizes a sample: its size, mean and quantiles. Quantiles use the
// empirical (lower) definition of gonum's stat.Quantile.
type Dist struct {
	N      int     `json:"n"`
	Mean   float64 `json:"mean"`
	Min    float64 `json:"min"`
	P5     float64 `json:"p5"`
	P25    float64 `json:"p25"`
	Median float64 `json:"median"`
	P75    float64 `json:"p75"`
	P95    float64 `json:"p95"`
	Max    float64 `json:"max"`
}

// Interval returns the 90% interval, P95 - P5 (the "interval" of Talby's
// tables, Talby, User Modeling of Parallel Workloads, PhD thesis, Hebrew
// University, 2006, section 4.1, which says "90% interval" without defining
// it; P95 - P5 is our reading).
func (d Dist) Interval() float64 { return d.P95 - d.P5 }

// NewDist summarizes xs, which it sorts in place. An empty sample gives a
// zero Dist with N = 0.
func NewDist(xs []float64) Dist {
	if len(xs) == 0 {
		return Dist{}
	}
	sort.Float64s(xs)
	q := func(p float64) float64 { return stat.Quantile(p, stat.Empirical, xs, nil) }
	return Dist{
		N: len(xs), Mean: stat.Mean(xs, nil), Min: xs[0], Max: xs[len(xs)-1],
		P5: q(0.05), P25: q(0.25), Median: q(0.5), P75: q(0.75), P95: q(0.95),
	}
}

// Summary holds the characterization of a trace. Times are in seconds.
type Summary struct {
	Name        string  `json:"name"`
	SHA256      string  `json:"sha256,omitempty"`
	Jobs        int     `json:"jobs"`
	Users       int     `json:"users"`
	Procs       int     `json:"procs"`
	FirstSubmit int64   `json:"first_submit"`
	LastSubmit  int64   `json:"last_submit"`
	PeriodStart int64   `json:"period_start"` // min(0, first submit): the log's start
	StartTime   string  `json:"start_time"`   // local wall-clock time of PeriodStart
	EndTime     string  `json:"end_time"`     // local wall-clock time of the last submit
	Days        float64 `json:"days"`         // (last submit - PeriodStart) / 86400
	// HeaderGaps are the stretches without jobs longer than
	// trace.GapThreshold between the header's period and the jobs.
	HeaderGaps trace.Gaps `json:"header_gaps"`
	// LoadPeriod names the period of OfferedLoad and Utilization:
	// "header start to last submit", or "first to last submit" when the
	// header's start comes more than trace.GapThreshold before the first
	// job (it would dilute them); LoadStart and LoadDays give it.
	LoadPeriod string  `json:"load_period"`
	LoadStart  int64   `json:"load_start"`
	LoadDays   float64 `json:"load_days"`
	// OfferedLoad is the processor time of the jobs over machine size x
	// the load period. Utilization is the processor time that the log's own
	// schedule places inside the load period over the same; NaN (n/a) when
	// no job has a known start (every wait unknown).
	OfferedLoad   Float         `json:"offered_load"`
	Utilization   Float         `json:"utilization"`
	Runtime       Dist          `json:"runtime"`
	Processors    Dist          `json:"processors"`
	InterArrival  Dist          `json:"inter_arrival"`
	RequestedTime Dist          `json:"requested_time"`
	Accuracy      Dist          `json:"accuracy"` // runtime / requested time, jobs with both known
	Serial        float64       `json:"serial_fraction"`
	PowerOfTwo    float64       `json:"power_of_two_fraction"` // among parallel jobs (> 1 processor)
	Estimates     EstimateFacts `json:"estimates"`
	// Status counts the jobs by status (field 11): completed, failed,
	// cancelled, partial (2, 3 and 4) and unknown (-1), and each
	// non-standard code N as "code_N".
	Status map[string]int `json:"status"`
	// ReadAsUnknown counts the values read as unknown although the file
	// held another value (trace.Oddities).
	ReadAsUnknown trace.Oddities `json:"read_as_unknown"`
	Unknown       Unknowns       `json:"unknown"`
	// Unrunnable counts the jobs without a submit time, run time or
	// processor count (trace.Job.Runnable): kept in the counts and
	// inter-arrivals, in the runtime and size figures when that value is
	// known, and left out of the load.
	Unrunnable int       `json:"unrunnable"`
	Talby      Variables `json:"talby"`
}

// Unknowns counts jobs whose field is -1.
type Unknowns struct {
	Wait          int `json:"wait"`
	Runtime       int `json:"runtime"`
	Processors    int `json:"processors"`
	RequestedTime int `json:"requested_time"`
	User          int `json:"user"`
}

// EstimateFacts splits jobs with a known requested time into the three
// groups of Talby's Fig. 14 (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, section 8.2.1): jobs that failed at once
// (runtime < 1% of the estimate or < 60 s), jobs that reached their estimate
// and were presumably killed (runtime >= 0.99 x estimate) and the rest.
type EstimateFacts struct {
	Jobs   int     `json:"jobs"`
	Failed float64 `json:"failed_fraction"`
	Killed float64 `json:"killed_fraction"`
	Normal float64 `json:"normal_fraction"`
}

// Of characterizes t. The period over which rates (Days, Talby's JD) are
// computed runs from the log's start (relative time 0, the header's
// UnixStartTime) to the last submit, the definition that reproduces the jobs
// per day of Talby's Table 2 for logs whose first job comes days after the
// start. Loads use the same period unless the header's start comes more
// than trace.GapThreshold before the first job; they then run from the
// first submit (LoadPeriod says which). The machine size must be known for the loads; when it
// is not, they are NaN.
func Of(t *trace.Trace) *Summary {
	s := &Summary{Name: t.Name, SHA256: t.SHA256, Jobs: t.Len(), Users: t.NumUsers(), Procs: t.Procs,
		Status: map[string]int{}, ReadAsUnknown: t.Oddities}
	if t.Len() == 0 {
		return s
	}
	s.FirstSubmit, s.LastSubmit = t.Span()
	clock := t.Clock()
	const layout = "2006-01-02 15:04:05 MST"
	s.PeriodStart = min(0, s.FirstSubmit)
	s.StartTime = clock.Time(s.PeriodStart).Format(layout)
	s.EndTime = clock.Time(s.LastSubmit).Format(layout)
	s.Days = float64(s.LastSubmit-s.PeriodStart) / 86400
	s.HeaderGaps = t.HeaderGaps()
	s.LoadStart, s.LoadPeriod = s.PeriodStart, "header start to last submit"
	if s.HeaderGaps.Lead > 0 {
		s.LoadStart, s.LoadPeriod = s.FirstSubmit, "first to last submit"
	}
	dur := float64(s.LastSubmit - s.LoadStart)
	s.LoadDays = dur / 86400
	scheduled := 0

	var run, procs, req, acc, inter []float64
	var area, used float64
	serial, parallel, pow2 := 0, 0, 0
	submits := make([]int64, 0, t.Len())
	for i := range t.Jobs {
		j := &t.Jobs[i]
		submits = append(submits, j.Submit)
		s.Status[statusName(j.Status)]++
		p := j.Processors()
		countUnknown(&s.Unknown, j, p)
		if !j.Runnable() {
			s.Unrunnable++
		}
		if j.Runtime >= 0 {
			run = append(run, float64(j.Runtime))
		}
		if p > 0 {
			procs = append(procs, float64(p))
			if p == 1 {
				serial++
			} else {
				parallel++
				if p&(p-1) == 0 {
					pow2++
				}
			}
		}
		if j.ReqTime > 0 {
			req = append(req, float64(j.ReqTime))
			if j.Runtime >= 0 {
				acc = append(acc, float64(j.Runtime)/float64(j.ReqTime))
				s.Estimates.add(j.Runtime, j.ReqTime)
			}
		}
		area += j.Area()
		used += clippedArea(j, s.LoadStart, s.LastSubmit)
		if j.Start() >= 0 {
			scheduled++
		}
	}
	sort.Slice(submits, func(a, b int) bool { return submits[a] < submits[b] })
	for i := 1; i < len(submits); i++ {
		inter = append(inter, float64(submits[i]-submits[i-1]))
	}
	s.Estimates.finish()
	if n := serial + parallel; n > 0 {
		s.Serial = float64(serial) / float64(n)
	}
	if parallel > 0 {
		s.PowerOfTwo = float64(pow2) / float64(parallel)
	}
	s.OfferedLoad, s.Utilization = Float(math.NaN()), Float(math.NaN())
	if t.Procs > 0 && dur > 0 {
		s.OfferedLoad = Float(area / (float64(t.Procs) * dur))
		if scheduled > 0 {
			s.Utilization = Float(used / (float64(t.Procs) * dur))
		}
	}
	s.Talby = talbyVariables(t, s, procs, run, inter)
	s.Runtime = NewDist(run)
	s.Processors = NewDist(procs)
	s.InterArrival = NewDist(inter)
	s.RequestedTime = NewDist(req)
	s.Accuracy = NewDist(acc)
	return s
}

func countUnknown(u *Unknowns, j *trace.Job, p int) {
	if j.Wait < 0 {
		u.Wait++
	}
	if j.Runtime < 0 {
		u.Runtime++
	}
	if p <= 0 {
		u.Processors++
	}
	if j.ReqTime < 0 {
		u.RequestedTime++
	}
	if j.User < 0 {
		u.User++
	}
}

// clippedArea returns the processor-seconds the job ran within [from, to]
// according to the log's recorded start and end times.
func clippedArea(j *trace.Job, from, to int64) float64 {
	start, end, p := j.Start(), j.End(), j.Processors()
	if start < 0 || end < 0 || p <= 0 {
		return 0
	}
	start, end = max(start, from), min(end, to)
	if end <= start {
		return 0
	}
	return float64(end-start) * float64(p)
}

func (e *EstimateFacts) add(run, req int64) {
	e.Jobs++
	switch {
	case float64(run) < 0.01*float64(req) || run < 60:
		e.Failed++
	case float64(run) >= 0.99*float64(req):
		e.Killed++
	default:
		e.Normal++
	}
}

func (e *EstimateFacts) finish() {
	if e.Jobs == 0 {
		return
	}
	n := float64(e.Jobs)
	e.Failed, e.Killed, e.Normal = e.Failed/n, e.Killed/n, e.Normal/n
}

// statusName names an SWF status code (field 11).
func statusName(s int32) string {
	switch s {
	case 0:
		return "failed"
	case 1:
		return "completed"
	case 2, 3, 4:
		return "partial"
	case 5:
		return "cancelled"
	case -1:
		return "unknown"
	}
	return fmt.Sprintf("code_%d", s)
}

// StatusNames are the names [Summary.Status] always uses, in the order
// [Summary.StatusCounts] lists them.
var StatusNames = []string{"completed", "failed", "cancelled", "partial", "unknown"}

// StatusCounts lists the status counts for printing: the standard names of
// [StatusNames] (zero counts included), then every other code seen
// ("code_N"), in increasing order of N.
func (s *Summary) StatusCounts() []StatusCount {
	out := make([]StatusCount, 0, len(s.Status))
	for _, n := range StatusNames {
		out = append(out, StatusCount{n, s.Status[n]})
	}
	var other []StatusCount
	for n, c := range s.Status {
		if strings.HasPrefix(n, "code_") {
			other = append(other, StatusCount{n, c})
		}
	}
	sort.Slice(other, func(a, b int) bool {
		x, _ := strconv.Atoi(strings.TrimPrefix(other[a].Name, "code_"))
		y, _ := strconv.Atoi(strings.TrimPrefix(other[b].Name, "code_"))
		return x < y
	})
	return append(out, other...)
}

// StatusCount is one entry of [Summary.StatusCounts].
type StatusCount struct {
	Name  string // a standard name or "code_N"
	Count int
}
