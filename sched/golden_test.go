package sched_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/sched"
	"github.com/hpcwl/hpcwl/sched/schedtest"
	"github.com/hpcwl/hpcwl/sim"
	"github.com/hpcwl/hpcwl/trace"
)

var update = flag.Bool("update", false, "rewrite the golden schedules (check every changed start time by hand)")

// TestGolden replays each hand-made trace in testdata under every
// scheduler and compares the schedule with testdata/CASE.SCHED.golden,
// whose start times were worked out by hand (the derivations are in
// testdata/README.md).
func TestGolden(t *testing.T) {
	cases, err := filepath.Glob("testdata/*.swf")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, path := range cases {
		name := strings.TrimSuffix(filepath.Base(path), ".swf")
		tr, err := trace.Load(path, trace.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, sn := range sched.Names() {
			t.Run(name+"/"+sn, func(t *testing.T) {
				s, err := sched.New(sn)
				if err != nil {
					t.Fatal(err)
				}
				res, _, err := sim.Simulate(context.Background(), tr, s, sim.Options{})
				if err != nil {
					t.Fatal(err)
				}
				got := render(res)
				gf := filepath.Join("testdata", name+"."+sn+".golden")
				if *update {
					if err := os.WriteFile(gf, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(gf)
				if err != nil {
					t.Fatalf("%v (run with -update to create it, then check it by hand)", err)
				}
				if got != string(want) {
					t.Errorf("schedule differs from %s\n got:\n%s\nwant:\n%s", gf, got, want)
				}
			})
		}
	}
}

func render(res *sim.Result) string {
	var b strings.Builder
	b.WriteString("# id submit start end (worked out by hand)\n")
	for _, l := range schedtest.Schedule(res) {
		fmt.Fprintf(&b, "%d %d %d %d\n", l.ID, l.Submit, l.Start, l.End)
	}
	return b.String()
}
