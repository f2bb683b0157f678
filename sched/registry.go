package sched

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hpcwl/hpcwl/sched/external"
	"github.com/hpcwl/hpcwl/sim"
)

// Options tune the schedulers that plan with runtime predictions.
type Options struct {
	// EstimateFactor multiplies the predictions used for reservations and
	// backfilling decisions (EASY, SJBF, conservative), as in "EASY with
	// doubled estimates" (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, chapter 2 and appendix A). The kill time stays the
	// requested time. 0 means 1 (2 for "easy-x2"); it must be >= 1.
	EstimateFactor float64
	// Params sets named parameters of a policy, as text ("slack": "2" for
	// flex, "switch": "12h" for pbas); [Params] lists each policy's
	// parameters with their defaults. Unset parameters keep their
	// defaults; an unknown name or a value out of range is an error.
	Params map[string]string
	// ExternalStderr receives the standard error of an external scheduler
	// ("exec:COMMAND"); nil discards it (its last lines still appear in
	// error messages).
	ExternalStderr io.Writer
}

// Param describes one named parameter of a policy.
type Param struct {
	Name, Default, About string
}

// factory builds a fresh scheduler for one run from the options and the
// policy's parameters (every declared one present, defaults filled in).
type factory func(o Options, p params) (sim.Scheduler, error)

type entry struct {
	factory       factory
	usesEstimates bool
	about         string
	params        []Param
}

func plain(f func(o Options) sim.Scheduler) factory {
	return func(o Options, _ params) (sim.Scheduler, error) { return f(o), nil }
}

var registry = map[string]entry{}

func init() {
	for n, e := range map[string]entry{
		"fcfs":          {plain(func(Options) sim.Scheduler { return NewFCFS() }), false, "first come first served, no backfilling", nil},
		"easy":          {newEASYFactory, true, "EASY backfilling: reservation for the first waiting job only, the queue in arrival order or by a priority function (parameter priority)", easyParams},
		"easy-x2":       {plain(func(o Options) sim.Scheduler { return NewEASY(orDefault(o.EstimateFactor, 2)) }), true, "EASY with doubled estimates", nil},
		"conservative":  {plain(func(o Options) sim.Scheduler { return NewConservative(o.EstimateFactor) }), true, "conservative backfilling: a reservation for every waiting job", nil},
		"sjf":           {plain(func(Options) sim.Scheduler { return NewSJF() }), false, "shortest (predicted) job first, no backfilling", nil},
		"sjbf":          {plain(func(o Options) sim.Scheduler { return NewSJBF(o.EstimateFactor) }), true, "EASY with predictions and shortest-first backfilling", nil},
		"ups":           {newUPSFactory(ByLoad), false, "User Priority Scheduler, load-based (parameters alpha_user, scan)", upsParams},
		"ups-recency":   {newUPSFactory(ByRecency), false, "User Priority Scheduler, recency-based (parameters alpha_user, scan)", upsParams},
		"maui":          {newMauiFactory, true, "Maui, default configuration: priority order, one reservation, first-fit backfilling of every waiting job", mauiParams},
		"flex":          {newFlexFactory, true, "Flex: slack-based backfilling, the queue order of least total wait within each job's slack", flexParams},
		"wbas":          {newWBASFactory, true, "Workload-Based Adaptive Scheduler: Flex while recent jobs are more parallel than the moving average, else Maui", wbasParams},
		"pbas":          {newPBASFactory, true, "Performance-Based Adaptive Scheduler: the candidate that did best over the last period, by shadow simulation", pbasParams},
		"pbas-indirect": {newIndirectFactory, true, "indirect PBAS: PBAS switching between PBAS-util-7d and PBAS-resp-12h", indirectParams},
	} {
		registry[n] = e
	}
}

func orDefault(f, d float64) float64 {
	if f == 0 {
		return d
	}
	return f
}

// Names returns the registered scheduler names, sorted.
func Names() []string {
	ns := make([]string, 0, len(registry))
	for n := range registry {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Describe returns a one-line description of the named scheduler, or "".
func Describe(name string) string { return registry[strings.ToLower(name)].about }

// Params returns the named parameters of a scheduler with their defaults
// (nil for an unknown name or a policy without parameters).
func Params(name string) []Param { return registry[strings.ToLower(name)].params }

// New returns a new scheduler by name (case-insensitive), with default
// options. An unknown name gives an error listing the valid ones.
func New(name string) (sim.Scheduler, error) { return NewWithOptions(name, Options{}) }

// ExecPrefix starts the name of an external scheduler: "exec:COMMAND" runs
// COMMAND (split at white space, no shell) as a child process speaking
// the protocol of package [external]. Call Close (io.Closer) on the
// scheduler after the run to end the process.
const ExecPrefix = "exec:"

// IsExternal reports whether name is an external scheduler, "exec:COMMAND".
func IsExternal(name string) bool {
	return len(name) >= len(ExecPrefix) && strings.EqualFold(name[:len(ExecPrefix)], ExecPrefix)
}

// newExternal starts an external scheduler. Its parameter timeout (a
// duration, default 30s) bounds the wait for each answer; the other
// parameters go to the process in the handshake.
func newExternal(name string, o Options) (sim.Scheduler, error) {
	if o.EstimateFactor != 0 {
		return nil, fmt.Errorf("an estimate factor does not apply to an external scheduler: it sees the predictions and plans as it likes")
	}
	cmd := strings.Fields(name[len(ExecPrefix):])
	if len(cmd) == 0 {
		return nil, fmt.Errorf("scheduler %q names no command; e.g. exec:./my_policy.py", name)
	}
	cfg := external.Config{Command: cmd, Params: map[string]string{}, Stderr: o.ExternalStderr}
	for k, v := range o.Params {
		if strings.EqualFold(k, "timeout") {
			p := params{policy: "exec", v: map[string]string{"timeout": v}}
			d, err := p.duration("timeout")
			if err != nil {
				return nil, err
			}
			cfg.Timeout = time.Duration(d) * time.Second
			continue
		}
		cfg.Params[k] = v
	}
	x, err := external.Start(cfg)
	if err != nil {
		return nil, err // not a typed nil inside the interface
	}
	return x, nil
}

// NewWithOptions returns a new scheduler by name with options o.
func NewWithOptions(name string, o Options) (sim.Scheduler, error) {
	if IsExternal(name) {
		return newExternal(name, o)
	}
	e, ok := registry[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("unknown scheduler %q; valid: %s", name, strings.Join(Names(), ", "))
	}
	if o.EstimateFactor != 0 {
		if !e.usesEstimates {
			return nil, fmt.Errorf("scheduler %s does not plan with estimates, so an estimate factor does not apply; it applies to: %s",
				name, strings.Join(estimateUsers(), ", "))
		}
		if o.EstimateFactor < 1 || math.IsInf(o.EstimateFactor, 0) || math.IsNaN(o.EstimateFactor) {
			return nil, fmt.Errorf("estimate factor %v: must be >= 1", o.EstimateFactor)
		}
	}
	p := params{policy: strings.ToLower(name), v: map[string]string{}}
	for _, d := range e.params {
		p.v[d.Name] = d.Default
	}
	for k, val := range o.Params {
		k = strings.ToLower(k)
		if _, ok := p.v[k]; !ok {
			return nil, fmt.Errorf("scheduler %s has no parameter %q; valid: %s", name, k, paramNames(e.params))
		}
		p.v[k] = val
	}
	return e.factory(o, p)
}

func paramNames(ps []Param) string {
	if len(ps) == 0 {
		return "none"
	}
	var b []string
	for _, p := range ps {
		b = append(b, p.Name+" (default "+p.Default+")")
	}
	return strings.Join(b, ", ")
}

func estimateUsers() []string {
	var ns []string
	for _, n := range Names() {
		if registry[n].usesEstimates {
			ns = append(ns, n)
		}
	}
	return ns
}

// params holds the text values of a policy's parameters.
type params struct {
	policy string
	v      map[string]string
}

// float parses parameter name as a number in [lo, hi].
func (p params) float(name string, lo, hi float64) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(p.v[name]), 64)
	if err != nil || math.IsNaN(f) || f < lo || f > hi {
		rng := fmt.Sprintf(">= %v", lo)
		if !math.IsInf(hi, 1) {
			rng = fmt.Sprintf("in [%v, %v]", lo, hi)
		}
		return 0, fmt.Errorf("%s parameter %s=%q: must be a number %s", p.policy, name, p.v[name], rng)
	}
	return f, nil
}

// duration parses parameter name as a duration (a number of seconds or a
// number with unit s, m, h, d or w), at least one second.
func (p params) duration(name string) (sim.Time, error) {
	s := strings.TrimSpace(strings.ToLower(p.v[name]))
	unit := 1.0
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 's':
			s = s[:n-1]
		case 'm':
			s, unit = s[:n-1], 60
		case 'h':
			s, unit = s[:n-1], 3600
		case 'd':
			s, unit = s[:n-1], 86400
		case 'w':
			s, unit = s[:n-1], 7*86400
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || f*unit < 1 || f*unit > 1e12 {
		return 0, fmt.Errorf("%s parameter %s=%q: must be a duration of at least 1s (e.g. 300, 5m, 12h, 7d, 2w)", p.policy, name, p.v[name])
	}
	return sim.Time(math.Round(f * unit)), nil
}

// easyParams lists the queue priority functions of EASY; the default,
// fcfs, is EASY's arrival order.
var easyParams = []Param{
	{"priority", "fcfs", "queue order: fcfs (arrival), wfp3, unicep, f1, saf (smallest area), sjf (shortest), ljf (largest, most processors)"},
}

func newEASYFactory(o Options, p params) (sim.Scheduler, error) {
	name := strings.ToLower(strings.TrimSpace(p.v["priority"]))
	if name == "fcfs" {
		return NewEASY(o.EstimateFactor), nil
	}
	s, err := NewEASYPriority(name, o.EstimateFactor)
	if err != nil {
		return nil, fmt.Errorf("easy parameter priority: %w", err)
	}
	return s, nil
}

var mauiParams = []Param{
	{"queuetime", "1", "priority weight of each minute a job has waited (>= 0)"},
	{"xfactor", "0", "priority weight of the expansion factor (wait + planned) / planned (>= 0)"},
}

func newMauiFactory(o Options, p params) (sim.Scheduler, error) {
	qw, err := p.float("queuetime", 0, math.Inf(1))
	if err != nil {
		return nil, err
	}
	xw, err := p.float("xfactor", 0, math.Inf(1))
	if err != nil {
		return nil, err
	}
	return NewMaui(qw, xw, o.EstimateFactor), nil
}

// upsParams are the parameters of the User Priority Scheduler (Zakay and
// Feitelson): the weight of the user's priority against the job's own wait,
// and the extent of the first pass.
var upsParams = []Param{
	{"alpha_user", "0.5", "weight of the user priority against the job's wait, in [0, 1] (1: users only; jobs may starve)"},
	{"scan", "first", "first pass: first (start jobs in priority order up to the first that does not fit, then backfill) or full (start every job that fits, in priority order)"},
}

func newUPSFactory(m UserMetric) factory {
	return func(_ Options, p params) (sim.Scheduler, error) {
		a, err := p.float("alpha_user", 0, 1)
		if err != nil {
			return nil, err
		}
		s := NewUPS(a, m)
		switch strings.ToLower(strings.TrimSpace(p.v["scan"])) {
		case "first":
		case "full":
			s.SetFullScan(true)
		default:
			return nil, fmt.Errorf("%s parameter scan=%q: must be first or full", p.policy, p.v["scan"])
		}
		return s, nil
	}
}

var flexParams = []Param{
	{"slack", "1", "slack factor: a job may be delayed by this many times the mean wait so far (>= 0; 0 plans as conservative backfilling)"},
}

func newFlexFactory(o Options, p params) (sim.Scheduler, error) {
	sf, err := p.float("slack", 0, math.Inf(1))
	if err != nil {
		return nil, err
	}
	return NewFlex(sf, o.EstimateFactor), nil
}

// restorable are the schedulers adaptive schedulers can switch between.
// EASY is Maui in its default configuration, which schedules exactly as
// EASY does (TestMauiDefaultIsEASY) and can take over a running
// simulation.
var restorable = map[string]func(o Options) sim.Restorer{
	"maui":         func(o Options) sim.Restorer { return NewMaui(1, 0, o.EstimateFactor) },
	"flex":         func(o Options) sim.Restorer { return NewFlex(1, o.EstimateFactor) },
	"conservative": func(o Options) sim.Restorer { return NewConservative(o.EstimateFactor) },
	"easy":         func(o Options) sim.Restorer { return NewMaui(1, 0, o.EstimateFactor) },
}

func candidates(p params, o Options) ([]Candidate, error) {
	var cs []Candidate
	seen := map[string]bool{}
	for _, n := range strings.Split(p.v["candidates"], ",") {
		n = strings.ToLower(strings.TrimSpace(n))
		f, ok := restorable[n]
		if !ok || seen[n] {
			return nil, fmt.Errorf("%s parameter candidates=%q: each must be one of conservative, easy, flex, maui, without repeats", p.policy, p.v["candidates"])
		}
		seen[n] = true
		cs = append(cs, Candidate{Name: n, New: func() sim.Restorer { return f(o) }})
	}
	return cs, nil
}

var wbasParams = []Param{
	{"maf", "5000", "memory of the moving average of job sizes, in jobs (>= 1)"},
	{"switch", "1d", "time between decision points (e.g. 2h, 1d)"},
}

func newWBASFactory(o Options, p params) (sim.Scheduler, error) {
	maf, err := p.float("maf", 1, math.Inf(1))
	if err != nil {
		return nil, err
	}
	per, err := p.duration("switch")
	if err != nil {
		return nil, err
	}
	return NewWBAS(Candidate{"flex", func() sim.Restorer { return restorable["flex"](o) }},
		Candidate{"maui", func() sim.Restorer { return restorable["maui"](o) }}, maf, per), nil
}

var pbasParams = []Param{
	{"metric", "util", "what candidates are compared by over the last period: wait, resp, sld, bsld, util"},
	{"switch", "7d", "time between decision points, also the measurement window (e.g. 12h, 7d)"},
	{"candidates", "maui,flex", "comma-separated schedulers to switch between, the first active first: conservative, easy, flex, maui"},
}

func newPBASFactory(o Options, p params) (sim.Scheduler, error) {
	m, err := ParseMetric(strings.TrimSpace(strings.ToLower(p.v["metric"])))
	if err != nil {
		return nil, fmt.Errorf("pbas parameter metric: %w", err)
	}
	per, err := p.duration("switch")
	if err != nil {
		return nil, err
	}
	cs, err := candidates(p, o)
	if err != nil {
		return nil, err
	}
	return NewPBAS("pbas", cs, m, per), nil
}

var indirectParams = []Param{
	{"metric", "util", "what the PBAS configurations are compared by: wait, resp, sld, bsld, util"},
	{"switch", "7d", "time between decision points of the outer scheduler"},
}

// newIndirectFactory builds indirect PBAS (Talby, User Modeling of Parallel Workloads, PhD thesis, 2006, section 7.3.4) over
// the two best PBAS configurations of thesis Table 11, PBAS-util-7d and
// PBAS-resp-12h, each over Maui and Flex.
func newIndirectFactory(o Options, p params) (sim.Scheduler, error) {
	m, err := ParseMetric(strings.TrimSpace(strings.ToLower(p.v["metric"])))
	if err != nil {
		return nil, fmt.Errorf("pbas-indirect parameter metric: %w", err)
	}
	per, err := p.duration("switch")
	if err != nil {
		return nil, err
	}
	base := []Candidate{
		{"maui", func() sim.Restorer { return restorable["maui"](o) }},
		{"flex", func() sim.Restorer { return restorable["flex"](o) }},
	}
	inner := []Candidate{
		{"pbas-util-7d", func() sim.Restorer { return NewPBAS("pbas-util-7d", base, MetricUtilization, 7*86400) }},
		{"pbas-resp-12h", func() sim.Restorer { return NewPBAS("pbas-resp-12h", base, MetricResponse, 12*3600) }},
	}
	return NewPBAS("pbas-indirect", inner, m, per), nil
}
