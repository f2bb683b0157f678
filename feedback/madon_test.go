package feedback

import (
	"context"
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
)

// TestStartRules tells Madon's two start rules apart (Madon, Da Costa and
// Pierson, 2024, Algorithm 1) on a log where they differ. Every job is a
// session (a0); two processors, FCFS:
//
//	X: user 9, submitted at 0, 30 s on both processors: runs 0..30
//	P: user 1, at 0, 100 s (recorded end 100): runs 30..130
//	Q: user 1, at 1, 149 s (recorded end 150): runs 30..179
//	C: user 1, at 200, 10 s: depends on P (think 100 s) and Q (50 s)
//
// Q arrived before P ended, so the two are independent and both start on
// time. Max over edges starts C at max(130 + 100, 179 + 50) = 230; the last
// finisher, Q, at 179 + 50 = 229.
func TestStartRules(t *testing.T) {
	tr := mkTrace(2, tj{9, 0, 0, 30}, tj{1, 0, 0, 100}, tj{1, 1, 0, 149}, tj{1, 200, 0, 10})
	tr.Jobs[0].Procs, tr.Jobs[0].ReqProcs = 2, 2
	for _, c := range []struct {
		rule StartRule
		name string
		want []sim.Time
	}{
		{MaxOverEdges, "max", []sim.Time{0, 0, 1, 230}},
		{LastFinisher, "last", []sim.Time{0, 0, 1, 229}},
	} {
		fo := Options{Sessions: session.Options{Method: session.Interarrival}, SessionsSet: true, StartRule: c.rule}
		run, err := Simulate(context.Background(), tr, sched.NewFCFS(), sim.Options{}, fo)
		if err != nil {
			t.Fatal(err)
		}
		if got := run.Source.Submitted(); !slices.Equal(got, c.want) {
			t.Errorf("rule %s: submits %v, want %v", c.name, got, c.want)
		}
		if got := run.Source.Ends(); !slices.Equal(got, []sim.Time{30, 130, 179, c.want[3] + 10}) {
			t.Errorf("rule %s: ends %v", c.name, got)
		}
		f := FiguresOf(run)
		if f.StartRule != c.name || f.Releases != nil {
			t.Errorf("rule %s: figures give start rule %q and releases %v", c.name, f.StartRule, f.Releases)
		}
		if s := c.rule.String(); s != c.name {
			t.Errorf("StartRule(%d).String() = %q, want %q", c.rule, s, c.name)
		}
		if i, f, d := run.Source.Releases(); i+f+d != 0 {
			t.Errorf("rule %s: Madon's replay reports batch releases %d, %d, %d", c.name, i, f, d)
		}
	}
}
