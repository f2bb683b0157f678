package lublin

import (
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/trace"
)

func TestImplausible(t *testing.T) {
	runaway := WholeParams
	runaway.ANum, runaway.BNum = 2.7e13, 1e-12 // the daily cycle of a fit that ran away
	wide := WholeParams
	wide.A2, wide.B2 = 5, 10 // ln(runtime) of mean 50
	tests := []struct {
		name string
		p    TypeParams
		want []string
	}{
		{"published whole", WholeParams, nil},
		{"published batch", BatchParams, nil},
		{"published interactive", InteractiveParams, nil},
		{"runaway daily cycle", runaway, []string{"a_num"}},
		{"runtime mean beyond centuries", wide, []string{"b2"}},
	}
	for _, tc := range tests {
		got := tc.p.Implausible()
		if len(got) != len(tc.want) {
			t.Errorf("%s: implausible %v, want %v", tc.name, got, tc.want)
			continue
		}
		for _, k := range tc.want {
			if got[k] == "" {
				t.Errorf("%s: %s not flagged: %v", tc.name, k, got)
			}
		}
	}
}

func TestFitLogFlagsSpikedDailyCycle(t *testing.T) {
	tr, err := trace.Load(testdata.Odd("daily.swf"), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	clock := tr.Clock()
	l := Log{StartTime: clock.Start, Location: clock.Loc, MachineProcs: tr.Procs}
	for _, j := range tr.Jobs {
		l.Submit = append(l.Submit, j.Submit)
		l.Runtime = append(l.Runtime, j.Runtime)
		l.Procs = append(l.Procs, int64(j.Processors()))
	}
	_, rep, err := FitLog(l, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Implausible["a_num"] == "" {
		t.Errorf("daily cycle of jobs all in one half hour not flagged: %v", rep.Implausible)
	}
}
