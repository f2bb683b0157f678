package sim

import (
	"slices"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// prepTrace reads an SWF text on a machine of 8 processors.
func prepTrace(t *testing.T, text string) *trace.Trace {
	t.Helper()
	tr, err := trace.Read(swf.NewReader(strings.NewReader("; MaxProcs: 8\n"+text)), trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestPrepareFields checks, record by record, the jobs Prepare makes under
// each processor field and under hpcwl's and pyss's semantics. Fields of a
// record: id submit wait runtime procs cpu mem reqprocs reqtime ...
func TestPrepareFields(t *testing.T) {
	const log = `1 10 -1 100 4 -1 -1 6 200 -1 1 1 1 1 1 1 -1 -1
2 20 -1 300 -1 -1 -1 2 100 -1 1 2 1 1 1 1 -1 -1
3 30 -1 50 3 -1 -1 -1 -1 -1 1 3 1 1 1 1 -1 -1
4 40 -1 -1 2 -1 -1 2 60 -1 1 4 1 1 1 1 -1 -1
5 50 -1 0 9 -1 -1 9 60 -1 1 5 1 1 1 1 -1 -1
`
	type job struct {
		id          int64
		submit, run Time
		est         Time
		procs       int32
	}
	cases := []struct {
		name    string
		opt     PrepareOptions
		want    []job
		dropped int
	}{
		{"allocated", PrepareOptions{Oversize: OversizeDrop}, []job{
			{1, 10, 100, 200, 4}, {2, 20, 300, 100, 2}, {3, 30, 50, 50, 3}}, 1},
		{"requested", PrepareOptions{Oversize: OversizeDrop, ProcsField: ProcsRequested}, []job{
			{1, 10, 100, 200, 6}, {2, 20, 300, 100, 2}, {3, 30, 50, 50, 3}}, 1},
		{"max", PrepareOptions{Oversize: OversizeClamp, ProcsField: ProcsLarger}, []job{
			{1, 10, 100, 200, 6}, {2, 20, 300, 100, 2}, {3, 30, 50, 50, 3}, {5, 50, 0, 60, 8}}, 1},
		// pyss: runtime min(req, run) >= 1, plan max(req, run) >= 1; record 2
		// has no allocated count and record 4 no runtime: 1 s jobs on one
		// processor; record 3 has no requested time (-1), so it runs 1 s; record 5
		// (zero runtime) too, on 8 of its 9 processors.
		{"pyss", PrepareOptions{Semantics: SemanticsPyss}, []job{
			{1, 10, 100, 200, 4}, {2, 20, 1, 1, 1}, {3, 30, 1, 50, 3}, {4, 40, 1, 1, 2}, {5, 50, 1, 1, 8}}, 0},
		{"pyss at half speed", PrepareOptions{Semantics: SemanticsPyss, Machine: Machine{Speed: 0.5}}, []job{
			{1, 10, 200, 400, 4}, {2, 20, 1, 1, 1}, {3, 30, 1, 100, 3}, {4, 40, 1, 1, 2}, {5, 50, 1, 1, 8}}, 0},
		// A faster machine divides runtimes and requested times by the
		// speed, rounded up (ceil(100 / 3) = 34, not 33): a job never
		// takes less than its share of the traced work.
		{"three times faster", PrepareOptions{Oversize: OversizeDrop, Machine: Machine{Speed: 3}}, []job{
			{1, 10, 34, 67, 4}, {2, 20, 100, 34, 2}, {3, 30, 17, 17, 3}}, 1},
		{"pyss three times faster", PrepareOptions{Semantics: SemanticsPyss, Machine: Machine{Speed: 3}}, []job{
			{1, 10, 34, 67, 4}, {2, 20, 1, 1, 1}, {3, 30, 1, 17, 3}, {4, 40, 1, 1, 2}, {5, 50, 1, 1, 8}}, 0},
	}
	tr := prepTrace(t, log)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, err := Prepare(tr, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			var got []job
			for _, j := range w.Jobs {
				got = append(got, job{j.ID, j.Submit, j.Runtime, j.Estimate, j.Procs})
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("jobs\n%v\nwant\n%v", got, c.want)
			}
			if w.Dropped != c.dropped {
				t.Errorf("dropped %d, want %d", w.Dropped, c.dropped)
			}
		})
	}
}

// TestParseJobRules checks the names of processor fields and semantics,
// and that unknown ones list the valid ones.
func TestParseJobRules(t *testing.T) {
	for _, f := range []ProcsField{ProcsAllocated, ProcsRequested, ProcsLarger} {
		if g, err := ParseProcsField(f.String()); err != nil || g != f {
			t.Errorf("ParseProcsField(%q) = %v, %v", f, g, err)
		}
	}
	for _, s := range []Semantics{SemanticsHpcwl, SemanticsPyss} {
		if g, err := ParseSemantics(s.String()); err != nil || g != s {
			t.Errorf("ParseSemantics(%q) = %v, %v", s, g, err)
		}
	}
	if _, err := ParseProcsField("used"); err == nil || !strings.Contains(err.Error(), "allocated, requested, max") {
		t.Errorf("ParseProcsField(used): %v", err)
	}
	if _, err := ParseSemantics("batsim"); err == nil || !strings.Contains(err.Error(), "hpcwl, pyss") {
		t.Errorf("ParseSemantics(batsim): %v", err)
	}
}

// TestPrepareSpeedRange checks that a node speed so small that simulated
// times could overflow is refused with a clear error, and that 1e-9 is
// still accepted on a whole log.
func TestPrepareSpeedRange(t *testing.T) {
	tr, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		speed float64
		ok    bool
	}{{1, true}, {1e-9, true}, {1e-13, false}, {1e-15, false}} {
		for _, sem := range []Semantics{SemanticsHpcwl, SemanticsPyss} {
			_, err := Prepare(tr, PrepareOptions{Machine: Machine{Speed: c.speed}, Semantics: sem})
			if c.ok && err != nil {
				t.Errorf("speed %v, %v rules: %v", c.speed, sem, err)
			}
			if !c.ok && (err == nil || !strings.Contains(err.Error(), "time range")) {
				t.Errorf("speed %v, %v rules: error %v, want one about the time range", c.speed, sem, err)
			}
		}
	}
}
