package sched

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/hpcwl/hpcwl/sim"
)

// Candidate is a scheduler an adaptive scheduler can switch to.
type Candidate struct {
	Name string
	New  func() sim.Restorer
}

// switcher is what the adaptive schedulers share: one instance of each
// candidate, the active one driven by the engine (the others get no
// notices), and decision points every period. On a switch the new active
// instance takes over the real state with Restore.
type switcher struct {
	cands  []Candidate
	inst   []sim.Restorer
	active int
	period sim.Time
	next   sim.Time // next decision point; valid once started
	begun  bool
	// switching statistics
	points, taken int
	share         []sim.Time // time each candidate was active
	since         sim.Time
}

func newSwitcher(cands []Candidate, period sim.Time, first int) switcher {
	s := switcher{cands: cands, period: period, active: first, share: make([]sim.Time, len(cands))}
	for _, c := range cands {
		s.inst = append(s.inst, c.New())
	}
	return s
}

func (s *switcher) begin(v *sim.View) {
	if !s.begun {
		s.begun = true
		s.next = v.Now() + s.period
		s.since = v.Now()
	}
}

// due reports whether a decision point has come, and moves the next one
// past now.
func (s *switcher) due(v *sim.View) bool {
	s.begin(v)
	if v.Now() < s.next {
		return false
	}
	for s.next <= v.Now() {
		s.next += s.period
	}
	s.points++
	return true
}

// switchTo makes candidate c active, restoring it to v's state.
func (s *switcher) switchTo(v *sim.View, c int) {
	if c == s.active {
		return
	}
	s.share[s.active] += v.Now() - s.since
	s.since = v.Now()
	s.taken++
	s.active = c
	s.inst[c].Restore(v)
}

func (s *switcher) nextWake(v *sim.View) sim.Time {
	s.begin(v)
	t := s.next
	if w, ok := s.inst[s.active].(sim.Waker); ok {
		if u := w.NextWake(v); u > v.Now() && u < t {
			t = u
		}
	}
	return t
}

// restore makes the active candidate take over v's state and restarts the
// decision points from now.
func (s *switcher) restore(v *sim.View) {
	s.begun = false
	s.begin(v)
	s.inst[s.active].Restore(v)
}

// Switching summarises an adaptive run: decision points, how many changed
// the active scheduler, and the share of time each candidate was active.
type Switching struct {
	// Points counts the decision points, Taken those that changed the
	// active scheduler.
	Points int `json:"points"`
	Taken  int `json:"taken"`
	// Share is the fraction of the run's time each candidate was active.
	Share map[string]float64 `json:"share"`
}

func (s *switcher) switching(now sim.Time) Switching {
	r := Switching{Points: s.points, Taken: s.taken, Share: map[string]float64{}}
	total := 0.0
	for i, t := range s.share {
		if i == s.active {
			t += now - s.since
		}
		r.Share[s.cands[i].Name] = float64(t)
		total += float64(t)
	}
	for k := range r.Share {
		if total > 0 {
			r.Share[k] /= total
		}
	}
	return r
}

// String formats the summary.
func (w Switching) String() string {
	names := make([]string, 0, len(w.Share))
	for n := range w.Share {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	fmt.Fprintf(&b, "%d decision points, %d switches taken; time active:", w.Points, w.Taken)
	for _, n := range names {
		fmt.Fprintf(&b, " %s %.1f%%", n, 100*w.Share[n])
	}
	return b.String()
}

// WBAS is the Workload-Based Adaptive Scheduler (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, section 7.4,
// thesis Fig. 12): it runs Flex while the recent jobs are more parallel
// than usual and Maui otherwise. Every arriving job updates the long-term
// average parallelism, an exponential moving average with memory MAF
// (avg += (procs - avg)/MAF, starting from the first job's size). At each
// decision point, every period from the first event, the mean size of the
// jobs that arrived since the previous one is compared with it: larger
// means Flex, otherwise Maui; no arrivals keep the active scheduler. Only
// the active scheduler runs; the one switched to takes over the real queue
// and running jobs ([sim.Restorer]). Maui is active first.
type WBAS struct {
	switcher
	maf    float64
	avgP   float64
	seen   bool
	winSum float64
	winN   int
	high   int // index of the candidate for high parallelism
}

var _ sim.Waker = (*WBAS)(nil)
var _ sim.Restorer = (*WBAS)(nil)

// NewWBAS returns WBAS switching between high (for recent parallelism
// above the average; Flex in the thesis) and low (Maui) every period, with
// moving-average memory maf >= 1. low is active first.
func NewWBAS(high, low Candidate, maf float64, period sim.Time) *WBAS {
	return &WBAS{switcher: newSwitcher([]Candidate{low, high}, period, 0), maf: maf, high: 1}
}

// Name returns "wbas".
func (s *WBAS) Name() string { return "wbas" }

// Notify implements [sim.Scheduler].
func (s *WBAS) Notify(v *sim.View, n sim.Notice) {
	s.begin(v)
	if n.Kind == sim.Arrived {
		p := float64(v.Size(n.Job))
		if !s.seen {
			s.avgP, s.seen = p, true
		} else {
			s.avgP += (p - s.avgP) / s.maf
		}
		s.winSum += p
		s.winN++
	}
	s.inst[s.active].Notify(v, n)
}

// Schedule implements [sim.Scheduler].
func (s *WBAS) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	if s.due(v) && s.winN > 0 {
		c := 1 - s.high
		if s.winSum/float64(s.winN) > s.avgP {
			c = s.high
		}
		s.winSum, s.winN = 0, 0
		s.switchTo(v, c)
	}
	return s.inst[s.active].Schedule(v, dst)
}

// NextWake implements [sim.Waker]: the next decision point.
func (s *WBAS) NextWake(v *sim.View) sim.Time { return s.nextWake(v) }

// Restore implements [sim.Restorer]; the moving average is kept, the
// window restarts.
func (s *WBAS) Restore(v *sim.View) {
	s.winSum, s.winN = 0, 0
	s.restore(v)
}

// Switching returns the switching summary up to time now.
func (s *WBAS) Switching(now sim.Time) Switching { return s.switching(now) }

// Metric is what PBAS compares candidates by.
type Metric int

// The PBAS metrics: means over the jobs that ended in the window (lower is
// better), or the utilization of the window (higher is better).
const (
	MetricWait Metric = iota
	MetricResponse
	MetricSlowdown
	MetricBoundedSlowdown
	MetricUtilization
)

var metricNames = []string{"wait", "resp", "sld", "bsld", "util"}

// String returns the metric's name: wait, resp, sld, bsld or util.
func (m Metric) String() string { return metricNames[m] }

// ParseMetric parses a metric name.
func ParseMetric(s string) (Metric, error) {
	for i, n := range metricNames {
		if s == n {
			return Metric(i), nil
		}
	}
	return 0, fmt.Errorf("unknown metric %q; valid: wait, resp, sld, bsld, util", s)
}

// score returns the metric of w on a machine of procs, as a cost (lower is
// better), and false if it is undefined (no job ended).
func (m Metric) score(w sim.WindowStats, procs int) (float64, bool) {
	if m == MetricUtilization {
		if w.To <= w.From {
			return 0, false
		}
		return -w.Busy / (float64(procs) * float64(w.To-w.From)), true
	}
	if w.Ended == 0 {
		return 0, false
	}
	n := float64(w.Ended)
	switch m {
	case MetricWait:
		return w.Wait / n, true
	case MetricResponse:
		return w.Response / n, true
	case MetricSlowdown:
		return w.Slowdown / n, true
	}
	return w.BoundedSlowdown / n, true
}

// PBAS is the Performance-Based Adaptive Scheduler (Talby (2006), section 7.3,
// Fig. 8): at each decision point, every period from the first event, it makes
// active the candidate that did best by its metric over the last period, and
// then synchronises every candidate with the real state.
//
// The active candidate is measured on the real run: the jobs that ended in
// the period, and the processors busy in it. Every other candidate runs as a
// shadow simulation ([sim.Fork]) that was started from the real state at
// the previous decision point, receives the real arrivals, and terminates
// the jobs it starts at its own start plus their runtime (as the thesis
// does in simulation; a real system would have to use predictions; under a
// learning predictor the shadows keep the predictions jobs had on arrival,
// see [sim.Shadow]). The
// first window starts at the first scheduling pass, and a decision is taken
// at the first pass at or after its decision point (the engine makes no
// pass while no job waits, when the choice does not matter). If a
// candidate saw no job end in the period (for the utilization metric, an
// empty period), the active one stays. Ties keep the active one, then the
// earlier candidate. The first candidate is active first.
//
// Each shadow keeps its buffers and its scheduler from one decision point
// to the next: a fork copies only the jobs that were still live at the
// previous one, and the candidate's Restore looks only at the live jobs.
type PBAS struct {
	switcher
	name    string
	metric  Metric
	err     error         // a shadow simulation's failure, for Err
	shadows []*sim.Shadow // by candidate; nil for the active one
	// the schedulers of the shadows, by candidate, restored at each fork
	shadowInst []sim.Restorer
	real       sim.WindowStats
	busyAt     sim.Time
	busyNow    int
}

var _ sim.Waker = (*PBAS)(nil)
var _ sim.Restorer = (*PBAS)(nil)
var _ sim.Failer = (*PBAS)(nil)

// NewPBAS returns PBAS over the candidates (at least one), comparing them
// by metric every period.
func NewPBAS(name string, cands []Candidate, metric Metric, period sim.Time) *PBAS {
	return &PBAS{switcher: newSwitcher(cands, period, 0), name: name, metric: metric,
		shadows: make([]*sim.Shadow, len(cands)), shadowInst: make([]sim.Restorer, len(cands))}
}

// Name returns the name given to NewPBAS.
func (s *PBAS) Name() string { return s.name }

func (s *PBAS) integrate(v *sim.View) {
	if now := v.Now(); now > s.busyAt {
		s.real.Busy += float64(now-s.busyAt) * float64(s.busyNow)
		s.busyAt = now
	}
}

// Notify implements [sim.Scheduler].
func (s *PBAS) Notify(v *sim.View, n sim.Notice) {
	s.integrate(v)
	switch n.Kind {
	case sim.Arrived:
		for _, sh := range s.shadows {
			if sh != nil {
				sh.Arrive(v, n.Job)
			}
		}
	case sim.Ended:
		s.real.AddEnded(v, n.Job)
		s.busyNow = v.Procs() - v.Free()
	}
	s.inst[s.active].Notify(v, n)
}

// Err implements [sim.Failer]: the failure of a shadow simulation, which
// stops the run.
func (s *PBAS) Err() error { return s.err }

// Schedule implements [sim.Scheduler].
func (s *PBAS) Schedule(v *sim.View, dst []sim.Ref) []sim.Ref {
	if !s.begun {
		s.resync(v, false)
	}
	s.integrate(v)
	if s.due(v) {
		best, bestCost := s.active, math.Inf(1)
		s.real.To = v.Now()
		if c, ok := s.metric.score(s.real, v.Procs()); ok {
			bestCost = c
		} else {
			best = -1
		}
		for i, sh := range s.shadows {
			if sh == nil || best < 0 {
				continue
			}
			if err := sh.AdvanceTo(v.Now()); err != nil {
				// The engine stops the run with it after this pass.
				if s.err == nil {
					s.err = fmt.Errorf("sched: PBAS shadow of %s: %w", s.cands[i].Name, err)
				}
				return dst
			}
			c, ok := s.metric.score(sh.Stats(), v.Procs())
			if !ok {
				best = -1
				break
			}
			if c < bestCost {
				best, bestCost = i, c
			}
		}
		if best >= 0 {
			s.switchTo(v, best)
		}
		s.resync(v, true)
	}
	first := len(dst)
	dst = s.inst[s.active].Schedule(v, dst)
	s.busyNow = v.Procs() - v.Free()
	for _, r := range dst[first:] {
		s.busyNow += v.Size(r)
	}
	return dst
}

// resync forks a shadow of every inactive candidate from v and restarts the
// window; unless started, it also starts the decision points.
func (s *PBAS) resync(v *sim.View, started bool) {
	if !started {
		s.begin(v)
	}
	for i := range s.cands {
		if i == s.active {
			s.shadows[i] = nil
			continue
		}
		if s.shadowInst[i] == nil {
			s.shadowInst[i] = s.cands[i].New()
		}
		s.shadows[i] = sim.ForkInto(s.shadows[i], v, s.shadowInst[i])
	}
	s.real = sim.WindowStats{From: v.Now(), To: v.Now()}
	s.busyAt = v.Now()
	s.busyNow = v.Procs() - v.Free()
}

// NextWake implements [sim.Waker]: the next decision point, or the active
// candidate's own wake-up if earlier.
func (s *PBAS) NextWake(v *sim.View) sim.Time { return s.nextWake(v) }

// Restore implements [sim.Restorer]: the active candidate (whichever was
// active last) takes over v's state, the shadows are forked anew and the
// decision points restart.
func (s *PBAS) Restore(v *sim.View) {
	s.restore(v)
	s.resync(v, true)
}

// Switching returns the switching summary up to time now.
func (s *PBAS) Switching(now sim.Time) Switching { return s.switching(now) }
