package predict

import (
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

// TestSpecRoundTrip: every predictor's full specification builds the same
// predictor again.
func TestSpecRoundTrip(t *testing.T) {
	env := Env{Trace: &trace.Trace{}}
	specs := append(Names(), "ruh:n=5,stat=mean,cap=false,prop=true", "sbh:crit=E/P/X,search=bfs,depth=7,gap=600,sessions=recorded",
		"sbh-noest-balanced:limit=99,crit=X/*", "constant:0", "estimate", "")
	for _, s := range specs {
		p, err := New(s, env)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		q, err := New(p.Spec(), env)
		if err != nil || q.Spec() != p.Spec() {
			t.Errorf("%q: spec %q builds %v, %v", s, p.Spec(), q, err)
		}
	}
	if p, _ := New("sbh-noest-balanced:limit=99", env); p.MissPolicy() != (sim.TimesTen{Limit: 99}) {
		t.Errorf("balanced miss policy %v", p.MissPolicy())
	}
	if p, _ := New("ruh", Env{Miss: sim.Gradual{}}); p.MissPolicy() != (sim.Gradual{}) {
		t.Errorf("overridden miss policy %v", p.MissPolicy())
	}
}

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct{ spec, msg string }{
		{"oracle", "valid: constant, easy++, perfect, requested, ruh, sbh, sbh-noest, sbh-noest-balanced"},
		{"perfect:x=1", "takes no parameters"},
		{"ruh:k=1", "valid: n (history length, 1-1000), stat"},
		{"ruh:n", "bad parameter"},
		{"ruh:n=1001", "n=1001: must be a whole number from 1 to 1000"},
		{"ruh:n=1,n=2", "given twice"},
		{"ruh:stat=mode", "must be one of median, mean"},
		{"easy++:cap=maybe", "must be true or false"},
		{"sbh:crit=", "empty criteria list"},
		{"sbh:crit=PP", "repeats P"},
		{"sbh:crit=P//E", "empty criterion"},
		{"sbh:search=dfsx", "must be one of dfs, bfs"},
		{"sbh:gap=0", "gap=0"},
		{"sbh-noest:cap=true", "valid: crit"},
		{"sbh-noest:crit=PE", "does not use"},
		{"sbh-noest:limit=5", "valid: crit"},
		{"sbh-noest-balanced:limit=0", "limit=0"},
		{"constant:1.5", "whole number of seconds"},
		{"sbh:sessions=recorded", "needs the log"},
	} {
		_, err := New(tc.spec, Env{})
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: error %v, want one containing %q", tc.spec, err, tc.msg)
		}
	}
}
