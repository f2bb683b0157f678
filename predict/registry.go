package predict

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// Env is what [New] may need beyond the specification.
type Env struct {
	// Trace is the trace the simulated jobs come from (sim.Job.Index
	// indexes its Jobs): SBH reads executables from it, and the balanced
	// no-estimate SBH its largest requested time. Nil means unknown
	// executables and a 36 h limit.
	Trace *trace.Trace
	// Miss overrides the predictor's deadline-miss policy; nil keeps the
	// predictor's own (gradual for requested and constant, estimate then
	// gradual for ruh, easy++ and sbh, times ten for the no-estimate SBH).
	Miss sim.MissPolicy
}

// Predictor is a predictor built by [New]: a [sim.Predictor] (the history
// predictors are also [sim.LearningPredictor]s) that can describe itself.
type Predictor interface {
	sim.Predictor
	// Spec returns the full specification, every parameter included, in
	// the form New reads.
	Spec() string
	// MissPolicy returns the deadline-miss policy in use.
	MissPolicy() sim.MissPolicy
}

// DefaultBalancedLimit is the limit of the balanced no-estimate SBH's growth
// when the trace has no requested times: 36 h. The thesis (Talby, User
// Modeling of Parallel Workloads, PhD thesis, Hebrew University, 2006, section
// 8.6) calls the limit "a certain (high) threshold" without a value; 36 h is
// our choice where the thesis leaves it open.
const DefaultBalancedLimit sim.Time = 36 * 3600

type param struct {
	name, about string
}

type kind struct {
	about  string
	params []param
	build  func(name string, kv map[string]string, env Env) (Predictor, error)
}

var (
	ruhParams = []param{{"n", "history length, 1-1000"}, {"stat", "median or mean"},
		{"cap", "cap at the estimate: true or false"}, {"prop", "propagation: true or false"}}
	sbhParams = []param{{"crit", "criteria list, e.g. PE/P/E/*"}, {"search", "dfs or bfs"},
		{"depth", "sessions searched back, 0 = all"}, {"prop", "propagation: true or false"},
		{"cap", "cap at the estimate: true or false"}, {"gap", "session gap in seconds, > 0"},
		{"sessions", "online (from the simulation) or recorded (the log's schedule)"}}
	noestParams = []param{{"crit", "criteria list without E, e.g. PX/P/X/*"}, {"search", "dfs or bfs"},
		{"depth", "sessions searched back, 0 = all"}, {"prop", "propagation: true or false"},
		{"gap", "session gap in seconds, > 0"},
		{"sessions", "online (from the simulation) or recorded (the log's schedule)"}}
)

var kinds = map[string]kind{
	"requested": {about: "the requested time (user estimate)", build: buildReference},
	"perfect":   {about: "the actual runtime", build: buildReference},
	"constant":  {about: "a constant, constant:SECONDS (default 1 s)", build: buildReference},
	"ruh": {about: "recent user history: median of the user's last 3 terminated jobs, capped at the estimate (Talby)",
		params: ruhParams, build: buildRUH},
	"easy++": {about: "recent user history: mean of the user's last 2 terminated jobs, capped at the estimate (Tsafrir et al. 2006)",
		params: ruhParams, build: buildRUH},
	"sbh": {about: "session-based history, depth-first over all sessions, criteria PE/P/E/*, propagation",
		params: sbhParams, build: buildSBH},
	"sbh-noest": {about: "session-based history without estimates: criteria PX/P/X/*, 1 s default, times-ten misses (unbalanced)",
		params: noestParams, build: buildSBH},
	"sbh-noest-balanced": {about: "sbh-noest with the times-ten growth stopped at the log's largest requested time",
		params: append(slices.Clone(noestParams), param{"limit", "growth limit in seconds, > 0"}), build: buildSBH},
}

// Names returns the valid predictor names, sorted.
func Names() []string {
	ns := make([]string, 0, len(kinds))
	for n := range kinds {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	return ns
}

// Describe returns a one-line description of the named predictor, or "".
func Describe(name string) string { return kinds[strings.ToLower(name)].about }

// Usage returns the parameters the named predictor accepts, as "k (about)"
// strings, or nil.
func Usage(name string) []string {
	var out []string
	for _, p := range kinds[strings.ToLower(name)].params {
		out = append(out, p.name+" ("+p.about+")")
	}
	return out
}

// New builds a predictor for one run from spec: a name of [Names],
// optionally followed by ':' and comma-separated key=value parameters
// ("ruh:n=2,stat=mean", "sbh:crit=E/P/X,search=bfs"); "constant:SECONDS"
// gives the constant. An unknown name or parameter, or a value out of
// range, gives an error that lists the valid ones.
func New(spec string, env Env) (Predictor, error) {
	name, rest, hasParams := strings.Cut(strings.TrimSpace(spec), ":")
	name = strings.ToLower(name)
	if name == "" || name == "estimate" {
		name = "requested"
	}
	k, ok := kinds[name]
	if !ok {
		return nil, fmt.Errorf("unknown predictor %q; valid: %s", spec, strings.Join(Names(), ", "))
	}
	kv := map[string]string{}
	if hasParams {
		if name == "constant" {
			kv["value"] = rest
		} else {
			if len(k.params) == 0 {
				return nil, fmt.Errorf("predictor %s takes no parameters", name)
			}
			for _, f := range strings.Split(rest, ",") {
				key, val, ok := strings.Cut(f, "=")
				key = strings.ToLower(strings.TrimSpace(key))
				if !ok || !slices.ContainsFunc(k.params, func(p param) bool { return p.name == key }) {
					return nil, fmt.Errorf("predictor %s: bad parameter %q; valid: %s", name, f, strings.Join(Usage(name), ", "))
				}
				if _, dup := kv[key]; dup {
					return nil, fmt.Errorf("predictor %s: parameter %s given twice", name, key)
				}
				kv[key] = strings.TrimSpace(val)
			}
		}
	}
	return k.build(name, kv, env)
}

// reference wraps the predictors of package sim.
type reference struct {
	sim.Predictor
	spec string
	miss sim.MissPolicy
}

func (r reference) Spec() string               { return r.spec }
func (r reference) MissPolicy() sim.MissPolicy { return r.miss }

func buildReference(name string, kv map[string]string, env Env) (Predictor, error) {
	miss := missPolicy(env.Miss, sim.Gradual{})
	switch name {
	case "perfect":
		return reference{sim.Perfect{}, name, sim.Gradual{}}, nil
	case "constant":
		v := int64(1)
		if s, ok := kv["value"]; ok {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("predictor constant:%s: the constant must be a whole number of seconds >= 0", s)
			}
			v = n
		}
		return reference{sim.Constant{Value: sim.Time(v), Miss: miss}, "constant:" + strconv.FormatInt(v, 10), miss}, nil
	}
	return reference{sim.Requested{Miss: miss}, "requested", miss}, nil
}

// params reads typed parameters, remembering the first error.
type params struct {
	name string
	kv   map[string]string
	err  error
}

func (p *params) fail(key, want string) {
	if p.err == nil {
		p.err = fmt.Errorf("predictor %s: %s=%s: %s", p.name, key, p.kv[key], want)
	}
}

func (p *params) int(key string, def, lo, hi int) int {
	s, ok := p.kv[key]
	if !ok {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		p.fail(key, fmt.Sprintf("must be a whole number from %d to %d", lo, hi))
		return def
	}
	return n
}

func (p *params) bool(key string, def bool) bool {
	s, ok := p.kv[key]
	if !ok {
		return def
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		p.fail(key, "must be true or false")
		return def
	}
	return b
}

func (p *params) choice(key, def string, valid ...string) string {
	s, ok := p.kv[key]
	if !ok {
		return def
	}
	s = strings.ToLower(s)
	if !slices.Contains(valid, s) {
		p.fail(key, "must be one of "+strings.Join(valid, ", "))
		return def
	}
	return s
}

type ruhPredictor struct{ *RUH }

func (r ruhPredictor) Spec() string {
	stat := "median"
	if r.Mean {
		stat = "mean"
	}
	return fmt.Sprintf("ruh:n=%d,stat=%s,cap=%t,prop=%t", r.N, stat, r.Cap, r.Propagate)
}

func (r ruhPredictor) MissPolicy() sim.MissPolicy {
	return missPolicy(r.Miss, sim.EstimateThenGradual{})
}

func buildRUH(name string, kv map[string]string, env Env) (Predictor, error) {
	p := params{name: name, kv: kv}
	n, stat := 3, "median"
	if name == "easy++" {
		n, stat = 2, "mean"
	}
	n = p.int("n", n, 1, 1000)
	stat = p.choice("stat", stat, "median", "mean")
	capped := p.bool("cap", true)
	prop := p.bool("prop", false)
	if p.err != nil {
		return nil, p.err
	}
	return ruhPredictor{NewRUH(n, stat == "mean", capped, prop, env.Miss)}, nil
}

type sbhPredictor struct {
	*SBH
	name     string
	limit    sim.Time
	recorded bool
}

func (s sbhPredictor) Spec() string {
	search := "dfs"
	if s.BFS {
		search = "bfs"
	}
	out := fmt.Sprintf("%s:crit=%s,search=%s,depth=%d,prop=%t", s.name, FormatCriteria(s.Criteria), search, s.Depth, s.Propagate)
	if s.name == "sbh" {
		out += fmt.Sprintf(",cap=%t", s.Cap)
	}
	out += fmt.Sprintf(",gap=%d", s.Gap)
	if s.recorded {
		out += ",sessions=recorded"
	}
	if s.limit > 0 {
		out += fmt.Sprintf(",limit=%d", s.limit)
	}
	return out
}

func (s sbhPredictor) MissPolicy() sim.MissPolicy {
	return missPolicy(s.Miss, sim.EstimateThenGradual{})
}

func buildSBH(name string, kv map[string]string, env Env) (Predictor, error) {
	p := params{name: name, kv: kv}
	noest := name != "sbh"
	crit := "PE/P/E/*"
	if noest {
		crit = "PX/P/X/*"
	}
	if s, ok := kv["crit"]; ok {
		crit = s
	}
	cs, err := ParseCriteria(crit)
	if err != nil {
		return nil, fmt.Errorf("predictor %s: %w", name, err)
	}
	if noest && slices.ContainsFunc(cs, func(c Criterion) bool { return c&Estimate != 0 }) {
		return nil, fmt.Errorf("predictor %s: criteria %s compare the estimate (E), which %s does not use; use P, X or *", name, crit, name)
	}
	search := p.choice("search", "dfs", "dfs", "bfs")
	depth := p.int("depth", 0, 0, 1<<30)
	prop := p.bool("prop", !noest)
	capped := !noest
	if !noest {
		capped = p.bool("cap", true)
	}
	gap := p.int("gap", 1200, 1, math.MaxInt32)
	sessions := p.choice("sessions", "online", "online", "recorded")
	var limit sim.Time
	if name == "sbh-noest-balanced" {
		limit = maxEstimate(env.Trace)
		limit = sim.Time(p.int("limit", int(limit), 1, math.MaxInt32))
	}
	if p.err != nil {
		return nil, p.err
	}
	s := NewSBH(cs, search == "bfs", depth, sim.Time(gap))
	s.Cap, s.Propagate, s.Miss = capped, prop, env.Miss
	if sessions == "recorded" {
		if env.Trace == nil {
			return nil, fmt.Errorf("predictor %s: sessions=recorded needs the log", name)
		}
		// Last cuts when the think time exceeds its threshold; SBH's rule
		// (Talby (2006), section 9.2.1) when it reaches the gap.
		part, err := session.IdentifySessions(env.Trace, session.Options{Method: session.Last, Threshold: int64(gap) - 1})
		if err != nil {
			return nil, fmt.Errorf("predictor %s: %w", name, err)
		}
		of := part.SessionOf()
		s.SessionOf = func(j *sim.Job) int32 {
			if j.Index < 0 || int(j.Index) >= len(of) {
				return 0
			}
			return of[j.Index]
		}
	}
	if t := env.Trace; t != nil {
		s.Exec = func(j *sim.Job) int32 {
			if j.Index < 0 || int(j.Index) >= len(t.Jobs) {
				return -1
			}
			return t.Jobs[j.Index].App
		}
	}
	if noest {
		s.Default = 1
		if s.Miss == nil {
			s.Miss = sim.TimesTen{Limit: limit}
		}
	}
	return sbhPredictor{SBH: s, name: name, limit: limit, recorded: sessions == "recorded"}, nil
}

// maxEstimate returns the largest requested time of t, or
// [DefaultBalancedLimit].
func maxEstimate(t *trace.Trace) sim.Time {
	var m int64
	if t != nil {
		for i := range t.Jobs {
			m = max(m, t.Jobs[i].ReqTime)
		}
	}
	if m <= 0 {
		return DefaultBalancedLimit
	}
	return sim.Time(m)
}
