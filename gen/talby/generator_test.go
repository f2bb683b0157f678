package talby

import (
	"errors"
	"github.com/hpcwl/hpcwl/swf"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/sessionclass"
)

func TestGenerateDeterministic(t *testing.T) {
	p := defaults(t)
	a, err := Generate(p, Config{Weeks: 20, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate(p, Config{Weeks: 20, Seed: 7})
	c, _ := Generate(p, Config{Weeks: 20, Seed: 8})
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave two workloads")
	}
	if reflect.DeepEqual(a.Jobs, c.Jobs) {
		t.Error("seeds 7 and 8 gave the same jobs")
	}
	if len(a.Jobs) == 0 || a.Users == 0 || a.Sessions == 0 {
		t.Fatalf("empty workload: %d jobs, %d users, %d sessions", len(a.Jobs), a.Users, a.Sessions)
	}
	for i := 1; i < len(a.Jobs); i++ {
		if a.Jobs[i].Submit < a.Jobs[i-1].Submit {
			t.Fatalf("job %d submitted before job %d", i, i-1)
		}
	}
	for _, j := range a.Jobs {
		if j.Procs < 1 || j.Procs > p.Machine.Procs || j.Runtime < 1 || j.Submit < 0 {
			t.Fatalf("bad job %+v", j)
		}
	}
}

// The generated sessions are the ones Talby's think-time rule finds: the
// jobs of a session are submitted less than 20 minutes after the previous
// one ends, and a user's sessions are at least 20 minutes apart.
// Both placement rules keep sessions apart.
func TestSessionsRecovered(t *testing.T) {
	for _, redraw := range []string{PlacementSessions, PlacementStarts} {
		t.Run(redraw, func(t *testing.T) {
			p := defaults(t)
			p.Placement.Redraw = redraw
			sessionsRecovered(t, p)
		})
	}
}

func sessionsRecovered(t *testing.T, p Params) {
	cfg := Config{Weeks: 30, Seed: 3}
	w, err := Generate(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := w.Trace(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ss, _, err := sessionclass.Compute(tr, 0, sessionclass.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != w.Sessions {
		t.Fatalf("think-time rule finds %d sessions, generated %d", len(ss), w.Sessions)
	}
	for _, s := range ss {
		first := w.Jobs[s.Jobs[0]].Session
		for _, k := range s.Jobs {
			if w.Jobs[k].Session != first {
				t.Fatalf("session of user %d mixes generated sessions %d and %d", s.User, first, w.Jobs[k].Session)
			}
		}
	}
}

// Session starts follow the class's day-of-week weights: IW sessions
// start on weekends (Talby (2006), Table 21: ?W = 0.02).
func TestWeekendClass(t *testing.T) {
	p := defaults(t)
	w, err := Generate(p, Config{Weeks: 30, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	first := map[int]Job{}
	for _, j := range w.Jobs {
		if _, ok := first[j.Session]; !ok {
			first[j.Session] = j
		}
	}
	var n, weekday int
	for _, j := range first {
		if j.SessionClass == sessionclass.IW {
			n++
			if (j.Submit/86400)%7 < 5 {
				weekday++
			}
		}
	}
	if n < 100 || float64(weekday)/float64(n) > 0.05 {
		t.Errorf("%d of %d IW sessions start on a workday, want about 2%%", weekday, n)
	}
}

// TestJobOrder checks Workload.Jobs' order, by submit time, then user,
// then generation order, on a workload with ties between users.
func TestJobOrder(t *testing.T) {
	t.Parallel()
	w, err := Generate(defaults(t), Config{Weeks: 100, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	ties := 0
	for i := 1; i < len(w.Jobs); i++ {
		a, b := w.Jobs[i-1], w.Jobs[i]
		switch {
		case a.Submit > b.Submit, a.Submit == b.Submit && a.User > b.User:
			t.Fatalf("jobs %d and %d out of order: %+v, %+v", i, i+1, a, b)
		case a.Submit == b.Submit && a.User == b.User && a.Session > b.Session:
			t.Fatalf("jobs %d and %d not in generation order: %+v, %+v", i, i+1, a, b)
		case a.Submit == b.Submit && a.User < b.User:
			ties++
		}
	}
	if ties == 0 {
		t.Error("no two users submit at the same second: the order between users is not tested")
	}
}

// TestGenerateBadInput checks the errors for bad configurations and
// parameters, and the edges of the allowed number of weeks.
func TestGenerateBadInput(t *testing.T) {
	t.Parallel()
	p := defaults(t)
	if _, err := Generate(p, Config{Weeks: 0}); !errors.Is(err, ErrConfig) {
		t.Errorf("0 weeks: %v", err)
	}
	if w, err := Generate(p, Config{Weeks: 1}); err != nil || len(w.Jobs) == 0 {
		t.Errorf("1 week: %v", err)
	}
	// MaxWeeks is allowed, one more is not: Stream stops at the first job.
	stop := errors.New("stop")
	first := func(*swf.Job) error { return stop }
	if _, err := Stream(p, Config{Weeks: MaxWeeks}, first); !errors.Is(err, stop) {
		t.Errorf("%d weeks: %v", MaxWeeks, err)
	}
	if _, err := Stream(p, Config{Weeks: MaxWeeks + 1}, first); !errors.Is(err, ErrConfig) {
		t.Errorf("%d weeks: %v", MaxWeeks+1, err)
	}
	for _, c := range []struct {
		edit func(*Params)
		want string
	}{
		{func(p *Params) { p.NewUsers.Sigma = 0 }, "new_users.sigma = 0"},
		{func(p *Params) { p.Machine.CL = 2 }, "machine.cl = 2"},
		{func(p *Params) { p.Inactivity.Class[1].A = 3 }, "inactivity.class[1] (LTHU).a = 3"},
		{func(p *Params) { p.SessionClasses.Chain[0][2] = [5]float64{} }, "session_classes.chain[0][2] (LTLU after IW)"},
		{func(p *Params) { p.Jobs[3].Sizes = nil }, "jobs[3] (BHP).sizes"},
		{func(p *Params) { p.Jobs[3].Sizes = []Size{{Norm: 1, P: 0}} }, "jobs[3] (BHP).sizes: empty or all zero"},
		{func(p *Params) { p.Jobs[2].Days = [7]float64{} }, "jobs[2] (IW).days: all zero"},
		{func(p *Params) { p.Jobs[1].HalfHours = [48]float64{} }, "jobs[1] (IWN).half_hours: all zero"},
		{func(p *Params) { p.SessionClasses.Global = [NumSessionClasses]float64{} }, "session_classes.global: all zero"},
		{func(p *Params) { p.Jobs[4].Gap.Zero = -0.1 }, "jobs[4] (BHD).gap.zero = -0.1"},
		{func(p *Params) { p.Placement.Redraw = "jobs" }, `placement.redraw = "jobs"`},
		{func(p *Params) { p.StartupUsers.Activity = "guess" }, `startup_users.activity = "guess"`},
		{func(p *Params) { p.StartupUsers.Activity = StartupFitted }, "needs startup_users.inactivity"},
		{func(p *Params) {
			p.StartupUsers.Activity = StartupFitted
			p.StartupUsers.Inactivity = &[NumUserClasses]InactivityLine{{}, {}, {A: 2}, {}}
			p.StartupUsers.Sessions = &p.SessionsPerWeek.Class
		}, "startup_users.inactivity[2] (STWE).a = 2"},
		{func(p *Params) { p.Jobs[1].Runtime.Quantiles = []float64{5, 100, 50} }, "jobs[1] (IWN).runtime.quantiles[2] = 50: must be in [100,"},
		{func(p *Params) { p.Jobs[1].Runtime.Quantiles = []float64{0.5, 100} }, "jobs[1] (IWN).runtime.quantiles[0] = 0.5"},
		{func(p *Params) { p.Jobs[2].Runtime.Quantiles = []float64{60} }, "jobs[2] (IW).runtime.quantiles: 1 value"},
	} {
		q := defaults(t)
		q.Jobs = DefaultJobs()
		c.edit(&q)
		_, err := Generate(q, Config{Weeks: 1})
		if !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want an error naming %q", err, c.want)
		}
	}
}

func TestReadParams(t *testing.T) {
	t.Parallel()
	p := defaults(t)
	var b strings.Builder
	if err := WriteParams(&b, p); err != nil {
		t.Fatal(err)
	}
	q, err := ReadParams(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, q) {
		t.Error("parameters changed through JSON")
	}
	for _, c := range []struct{ in, want string }{
		{`{"machine": {"procs": 0, "cm_s": 100, "cl": 0.5}}`, "machine.procs = 0"},
		{`{"new_users": {"mu": 1.25, "sigma": 0.2, "extra": 1}}`, "unknown field"},
		{`{"jobs": [{"repeat": 1.5}]}`, "jobs[0] (IWD).repeat = 1.5"},
		{`{"jobs": [{"unknown": 1}]}`, "jobs[0] (IWD)"},
		{`[1, 2]`, "decoding"},
		{`{"new_users": {"mu": "high"}}`, "new_users.mu"},
		{`{"placement": {"redraw": "all"}}`, `placement.redraw = "all": must be "sessions" or "starts"`},
		{`{"startup_users": {"activity": "fitted"}}`, "needs startup_users.inactivity and startup_users.sessions"},
		{`{"jobs": [null, {"runtime": {"mu": 5, "quantiles": [10, 5]}}]}`, "jobs[1] (IWN).runtime.quantiles[1] = 5: must be in [10, 1e+09]"},
		{`{"startup_users": {"activity": "fitted", "inactivity": [{"a": 0, "b": 3}, {}, {}, {}], "sessions": [{}, {}, {}, {}]}}`, "startup_users.inactivity[0] (LTLU).b = 3: must be in [-1, 2]"},
	} {
		_, err := ReadParams(strings.NewReader(c.in))
		if !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error naming %q", c.in, err, c.want)
		}
	}
	// A partial file keeps the published values elsewhere.
	q, err = ReadParams(strings.NewReader(`{"machine": {"procs": 1024, "cm_s": 33, "cl": 0.51}}`))
	if err != nil || q.Machine.Procs != 1024 || q.NewUsers.Mu != 1.25 || q.Jobs[0].Repeat != DefaultJobs()[0].Repeat {
		t.Errorf("partial file: %+v, %v", q.Machine, err)
	}
}

func TestInstancesAverage(t *testing.T) {
	p := defaults(t)
	ins, err := Instances(p, Config{Weeks: 6, Seed: 10}, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ins) != 3 || ins[0].Seed != 10 || ins[2].Seed != 12 {
		t.Fatalf("instances %+v", ins)
	}
	w, _ := Generate(p, Config{Weeks: 6, Seed: 11})
	if ins[1].Jobs != len(w.Jobs) || ins[1].Sessions != w.Sessions {
		t.Errorf("instance 1 has %d jobs, %d sessions; seed 11 alone gives %d, %d", ins[1].Jobs, ins[1].Sessions, len(w.Jobs), w.Sessions)
	}
	a := Average(ins)
	m := float64(ins[0].Jobs+ins[1].Jobs+ins[2].Jobs) / 3
	var ss float64
	for _, in := range ins {
		ss += (float64(in.Jobs) - m) * (float64(in.Jobs) - m)
	}
	if sd := math.Sqrt(ss / 2); !(math.Abs(a["jobs"].Mean-m) <= 1e-9) || !(math.Abs(a["jobs"].SD-sd) <= 1e-9*sd) || !(sd > 0) {
		t.Errorf("jobs mean %v sd %v, want mean %v and sd %v", a["jobs"].Mean, a["jobs"].SD, m, sd)
	}
	if _, err := Instances(p, Config{Weeks: 1}, 0, nil); !errors.Is(err, ErrConfig) {
		t.Errorf("0 instances: %v", err)
	}
	// One instance is enough; an error of fn stops the run and is returned.
	stop := errors.New("stop")
	calls := 0
	if _, err := Instances(p, Config{Weeks: 1, Seed: 3}, 1, func(int, *Workload, Config) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
		t.Errorf("one instance, fn failing: %v after %d calls", err, calls)
	}
	// One instance: its values, with a spread of 0.
	if a := Average(ins[:1])["jobs"]; a != (Spread{Mean: float64(ins[0].Jobs)}) {
		t.Errorf("one instance: jobs %+v, want mean %d and sd 0", a, ins[0].Jobs)
	}
}

// TestGenerateDegenerate generates from two corner cases of valid
// parameters. With every runtime spread 0, each job of a session class
// with fitted runtime quantiles runs the median of its quantiles (score 0;
// the spreads' sum is taken as 1 so that the score is defined). With
// Table 36's lines at 0 (slope 0, intercept −1) Eq. 18 gives no class a
// positive weight, and the classes are drawn from the chain alone: all
// five appear.
func TestGenerateDegenerate(t *testing.T) {
	t.Parallel()
	shared, _ := fitKTH(t, false)
	var b strings.Builder
	if err := WriteParams(&b, shared); err != nil { // a deep copy
		t.Fatal(err)
	}
	p, err := ReadParams(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	for c := range p.Jobs {
		p.Jobs[c].Runtime.Session, p.Jobs[c].Runtime.Sequence, p.Jobs[c].Runtime.Job = 0, 0, 0
	}
	w, err := Generate(p, Config{Weeks: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range w.Jobs {
		rt := p.Jobs[j.SessionClass].Runtime
		if want := min(max(quantileRuntime(rt.Quantiles, 0), 1), rt.Max); j.Runtime != want {
			t.Fatalf("%+v: runtime %d, want the median %d", j, j.Runtime, want)
		}
	}
	if len(w.Jobs) == 0 {
		t.Fatal("no jobs")
	}

	q := defaults(t)
	for c := range q.SessionClasses.WoA {
		q.SessionClasses.WoA[c] = WoALine{Slope: 0, Intercept: -1}
	}
	w, err = Generate(q, Config{Weeks: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for c, n := range w.SessionClasses {
		if n == 0 {
			t.Errorf("no session of class %d: %v", c, w.SessionClasses)
		}
	}
}
