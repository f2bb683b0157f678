package sim

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// TestProcsZero: an allocated count of 0 is unknown, so the requested
// count stands in; with neither the job is dropped.
func TestProcsZero(t *testing.T) {
	tr := prepTrace(t, `1 10 -1 100 0 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1
2 20 -1 100 0 -1 -1 0 200 -1 1 1 1 1 1 1 -1 -1
3 30 -1 100 -1 -1 -1 3 200 -1 1 1 1 1 1 1 -1 -1
`)
	w, err := Prepare(tr, PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Jobs) != 2 || w.Jobs[0].Procs != 2 || w.Jobs[1].Procs != 3 || w.Dropped != 1 {
		t.Errorf("jobs %+v, %d dropped; want processors 2 and 3, 1 dropped", w.Jobs, w.Dropped)
	}
}

// TestPrepareUnknownMachine: a trace without a machine size needs one
// given, unless it has no job at all.
func TestPrepareUnknownMachine(t *testing.T) {
	read := func(text string) *trace.Trace {
		tr, err := trace.Read(swf.NewReader(strings.NewReader(text)), trace.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	w, err := Prepare(read("; Version: 2.2\n"), PrepareOptions{})
	if err != nil || len(w.Jobs) != 0 {
		t.Errorf("empty trace: %v, %v", w, err)
	}
	// A factor leaves an unknown machine size unknown (0).
	w, err = Prepare(read("; Version: 2.2\n"), PrepareOptions{Machine: Machine{ProcsFactor: 2}})
	if err != nil || w.Procs != 0 {
		t.Errorf("empty trace, factor 2: %+v, %v; want machine size 0", w, err)
	}
	_, err = Prepare(read("1 10 -1 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n"), PrepareOptions{})
	if !errors.Is(err, trace.ErrNoMachineSize) {
		t.Errorf("a job on a machine of unknown size: %v, want %v", err, trace.ErrNoMachineSize)
	}
	w, err = Prepare(read("1 10 -1 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n"), PrepareOptions{Machine: Machine{Procs: 4}})
	if err != nil || len(w.Jobs) != 1 || w.Procs != 4 {
		t.Errorf("machine size given: %+v, %v", w, err)
	}
}

// TestPrepareCounts: what Prepare leaves out, shrinks and fills is
// counted. On 8 processors: job 1 fits and runs exactly its requested time, jobs 2 and 3 are wider than the
// machine, job 4 runs beyond its requested time, job 5 has no runtime.
func TestPrepareCounts(t *testing.T) {
	tr := prepTrace(t, `1 10 -1 200 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1
2 20 -1 100 9 -1 -1 9 200 -1 1 1 1 1 1 1 -1 -1
3 30 -1 100 16 -1 -1 16 200 -1 1 1 1 1 1 1 -1 -1
4 40 -1 300 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1
5 50 -1 -1 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1
`)
	for _, c := range []struct {
		name                                   string
		opt                                    PrepareOptions
		jobs, dropped, oversize, clamped, over int
	}{
		{"drop", PrepareOptions{Oversize: OversizeDrop}, 2, 1, 2, 0, 1},
		{"clamp", PrepareOptions{Oversize: OversizeClamp}, 4, 1, 0, 2, 1},
	} {
		w, err := Prepare(tr, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(w.Jobs) != c.jobs || w.Dropped != c.dropped || w.DroppedOversize != c.oversize || w.Clamped != c.clamped || w.Overruns != c.over {
			t.Errorf("%s: %d jobs, %d dropped, %d oversize, %d clamped, %d overruns; want %d, %d, %d, %d, %d", c.name,
				len(w.Jobs), w.Dropped, w.DroppedOversize, w.Clamped, w.Overruns, c.jobs, c.dropped, c.oversize, c.clamped, c.over)
		}
	}
}

// TestProcsFactor: the machine size times the factor, rounded, at least 1.
func TestProcsFactor(t *testing.T) {
	tr := prepTrace(t, "1 10 -1 100 1 -1 -1 1 200 -1 1 1 1 1 1 1 -1 -1\n")
	for _, c := range []struct {
		f    float64
		want int
	}{{0.5, 4}, {0.3, 2}, {0.01, 1}, {1.5, 12}} {
		w, err := Prepare(tr, PrepareOptions{Machine: Machine{ProcsFactor: c.f}})
		if err != nil || w.Procs != c.want {
			t.Errorf("factor %v on 8 processors: %v, %v; want %d", c.f, w, err, c.want)
		}
	}
}

// TestTimeRangeCountsSubmit: a submit time near the simulator's time range
// is refused with the runtimes added.
func TestTimeRangeCountsSubmit(t *testing.T) {
	tr := prepTrace(t, "1 4611686018427387850 -1 100 1 -1 -1 1 2000 -1 1 1 1 1 1 1 -1 -1\n")
	for _, sem := range []Semantics{SemanticsHpcwl, SemanticsPyss} {
		if _, err := Prepare(tr, PrepareOptions{Semantics: sem}); err == nil || !strings.Contains(err.Error(), "time range") {
			t.Errorf("%v rules, submit 2^62 - 54 with a requested time of 2,000 s: %v, want the time range exceeded", sem, err)
		}
	}
}

// TestPyssDegenerate: under pyss's rules a record without a runtime or a
// processor count becomes a 1 s job submitted at 1 s at the earliest (a
// whole job submitted at 0 stays at 0), and a
// job that overran its requested time runs the requested time and requests
// its runtime (one that ran exactly its requested time did not overrun).
func TestPyssDegenerate(t *testing.T) {
	tr := prepTrace(t, `1 0 -1 0 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1
6 0 -1 30 1 -1 -1 1 60 -1 1 1 1 1 1 1 -1 -1
2 10 -1 50 0 -1 -1 0 100 -1 1 1 1 1 1 1 -1 -1
3 20 -1 50 3 -1 -1 3 40 -1 1 1 1 1 1 1 -1 -1
4 30 -1 60 1 -1 -1 1 60 -1 1 1 1 1 1 1 -1 -1
5 40 -1 30 1 -1 -1 1 60 -1 1 1 1 1 1 1 -1 -1
`)
	w, err := Prepare(tr, PrepareOptions{Semantics: SemanticsPyss})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, j := range w.Jobs {
		got = append(got, fmt.Sprintf("%d@%d:%d/%d x%d", j.ID, j.Submit, j.Runtime, j.Estimate, j.Procs))
	}
	want := "1@1:1/1 x2 6@0:30/60 x1 2@10:1/1 x1 3@20:40/50 x3 4@30:60/60 x1 5@40:30/60 x1"
	if g := strings.Join(got, " "); g != want || w.Overruns != 1 {
		t.Errorf("jobs %s, %d overruns; want %s, 1", g, w.Overruns, want)
	}
}
