package talby

import (
	"math"
	"testing"

	"github.com/hpcwl/hpcwl/summary"
	"github.com/hpcwl/hpcwl/trace"
)

// scInstances is the number of workloads regenerated from the parameters
// fitted to a log; their spread is the sampling error of one regenerated
// log.
const scInstances = 6

// The self-consistency of the model: parameters fitted to a log,
// workloads generated from them for as many weeks, and the parameters
// fitted again. A value comes back when the mean over the instances is
// within 3 prediction standard deviations of the log's value: the log is
// one realization, so the tolerance is 3·sd·√(1 + 1/K), sd the standard
// deviation over the K instances. Every value is pinned; the fit uses our
// extensions (start-up activity fitted, placement by start times,
// empirical runtimes), without which sessions, Rm and Am do not come back
// (docs/validation.md gives both; the thesis' rules are run and reported,
// not pinned).
func TestSelfConsistencyKTH(t *testing.T) {
	t.Parallel()
	if testing.Short() || quick {
		t.Skip("fits a log and seven generated workloads")
	}
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opt  FitOptions
		pin  bool
	}{
		{"extensions", FitOptions{Seed: 1}, true},
		{"thesis rules", FitOptions{Seed: 1, ThesisRules: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) { selfConsistency(t, tr, tc.opt, tc.pin) })
	}
}

func selfConsistency(t *testing.T, tr *trace.Trace, opt FitOptions, pin bool) {
	p, rep := fitKTH(t, opt.ThesisRules) // the log's fit, with opt
	type value struct {
		name   string
		get    func(Params, *FitReport, summary.Variables) float64
		pinned bool
	}
	values := []value{
		{"new_users.mu", func(p Params, _ *FitReport, _ summary.Variables) float64 { return p.NewUsers.Mu }, true},
		{"new_users.sigma", func(p Params, _ *FitReport, _ summary.Variables) float64 { return p.NewUsers.Sigma }, true},
		{"startup users", func(_ Params, r *FitReport, _ summary.Variables) float64 { return r.StartupUsers }, true},
		{"JD", func(_ Params, _ *FitReport, v summary.Variables) float64 { return v.JD }, true},
		{"UJ", func(_ Params, _ *FitReport, v summary.Variables) float64 { return v.UJ }, true},
		{"Pm", func(_ Params, _ *FitReport, v summary.Variables) float64 { return v.Pm }, true},
		{"Am", func(_ Params, _ *FitReport, v summary.Variables) float64 { return v.Am }, true},
		{"CL", func(_ Params, _ *FitReport, v summary.Variables) float64 { return float64(v.CL) }, true},
		{"sessions", func(_ Params, r *FitReport, _ summary.Variables) float64 { return float64(r.Sessions) }, true},
		{"jobs", func(_ Params, r *FitReport, _ summary.Variables) float64 { return float64(r.Jobs) }, true},
		{"Rm", func(_ Params, _ *FitReport, v summary.Variables) float64 { return v.Rm }, true},
	}
	orig := summary.Of(tr).Talby
	got := make([][]float64, len(values))
	k := scInstances
	for s := uint64(1); s <= uint64(k); s++ {
		cfg := Config{Weeks: rep.Weeks + 2, Seed: s}
		w, err := Generate(p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		g, err := w.Trace(p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		q, r2, err := Fit(g, opt)
		if err != nil {
			t.Fatalf("seed %d: re-fit: %v", s, err)
		}
		v := summary.Of(g).Talby
		for i, x := range values {
			got[i] = append(got[i], x.get(q, r2, v))
		}
	}
	for i, x := range values {
		want := x.get(p, rep, orig)
		m, sd := meanSD(got[i])
		tol := 3 * sd * math.Sqrt(1+1/float64(k))
		ok := math.Abs(m-want) <= tol
		t.Logf("%-16s log %10.4g  re-fit mean %10.4g  sd %9.3g  tolerance %9.3g  %v", x.name, want, m, sd, tol, ok)
		if pin && x.pinned && !ok {
			t.Errorf("%s: the log's %.4g is not within %.3g of the re-fits' mean %.4g", x.name, want, tol, m)
		}
	}
}

func meanSD(xs []float64) (m, sd float64) {
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	for _, x := range xs {
		sd += (x - m) * (x - m)
	}
	return m, math.Sqrt(sd / float64(len(xs)-1))
}
