package feedback

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/session"
	"github.com/hpcwl/hpcwl/sim"
)

// TestCompareColumns counts the jobs each column of a comparison leaves
// out, on a machine of 2 processors with too-wide jobs dropped:
//
//	job 0: submitted at 0, 100 s
//	job 1: at 50, waited 50 s, ran 0 s (a complete record)
//	job 2: at 60, no wait or runtime: incomplete everywhere
//	job 3: at 70, 4 processors: too wide for the simulated machine, which
//	       the recorded one ran
//
// The recorded column measures jobs 0, 1 and 3 and leaves job 2 out; the
// simulated ones reject jobs 2 (incomplete) and 3 (too wide).
func TestCompareColumns(t *testing.T) {
	tr := mkTrace(2, tj{1, 0, 0, 100}, tj{1, 50, 50, 0}, tj{2, 60, -1, -1}, tj{2, 70, 0, 10})
	tr.Jobs[3].Procs, tr.Jobs[3].ReqProcs = 4, 4
	ctx := context.Background()
	so := sim.Options{PrepareOptions: sim.PrepareOptions{Oversize: sim.OversizeDrop}}
	rigid, err := Rigid(ctx, tr, sched.NewFCFS(), so)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := Simulate(ctx, tr, sched.NewFCFS(), so, Options{Model: Adjusted})
	if err != nil {
		t.Fatal(err)
	}
	c, err := Compare(tr, rigid, fb)
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Recorded; r.LeftOut != 1 || r.Incomplete != 1 || r.Rejected != 1 || r.TooWide != 0 {
		t.Errorf("recorded: left out %d, rejected %d (incomplete %d, too wide %d); want 1, 1 (1, 0)", r.LeftOut, r.Rejected, r.Incomplete, r.TooWide)
	}
	for name, col := range map[string]Column{"rigid": c.Rigid, "feedback": c.Feedback} {
		if col.Rejected != 2 || col.Incomplete != 1 || col.TooWide != 1 || col.LeftOut != 0 {
			t.Errorf("%s: rejected %d (incomplete %d, too wide %d), left out %d; want 2 (1, 1), 0", name, col.Rejected, col.Incomplete, col.TooWide, col.LeftOut)
		}
	}
	if f := c.Feedback.Feedback; f == nil || f.Users != "adjusted" || f.StartRule != "" || f.Rejected != 2 {
		t.Errorf("feedback figures %+v", f)
	}
	res := RecordedResult(tr)
	var ids []int64
	for _, o := range res.Jobs {
		ids = append(ids, o.ID)
	}
	if !slices.Equal(ids, []int64{1, 2, 4}) || res.Procs != 2 {
		t.Errorf("recorded result: jobs %v on %d processors, want jobs 1, 2, 4 on 2", ids, res.Procs)
	}
	// A log without a machine size is measured on one processor.
	tr.Procs = 0
	if p := RecordedResult(tr).Procs; p != 1 {
		t.Errorf("machine size unknown: recorded result on %d processors, want 1", p)
	}
	// A log that records no schedule (no wait known): the recorded
	// column's metrics are unknown, not zero, and every job is left out.
	tr = mkTrace(1, tj{1, 0, -1, 10}, tj{1, 100, -1, 10})
	if rigid, err = Rigid(ctx, tr, sched.NewFCFS(), sim.Options{}); err != nil {
		t.Fatal(err)
	}
	if fb, err = Simulate(ctx, tr, sched.NewFCFS(), sim.Options{}, Options{}); err != nil {
		t.Fatal(err)
	}
	if c, err = Compare(tr, rigid, fb); err != nil {
		t.Fatal(err)
	}
	if c.Recorded.Metrics != nil || c.Recorded.LeftOut != 2 || c.Rigid.Metrics == nil || c.Feedback.Metrics == nil {
		t.Errorf("no recorded schedule: recorded metrics %v, %d left out; rigid %v, feedback %v", c.Recorded.Metrics, c.Recorded.LeftOut, c.Rigid.Metrics, c.Feedback.Metrics)
	}
}

// TestPerUserLatenessSpan: user 0 (a known ID) has jobs recorded at 1000
// and 1400, submitted at 1010 and 1450: lateness 10 and 50, mean 30,
// relative 1 + 30/400 (the span of its recorded submits), additional
// 2 · 30 / 1.
func TestPerUserLatenessSpan(t *testing.T) {
	tr := mkTrace(1, tj{0, 1000, 0, 10}, tj{-1, 1200, 0, 10}, tj{0, 1400, 0, 10})
	got := PerUserLateness(tr, []sim.Time{1010, 1200, 1450})
	if len(got) != 1 {
		t.Fatalf("%d users: %+v", len(got), got)
	}
	if u := got[0]; u.User != 0 || u.Jobs != 2 || u.Mean != 30 || !(math.Abs(u.Relative-1.075) <= 1e-12) || u.Additional != 60 {
		t.Errorf("user 0: %+v", u)
	}
}

// TestSubmitDifferencesLengths: jobs past the end of the shorter run, or
// not submitted in one of them, are left out; a submit at 0 counts.
func TestSubmitDifferencesLengths(t *testing.T) {
	d, dist := SubmitDifferences([]sim.Time{0, 5, -1, 7}, []sim.Time{3, 2, 4})
	if !slices.Equal(d, []int64{-3, 3}) || dist.N != 2 || dist.Min != -3 || dist.Max != 3 {
		t.Errorf("differences %v, distribution %+v; want [-3 3]", d, dist)
	}
}

// TestOptionsDefaults: the session partitioning each model uses by
// default, and the names of models and start rules.
func TestOptionsDefaults(t *testing.T) {
	a60 := session.Default(session.Interarrival)
	arr := session.Default(session.Arrival)
	a0 := session.Options{Method: session.Interarrival}
	for _, c := range []struct {
		o    Options
		want session.Options
	}{
		{Options{}, a60},
		{Options{Model: Adjusted}, arr},
		{Options{Model: Distribution}, arr},
		{Options{Model: Fluid}, arr},
		{Options{SessionsSet: true}, session.Options{}},
		{Options{Model: Fluid, Sessions: a0}, a0},
	} {
		if got := c.o.SessionOptions(); got != c.want {
			t.Errorf("%v (sessions set %v): sessions %v, want %v", c.o.Model, c.o.SessionsSet, got, c.want)
		}
	}
	if s := Model(len(modelNames)).String(); s != "Model(4)" {
		t.Errorf("Model(4).String() = %q", s)
	}
	if _, err := NewPlan(smallLog(), Options{Model: Model(len(modelNames))}); err == nil || !strings.Contains(err.Error(), "unknown model 4") {
		t.Errorf("NewPlan with model 4: %v, want an unknown model", err)
	}
	for _, c := range []struct {
		s    string
		want StartRule
	}{{"max", MaxOverEdges}, {"", MaxOverEdges}, {"Last-Finisher", LastFinisher}, {"LAST", LastFinisher}} {
		if got, err := ParseStartRule(c.s); err != nil || got != c.want {
			t.Errorf("ParseStartRule(%q) = %v, %v", c.s, got, err)
		}
	}
	if _, err := ParseStartRule("first"); err == nil {
		t.Error("ParseStartRule(first) gave no error")
	}
}

// TestNewSource: the one-call NewSource gives the source of a plan, and
// refuses a log without users.
func TestNewSource(t *testing.T) {
	tr := smallLog()
	w, err := sim.Prepare(tr, sim.PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	src, err := NewSource(tr, w, Options{Model: Adjusted})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sim.Run(context.Background(), src, sched.NewFCFS(), sim.Config{Procs: w.Procs}); err != nil {
		t.Fatal(err)
	}
	// As in TestHandMadeReplayTimings.
	if got := src.Submitted(); !slices.Equal(got, []sim.Time{0, 0, 450, 470}) {
		t.Errorf("submits %v, want [0 0 450 470]", got)
	}
	if _, err := NewSource(mkTrace(1, tj{-1, 0, 0, 5}), w, Options{}); !errors.Is(err, ErrNoUsers) {
		t.Errorf("a log without users: %v, want ErrNoUsers", err)
	}
}
