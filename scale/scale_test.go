package scale

import (
	"errors"
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// tiny is a log of four jobs on 8 processors: (submit, runtime, requested
// time, procs).
func tiny() *trace.Trace {
	rows := [][4]int64{{0, 100, 200, 1}, {60, 50, 100, 2}, {180, 0, 60, 3}, {600, 300, -1, 8}}
	jobs := make([]trace.Job, len(rows))
	for i, r := range rows {
		jobs[i] = trace.Job{ID: int64(i + 1), Submit: r[0], Wait: 5, Runtime: r[1], ReqTime: r[2], Procs: int32(r[3]),
			ReqProcs: int32(r[3]), User: 1, ThinkTime: 7, Status: 1}
	}
	var h swf.Header
	h.Set("MaxProcs", "8")
	return trace.New(h, jobs, trace.Options{})
}

// TestApplyGolden pins each method's output on a hand-computed log.
func TestApplyGolden(t *testing.T) {
	// Work 100 + 100 + 0 + 2400 = 2600 processor-seconds over 8 x 600.
	const load = 2600.0 / 4800
	cases := []struct {
		name    string
		o       Options
		submit  []int64
		runtime []int64
		req     []int64
		procs   []int32
		after   float64
		capped  int
	}{
		{"interarrival x2", Options{Method: Interarrival, Factor: 2},
			[]int64{0, 30, 90, 300}, []int64{100, 50, 0, 300}, []int64{200, 100, 60, -1}, []int32{1, 2, 3, 8}, 2 * load, 0},
		{"interarrival x0.5", Options{Method: Interarrival, Factor: 0.5},
			[]int64{0, 120, 360, 1200}, []int64{100, 50, 0, 300}, []int64{200, 100, 60, -1}, []int32{1, 2, 3, 8}, load / 2, 0},
		{"runtime x1.5", Options{Method: Runtime, Factor: 1.5},
			[]int64{0, 60, 180, 600}, []int64{150, 75, 0, 450}, []int64{300, 150, 90, -1}, []int32{1, 2, 3, 8}, 1.5 * load, 0},
		{"size x0.5", Options{Method: Size, Factor: 0.5}, // 0.5 rounds to 1 (at least 1), 1.5 to 2
			[]int64{0, 60, 180, 600}, []int64{100, 50, 0, 300}, []int64{200, 100, 60, -1}, []int32{1, 1, 2, 4}, (100 + 50 + 1200) / 4800.0, 0},
		{"size x2 capped", Options{Method: Size, Factor: 2, Cap: true},
			[]int64{0, 60, 180, 600}, []int64{100, 50, 0, 300}, []int64{200, 100, 60, -1}, []int32{2, 4, 6, 8}, (200 + 200 + 2400) / 4800.0, 1},
		{"size x1.4 powers of two", Options{Method: Size, Factor: 1.4, PowerOfTwo: true}, // 1.4, 2.8, 4.2, 11.2 -> 1, 2, 4, 8 (2.8 is below 2^1.5)
			[]int64{0, 60, 180, 600}, []int64{100, 50, 0, 300}, []int64{200, 100, 60, -1}, []int32{1, 2, 4, 8}, (100 + 100 + 2400) / 4800.0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := tiny()
			r, err := Apply(in, c.o)
			if err != nil {
				t.Fatal(err)
			}
			for i, j := range r.Trace.Jobs {
				if j.Submit != c.submit[i] || j.Runtime != c.runtime[i] || j.ReqTime != c.req[i] || j.Procs != c.procs[i] || j.ReqProcs != c.procs[i] {
					t.Errorf("job %d: got submit %d runtime %d req %d procs %d/%d, want %d %d %d %d", j.ID, j.Submit, j.Runtime, j.ReqTime,
						j.Procs, j.ReqProcs, c.submit[i], c.runtime[i], c.req[i], c.procs[i])
				}
				if j.Wait != -1 {
					t.Errorf("job %d: wait %d, want -1", j.ID, j.Wait)
				}
			}
			if !(math.Abs(r.LoadBefore-load) <= 1e-12) || !(math.Abs(r.LoadAfter-c.after) <= 1e-12) || r.Capped != c.capped {
				t.Errorf("load %v -> %v, capped %d; want %v -> %v, %d", r.LoadBefore, r.LoadAfter, r.Capped, load, c.after, c.capped)
			}
			if in.Jobs[1].Submit != 60 || in.Jobs[1].Procs != 2 || in.Jobs[1].Runtime != 50 || in.Jobs[0].Wait != 5 {
				t.Error("the input was modified")
			}
			if len(r.Warnings) == 0 {
				t.Error("no warning")
			}
		})
	}
}

func TestApplyErrors(t *testing.T) {
	for _, f := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := Apply(tiny(), Options{Factor: f}); !errors.Is(err, ErrFactor) {
			t.Errorf("factor %v: %v, want ErrFactor", f, err)
		}
		if _, err := FactorFor(tiny(), f); !errors.Is(err, ErrFactor) {
			t.Errorf("target %v: %v, want ErrFactor", f, err)
		}
	}
	_, err := Apply(tiny(), Options{Method: Size, Factor: 2})
	var oe *OversizeError
	if !errors.As(err, &oe) || oe.JobID != 4 || oe.Procs != 16 || oe.Machine != 8 || oe.Count != 1 {
		t.Errorf("size x2 without cap: %v, want job 4 needing 16 of 8", err)
	}
	one := tiny()
	for i := range one.Jobs {
		one.Jobs[i].Submit = 10
	}
	if _, err := Apply(one, Options{Factor: 2}); !errors.Is(err, ErrNoPeriod) {
		t.Errorf("one submit time: %v, want ErrNoPeriod", err)
	}
	nop := tiny()
	nop.Procs = 0
	if _, err := Apply(nop, Options{Factor: 2}); !errors.Is(err, trace.ErrNoMachineSize) {
		t.Errorf("no machine size: %v", err)
	}
	if _, err := Apply(tiny(), Options{Method: Runtime, Factor: 1e8}); !errors.As(err, new(*RangeError)) {
		t.Errorf("runtime beyond SWF: %v, want RangeError", err)
	}
}

func TestParseMethod(t *testing.T) {
	for s, want := range map[string]Method{"interarrival": Interarrival, "Arrival": Interarrival, "runtime": Runtime, "size": Size, "procs": Size} {
		if m, err := ParseMethod(s); err != nil || m != want {
			t.Errorf("%q: %v %v", s, m, err)
		}
	}
	if _, err := ParseMethod("load"); err == nil {
		t.Error("unknown method accepted")
	}
}

func TestFactorFor(t *testing.T) {
	f, err := FactorFor(tiny(), 0.8)
	if err != nil || !(math.Abs(f-0.8/(2600.0/4800)) <= 1e-12) {
		t.Errorf("FactorFor: %v %v", f, err)
	}
}

// genTrace draws a log of 2 to 60 jobs on a machine of 1 to 512
// processors, some jobs with unknown fields.
func genTrace(rt *rapid.T) *trace.Trace {
	procs := rapid.IntRange(1, 512).Draw(rt, "machine")
	n := rapid.IntRange(2, 60).Draw(rt, "jobs")
	jobs := make([]trace.Job, n)
	s := int64(0)
	for i := range jobs {
		s += rapid.Int64Range(0, 100000).Draw(rt, "gap")
		p := int32(rapid.IntRange(1, procs).Draw(rt, "procs"))
		if rapid.IntRange(0, 9).Draw(rt, "unknown") == 0 {
			p = -1
		}
		jobs[i] = trace.Job{ID: int64(i + 1), Submit: s, Wait: 0, Runtime: rapid.Int64Range(0, 200000).Draw(rt, "runtime"),
			ReqTime: rapid.Int64Range(-1, 400000).Draw(rt, "req"), Procs: p, ReqProcs: p, User: 1}
	}
	jobs[n-1].Submit = s + 1 + rapid.Int64Range(0, 1000000).Draw(rt, "last")
	jobs[n-1].Procs, jobs[n-1].ReqProcs, jobs[n-1].Runtime = 1, 1, 1+jobs[n-1].Runtime
	jobs[0].Procs, jobs[0].ReqProcs = 1, 1
	var h swf.Header
	return trace.New(h, jobs, trace.Options{Procs: procs})
}

// TestInterarrivalProperties: runtimes and sizes are unchanged, the
// order is kept, and the offered load is multiplied by the factor within
// the rounding of the two ends of the span to whole seconds.
func TestInterarrivalProperties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		in := genTrace(rt)
		c := rapid.Float64Range(0.1, 10).Draw(rt, "factor")
		r, err := Apply(in, Options{Method: Interarrival, Factor: c})
		if errors.Is(err, ErrNoPeriod) {
			return // the span rounds to zero
		}
		if err != nil {
			rt.Fatal(err)
		}
		for i, j := range r.Trace.Jobs {
			o := in.Jobs[i]
			if j.Runtime != o.Runtime || j.Procs != o.Procs || j.ReqTime != o.ReqTime || j.ID != o.ID {
				rt.Fatalf("job %d changed beyond its submit time", j.ID)
			}
			if i > 0 && j.Submit < r.Trace.Jobs[i-1].Submit {
				rt.Fatalf("job %d moved before job %d", j.ID, r.Trace.Jobs[i-1].ID)
			}
		}
		_, f, l := work(in)
		span := float64(l - f)
		lo, hi := c*span/(span+c), c*span/math.Max(span-c, 1e-9)
		if r.Achieved < lo*(1-1e-12) || r.Achieved > hi*(1+1e-12) {
			rt.Fatalf("load x%v: achieved %v outside [%v, %v] (span %v s)", c, r.Achieved, lo, hi, span)
		}
	})
}

// TestRuntimeProperties: submit times and sizes are unchanged and the
// offered load is multiplied by the factor within half a second of
// rounding per job.
func TestRuntimeProperties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		in := genTrace(rt)
		c := rapid.Float64Range(0.1, 10).Draw(rt, "factor")
		r, err := Apply(in, Options{Method: Runtime, Factor: c})
		if err != nil {
			rt.Fatal(err)
		}
		var slack float64
		for i, j := range r.Trace.Jobs {
			o := in.Jobs[i]
			if j.Submit != o.Submit || j.Procs != o.Procs {
				rt.Fatalf("job %d: submit or size changed", j.ID)
			}
			if !(math.Abs(float64(j.Runtime)-c*float64(o.Runtime)) <= 0.5) {
				rt.Fatalf("job %d: runtime %d from %d x %v", j.ID, j.Runtime, o.Runtime, c)
			}
			if o.Runnable() && o.Runtime > 0 {
				slack += 0.5 * float64(o.Processors())
			}
		}
		area, f, l := work(in)
		tol := slack / (float64(in.Procs) * float64(l-f))
		if !(math.Abs(r.LoadAfter-c*r.LoadBefore) <= tol+1e-12) {
			rt.Fatalf("load %v -> %v with x%v (tolerance %v, area %v)", r.LoadBefore, r.LoadAfter, c, tol, area)
		}
	})
}

// TestSizeProperties: with Cap no size is ever above the machine or below
// 1, submit times and runtimes are unchanged; without Cap the scaling
// either fails with an OversizeError or leaves every size within the
// machine.
func TestSizeProperties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		in := genTrace(rt)
		c := rapid.Float64Range(0.05, 20).Draw(rt, "factor")
		o := Options{Method: Size, Factor: c, Cap: rapid.Bool().Draw(rt, "cap"), PowerOfTwo: rapid.Bool().Draw(rt, "pow2")}
		r, err := Apply(in, o)
		var oe *OversizeError
		if errors.As(err, &oe) && !o.Cap {
			if oe.Procs <= in.Procs || oe.Count < 1 {
				rt.Fatalf("oversize error for %d of %d processors", oe.Procs, in.Procs)
			}
			return
		}
		if err != nil {
			rt.Fatal(err)
		}
		for i, j := range r.Trace.Jobs {
			old := in.Jobs[i]
			if j.Submit != old.Submit || j.Runtime != old.Runtime {
				rt.Fatalf("job %d: submit or runtime changed", j.ID)
			}
			if old.Procs > 0 && (j.Procs < 1 || int(j.Procs) > in.Procs) {
				rt.Fatalf("job %d: size %d on %d processors", j.ID, j.Procs, in.Procs)
			}
			if o.PowerOfTwo && j.Procs > 1 && j.Procs&(j.Procs-1) != 0 && int(j.Procs) != in.Procs {
				rt.Fatalf("job %d: size %d is not a power of two", j.ID, j.Procs)
			}
		}
	})
}
