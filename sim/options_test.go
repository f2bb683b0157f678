package sim

import (
	"errors"
	"strings"
	"testing"
)

// TestParseNames checks that every policy's name reads back to it, that
// the aliases are accepted, and that unknown names list the valid ones.
func TestParseNames(t *testing.T) {
	for _, p := range []OversizePolicy{OversizeFail, OversizeDrop, OversizeClamp} {
		if g, err := ParseOversize(p.String()); err != nil || g != p {
			t.Errorf("ParseOversize(%q) = %v, %v", p, g, err)
		}
	}
	for _, f := range []EstimateFallback{{Kind: "runtime"}, {Kind: "max"}, {Kind: "fixed", Seconds: 900}} {
		if g, err := ParseEstimateFallback(f.String()); err != nil || g != f {
			t.Errorf("ParseEstimateFallback(%q) = %v, %v", f, g, err)
		}
	}
	for _, p := range []MissPolicy{Gradual{}, EstimateThenGradual{}, TimesTen{}, TimesTen{Limit: 3600}} {
		if g, err := ParseMissPolicy(p.String()); err != nil || g != p {
			t.Errorf("ParseMissPolicy(%q) = %v, %v", p, g, err)
		}
	}
	for in, want := range map[string]MissPolicy{"": Gradual{}, "G": Gradual{}, "eg": EstimateThenGradual{}, "M10": TimesTen{}, "Times10:60": TimesTen{Limit: 60}} {
		if g, err := ParseMissPolicy(in); err != nil || g != want {
			t.Errorf("ParseMissPolicy(%q) = %v, %v; want %v", in, g, err, want)
		}
	}
	eg := EstimateThenGradual{}
	for in, want := range map[string]Predictor{"": Requested{Miss: eg}, "estimate": Requested{Miss: eg}, "Requested": Requested{Miss: eg},
		"perfect": Perfect{}, "constant": Constant{Value: 1, Miss: eg}, "constant:0": Constant{Value: 0, Miss: eg}, "constant:30": Constant{Value: 30, Miss: eg}} {
		if g, err := ParsePredictor(in, eg); err != nil || g != want {
			t.Errorf("ParsePredictor(%q) = %v, %v; want %v", in, g, err, want)
		}
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{second(ParseOversize("shrink")), "error, drop, clamp"},
		{second(ParseEstimateFallback("0")), "runtime, max, or a number of seconds > 0"},
		{second(ParseEstimateFallback("-5")), "runtime, max, or a number of seconds > 0"},
		{second(ParseMissPolicy("times10:0")), "gradual, estimate-gradual, times10, times10:SECONDS"},
		{second(ParseMissPolicy("times10:x")), "gradual, estimate-gradual, times10, times10:SECONDS"},
		{second(ParsePredictor("constant:-1", nil)), "requested, perfect, constant, constant:SECONDS"},
		{second(ParsePredictor("oracle", nil)), "requested, perfect, constant, constant:SECONDS"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want one listing %q", c.err, c.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// TestStatelessPredictors checks the predictions of the predictors that
// need no history, and that a missing policy means Gradual.
func TestStatelessPredictors(t *testing.T) {
	j := &Job{Runtime: 100, Estimate: 300}
	m := MissInfo{Current: 300, Initial: 300, Elapsed: 300, N: 1}
	for _, c := range []struct {
		p          Predictor
		pred, miss Time
	}{
		{Requested{}, 300, 360},
		{Requested{Miss: TimesTen{}}, 300, 3000},
		{Perfect{}, 100, 360},
		{Constant{Value: 7}, 7, 360},
		{Constant{Value: 7, Miss: TimesTen{}}, 7, 3000},
	} {
		if got := c.p.Predict(j); got != c.pred {
			t.Errorf("%T %+v: prediction %d, want %d", c.p, c.p, got, c.pred)
		}
		if got := c.p.Missed(j, m); got != c.miss {
			t.Errorf("%T %+v: after a miss %d, want %d", c.p, c.p, got, c.miss)
		}
	}
}

// TestMissingEstimates checks the requested time given to job 3 of the
// log below (field 9 is -1) by each fallback, the count of jobs filled in,
// and the errors of a bad fallback.
func TestMissingEstimates(t *testing.T) {
	const log = `1 10 -1 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1
2 20 -1 300 2 -1 -1 2 250 -1 1 2 1 1 1 1 -1 -1
3 30 -1 50 3 -1 -1 -1 -1 -1 1 3 1 1 1 1 -1 -1
`
	noReq := strings.ReplaceAll(strings.ReplaceAll(log, " 200 ", " -1 "), " 250 ", " 0 ")
	for _, c := range []struct {
		name string
		log  string
		f    EstimateFallback
		want Time
	}{
		{"runtime", log, EstimateFallback{}, 50},
		{"fixed", log, EstimateFallback{Kind: "fixed", Seconds: 77}, 77},
		{"largest requested time", log, EstimateFallback{Kind: "max"}, 250},
		{"header's MaxRuntime", "; MaxRuntime: 5000\n" + noReq, EstimateFallback{Kind: "max"}, 5000},
		{"largest runtime", noReq, EstimateFallback{Kind: "max"}, 300},
	} {
		w, err := Prepare(prepTrace(t, c.log), PrepareOptions{MissingEstimate: c.f})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := w.Jobs[2].Estimate; got != c.want {
			t.Errorf("%s: requested time %d, want %d", c.name, got, c.want)
		}
		if filled := 1 + 2*btoi(c.log != log); w.EstimateFilled != filled {
			t.Errorf("%s: %d filled in, want %d", c.name, w.EstimateFilled, filled)
		}
	}
	for _, f := range []EstimateFallback{{Kind: "fixed"}, {Kind: "fixed", Seconds: -3}, {Kind: "median"}} {
		if _, err := Prepare(prepTrace(t, log), PrepareOptions{MissingEstimate: f}); err == nil {
			t.Errorf("fallback %+v: no error", f)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestOversizeError checks that a job wider than the machine fails
// preparation by default, naming the job, its width and the machine's.
func TestOversizeError(t *testing.T) {
	tr := prepTrace(t, "1 0 -1 10 4 -1 -1 4 20 -1 1 1 1 1 1 1 -1 -1\n7 5 -1 10 12 -1 -1 12 20 -1 1 1 1 1 1 1 -1 -1\n")
	_, err := Prepare(tr, PrepareOptions{})
	var oe *OversizeError
	if !errors.As(err, &oe) || *oe != (OversizeError{JobID: 7, Procs: 12, Machine: 8}) {
		t.Fatalf("error %v, want an OversizeError for job 7", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "job 7 needs 12 processors but the machine has 8") {
		t.Errorf("message %q", msg)
	}
}
