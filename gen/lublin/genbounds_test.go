package lublin

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestNewStartHourBounds checks the start hour's range [0, 24): 0 and 23.99
// are accepted, 24 and −0.01 refused with the value named.
func TestNewStartHourBounds(t *testing.T) {
	for _, c := range []struct {
		hour float64
		err  string
	}{
		{0, ""}, {23.99, ""},
		{24, "start hour 24: must be in [0, 24)"},
		{-0.01, "start hour -0.01: must be in [0, 24)"},
	} {
		_, err := New(Config{Params: DefaultParams(Whole), Jobs: 1, StartHour: c.hour})
		if c.err == "" {
			if err != nil {
				t.Errorf("start hour %v: %v", c.hour, err)
			}
			continue
		}
		if !errors.Is(err, ErrInvalidParams) || !strings.HasSuffix(err.Error(), c.err) {
			t.Errorf("start hour %v: err = %v, want %q", c.hour, err, c.err)
		}
	}
}

// TestHeaderOptionalNotes checks that the header notes the machine size and
// the load target only when they were given: a run of the default
// parameters with neither has no "Machine:" and no "Load:" note, one on 64
// processors at load 0.7 has both.
func TestHeaderOptionalNotes(t *testing.T) {
	for _, c := range []struct {
		procs int
		load  float64
		want  []string // note prefixes present; the others absent
	}{
		{0, 0, nil},
		{64, 0, []string{"Machine: 64 processors"}},
		{0, 0.7, []string{"Load: target 0.7, a_arr multiplied by "}},
		{64, 0.7, []string{"Machine: 64 processors", "Load: target 0.7, a_arr multiplied by "}},
	} {
		h, _, err := Generate(Config{Params: DefaultParams(Whole), Jobs: 5, Seed: 1, Procs: c.procs, Load: c.load})
		if err != nil {
			t.Fatal(err)
		}
		notes := h.GetAll("Note")
		for _, prefix := range []string{"Machine: 64 processors", "Load: target 0.7, a_arr multiplied by "} {
			kind := strings.SplitN(prefix, ":", 2)[0] + ":"
			var got []string
			for _, n := range notes {
				if strings.HasPrefix(n, kind) {
					got = append(got, n)
				}
			}
			if !slices.Contains(c.want, prefix) {
				if len(got) != 0 {
					t.Errorf("procs %d, load %v: notes %q", c.procs, c.load, got)
				}
				continue
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], prefix) {
				t.Errorf("procs %d, load %v: notes %q, want one %q", c.procs, c.load, got, prefix)
			}
		}
	}
}

// TestImplausibleBounds checks the plausibility bounds at their edges: a
// shape or mean exactly at its bound (1e4 and 20 for the log Gammas, 100 and
// 48 for the daily cycle, 10 for ARAR) is plausible, a shape, scale or ARAR
// of 0 is not, and just past a bound is not; the messages are exact.
func TestImplausibleBounds(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(*TypeParams)
		key  string // "" when nothing is implausible
		msg  string
	}{
		{"published", func(*TypeParams) {}, "", ""},
		{"a1 at 1e4, mean 20", func(p *TypeParams) { p.A1, p.B1 = 1e4, 20.0/1e4 }, "", ""},
		{"a1 above 1e4", func(p *TypeParams) { p.A1, p.B1 = 1.0001e4, 1e-4 }, "a1", "short-runtime Gamma shape 1e+04 outside (0, 10000]"},
		{"a1 0", func(p *TypeParams) { p.A1 = 0 }, "a1", "short-runtime Gamma shape 0 outside (0, 10000]"},
		{"b2 0", func(p *TypeParams) { p.B2 = 0 }, "b2", "long-runtime Gamma mean 0 (shape x scale) outside (0, 20]"},
		{"a2 x b2 = 20", func(p *TypeParams) { p.A2, p.B2 = 4, 5 }, "", ""},
		{"a2 x b2 = 20.5", func(p *TypeParams) { p.A2, p.B2 = 4.1, 5 }, "b2", "long-runtime Gamma mean 20.5 (shape x scale) outside (0, 20]"},
		{"a_num 100, mean 48", func(p *TypeParams) { p.ANum, p.BNum = 100, 0.48 }, "", ""},
		{"a_num x b_num = 50", func(p *TypeParams) { p.ANum, p.BNum = 100, 0.5 }, "b_num", "daily-cycle Gamma mean 50 (shape x scale) outside (0, 48]"},
		{"arar 10", func(p *TypeParams) { p.ARAR = 10 }, "", ""},
		{"arar 10.5", func(p *TypeParams) { p.ARAR = 10.5 }, "arar", "rush-to-all ratio 10.5 outside (0, 10]"},
		{"arar 0", func(p *TypeParams) { p.ARAR = 0 }, "arar", "rush-to-all ratio 0 outside (0, 10]"},
	} {
		p := WholeParams
		c.set(&p)
		got := p.Implausible()
		if c.key == "" {
			if len(got) != 0 {
				t.Errorf("%s: %v", c.name, got)
			}
			continue
		}
		if len(got) != 1 || got[c.key] != c.msg {
			t.Errorf("%s: %v, want %s: %q", c.name, got, c.key, c.msg)
		}
	}
}

// TestExpTruncMean checks ∫_0^c e^x f(x) dx for Gamma densities f worked by
// hand: scale ½ and shape 1 give 2(1 − e^−c) (the closed form, scale < 1);
// scale 1 and shape 2 give c²/2 (e^x cancels e^−x), and scale 2 and shape 1
// give e^(c/2) − 1 (both by quadrature).
func TestExpTruncMean(t *testing.T) {
	for _, c := range []struct{ a, b, c, want float64 }{
		{1, 0.5, 3, 2 * (1 - math.Exp(-3))},
		{2, 1, 3, 4.5},
		{1, 1, 13, 13},
		{1, 2, 3, math.Exp(1.5) - 1},
	} {
		if got := expTruncMean(c.a, c.b, c.c); !(math.Abs(got-c.want) <= 1e-9*c.want) {
			t.Errorf("shape %v, scale %v, c %v: %v, want %v", c.a, c.b, c.c, got, c.want)
		}
	}
}

// TestCalibrateAtFactorFloor checks that the smallest factor on a_arr
// calibration tries, 0.05 (the shortest interarrivals, the highest load and
// rate), is itself reachable: the load and rate of the default parameters
// scaled by 0.05 are calibrated back to a factor of 0.05.
func TestCalibrateAtFactorFloor(t *testing.T) {
	p := DefaultParams(Whole)
	q := p
	q.Whole.AArr *= 0.05
	_, f, err := CalibrateLoad(p, ExpectedLoad(q))
	if err != nil || !(math.Abs(f-0.05) <= 1e-8) {
		t.Errorf("load %v: factor %v, %v; want 0.05", ExpectedLoad(q), f, err)
	}
	_, f, err = CalibrateRate(p, ExpectedRate(q))
	if err != nil || !(math.Abs(f-0.05) <= 1e-8) {
		t.Errorf("rate %v: factor %v, %v; want 0.05", ExpectedRate(q), f, err)
	}
}

// TestValidateBounds checks the parameter ranges at their edges: serial_prob
// 1, u_hi 20 and u_low 0 are valid; u_hi 0, u_low = u_hi, u_med = u_low,
// u_med = u_hi, a1 0 and an arrival Gamma with almost no mass below its
// truncation point are refused with the exact message naming the field.
func TestValidateBounds(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(*TypeParams)
		err  string
	}{
		{"serial_prob 1", func(p *TypeParams) { p.SerialProb, p.Pow2Prob = 1, 0 }, ""},
		{"u_hi 20", func(p *TypeParams) { p.UHi = 20 }, ""},
		{"u_low 0", func(p *TypeParams) { p.ULow = 0 }, ""},
		{"u_hi 0", func(p *TypeParams) { p.UHi, p.ULow = 0, 0 }, "t.u_hi = 0: must be in (0, 20] (log2 of the machine size)"},
		{"u_low = u_hi", func(p *TypeParams) { p.ULow = 7 }, "t.u_low = 7: must be in [0, u_hi) = [0, 7)"},
		{"u_med = u_low", func(p *TypeParams) { p.UMed = 0.8 }, "t.u_med = 0.8: must be in (u_low, u_hi) = (0.8, 7)"},
		{"u_med = u_hi", func(p *TypeParams) { p.UMed = 7 }, "t.u_med = 7: must be in (u_low, u_hi) = (0.8, 7)"},
		{"a1 0", func(p *TypeParams) { p.A1 = 0 }, "t.a1 = 0: must be a finite number > 0"},
		// The arrival Gamma's shape is a_arr·arar: 40 leaves 1.5e-9 of the mass
		// below ln 13, while a_arr/arar = 10 would leave 0.83.
		{"a_arr·arar 40", func(p *TypeParams) { p.AArr, p.ARAR, p.BArr = 20, 2, 1 },
			"t.a_arr/b_arr: the Gamma puts only 1.5e-09 of its mass below the truncation point 13; use smaller values"},
	} {
		p := WholeParams
		c.set(&p)
		err := p.validate("t")
		if c.err == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if err == nil || err.Error() != ErrInvalidParams.Error()+": "+c.err {
			t.Errorf("%s: err = %v, want %s", c.name, err, c.err)
		}
	}
}

// TestTargetOfByHand checks the arrival rate and load of a hand-made log.
// Jobs (submit, runtime, size): (10, 100, 4), (0, 0, 2) (a runtime of 0
// counts), (−1, 5, 1) and (20, 5, 0) (left out), (30, 10, 8): 3 jobs over
// 30 s, 2/30 jobs per second = 5,760 per day, work 400 + 0 + 80 = 480 on the
// widest job's 8 processors: load 480 / (8 · 30) = 2. Two jobs submitted
// 1 s apart are enough; two at the same second are not.
func TestTargetOfByHand(t *testing.T) {
	l := Log{Submit: []int64{10, 0, -1, 20, 30}, Runtime: []int64{100, 0, 5, 5, 10}, Procs: []int64{4, 2, 1, 0, 8}}
	got, err := TargetOf(l)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Target{Jobs: 3, JobsPerDay: 5760, OfferedLoad: 2, MachineProcs: 8}); *got != want {
		t.Errorf("%+v, want %+v", *got, want)
	}
	got, err = TargetOf(Log{Submit: []int64{5, 6}, Runtime: []int64{1, 1}, Procs: []int64{1, 1}})
	if err != nil || got.Jobs != 2 || got.JobsPerDay != 86400 || got.OfferedLoad != 2 {
		t.Errorf("two jobs 1 s apart: %+v, %v", got, err)
	}
	_, err = TargetOf(Log{Submit: []int64{5, 5}, Runtime: []int64{1, 1}, Procs: []int64{1, 1}})
	if want := ErrInvalidParams.Error() + ": 2 jobs with a runtime and a size over 0 s: no arrival rate"; err == nil || err.Error() != want {
		t.Errorf("two jobs at the same second: %v, want %s", err, want)
	}
}

// TestRuntimeGammaScales checks that each runtime component draws from
// Gamma(shape A, scale B) (lublin99.c's hyper-Gamma) on ln(runtime): with
// PA = 0, PB = 1 every job takes the first component, with PB = 0 the
// second. A = 4, B = ½ is an Erlang law, whose tail P(X > x) =
// e^(−x/B)·Σ_{i<4} (x/B)^i/i! is worked out by hand; a runtime (e^X
// truncated to whole seconds) reaches 8 s exactly when X >= ln 8, where
// x/B = ln 64, so P(runtime >= 8) = (1 + L + L²/2 + L³/6)/64 with L = ln 64,
// 0.4030. Over 20,000 draws the fraction's standard error is
// √(0.403 · 0.597 / 20000) ≈ 0.0035; the tolerance 0.014 is 4 of them.
// With the rate taken for the scale (Gamma of mean A/B = 8 in ln seconds)
// the fraction would be above 0.95.
func TestRuntimeGammaScales(t *testing.T) {
	const n = 20000
	l := math.Log(64)
	want := (1 + l + l*l/2 + l*l*l/6) / 64
	for _, c := range []struct {
		name string
		t    TypeParams
	}{
		{"first component", TypeParams{A1: 4, B1: 0.5, A2: 300, B2: 0.03, PA: 0, PB: 1}},
		{"second component", TypeParams{A1: 300, B1: 0.03, A2: 4, B2: 0.5, PA: 0, PB: 0}},
	} {
		g := newClassGen(c.t, rand.New(rand.NewPCG(3, 4)))
		k := 0
		for range n {
			if g.runtime(2) >= 8 {
				k++
			}
		}
		if f := float64(k) / n; !(math.Abs(f-want) <= 0.014) {
			t.Errorf("%s: P(runtime >= 8 s) = %.4f, want %.4f ± 0.014", c.name, f, want)
		}
	}
}

// TestJobCountDefault checks how the run's length is chosen: with neither a
// job count nor a duration the run has DefaultJobs (50,000) jobs; with a
// duration alone it is not capped at that count. The duration is the time
// in which the model's expected rate (Expected) brings 60,000 jobs: the
// arrivals over 20 % more than the default count are far outside the
// sampling error of a count of 60,000 (tens of thousands of interarrivals,
// a relative error near 1 %).
func TestJobCountDefault(t *testing.T) {
	g, err := New(Config{Params: DefaultParams(Whole), Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	rate, _ := g.Expected()
	d := int64(60000 / rate * 86400)
	dg, err := New(Config{Params: DefaultParams(Whole), Seed: 5, Duration: d})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for j, ok := dg.Next(); ok; j, ok = dg.Next() {
		if j.Submit > d {
			t.Fatalf("job at %d after the duration %d", j.Submit, d)
		}
		n++
	}
	if n < 55000 || n > 65000 {
		t.Errorf("duration %d s alone: %d jobs, want about 60,000", d, n)
	}
	// At most one job past the default count is drawn, so that a run
	// that never ends fails here instead of hanging.
	n = 0
	for _, ok := g.Next(); ok && n <= DefaultJobs; _, ok = g.Next() {
		n++
	}
	if n != DefaultJobs {
		t.Errorf("no count nor duration: %d jobs (stopped at %d), want %d", n, DefaultJobs+1, DefaultJobs)
	}
}

// TestHeaderFields checks the header fields that depend on the mode and the
// machine: MaxNodes and MaxProcs are 2^UHi rounded (128 for the published
// whole set; 100 on a machine of 100 processors, where UHi = log2 100; in
// typed mode the larger of the two classes' UHi, here a batch UHi of 8 for
// 256 while the whole set's stays 7); one queue for the whole-sample model,
// two (interactive and batch) for the typed one; and the expected rate is
// noted for the slot-weight arrivals only.
func TestHeaderFields(t *testing.T) {
	typed := DefaultParams(Typed)
	typed.Batch.UHi = 8
	for _, c := range []struct {
		name     string
		cfg      Config
		maxNodes string
		queues   string
		arrivals bool // an "Arrivals:" note instead of "ExpectedRate:"
	}{
		{"whole", Config{Params: DefaultParams(Whole)}, "128", "1", false},
		{"whole on 100", Config{Params: DefaultParams(Whole), Procs: 100}, "100", "1", false},
		{"typed", Config{Params: typed}, "256", "2", false},
		{"expected interarrival", Config{Params: DefaultParams(Whole), Arrivals: ExpectedInterarrival}, "128", "1", true},
	} {
		c.cfg.Jobs, c.cfg.Seed = 5, 1
		h, _, err := Generate(c.cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, kv := range [][2]string{{"MaxNodes", c.maxNodes}, {"MaxProcs", c.maxNodes}, {"MaxQueues", c.queues}} {
			if got, _ := h.Get(kv[0]); got != kv[1] {
				t.Errorf("%s: %s %q, want %q", c.name, kv[0], got, kv[1])
			}
		}
		var arr, rate int
		for _, n := range h.GetAll("Note") {
			if strings.HasPrefix(n, "Arrivals: method "+string(ExpectedInterarrival)) {
				arr++
			}
			if strings.HasPrefix(n, "ExpectedRate: ") {
				rate++
			}
		}
		if c.arrivals && (arr != 1 || rate != 0) || !c.arrivals && (arr != 0 || rate != 1) {
			t.Errorf("%s: %d arrival-method notes and %d expected-rate notes", c.name, arr, rate)
		}
	}
}

// TestStartHourPhase checks that the start hour sets the phase of the daily
// cycle: time 0 is that local time of day, so the arrivals' local hours
// (Summarize with the same start hour) follow the same cycle whatever the
// start hour. The fraction of arrivals between 08:00 and 18:00 over 20,000
// jobs is compared between start hours 0 and 12 (0.633 and 0.629 at seed
// 9): the tolerance 0.05 is over ten binomial standard errors
// (√(0.63 · 0.37 / 20000) ≈ 0.0034), room for the day-to-day variation of
// the cycle, while a run whose time 0 were midnight but read as noon gives
// 0.21.
func TestStartHourPhase(t *testing.T) {
	day := func(startHour float64) float64 {
		_, jobs, err := Generate(Config{Params: DefaultParams(Whole), Jobs: 20000, Seed: 9, StartHour: startHour})
		if err != nil {
			t.Fatal(err)
		}
		h := Summarize(jobs, 128, startHour).Hourly
		f := 0.0
		for i := 8; i < 18; i++ {
			f += h[i]
		}
		return f
	}
	f0, f12 := day(0), day(12)
	t.Logf("fraction of arrivals 08:00-18:00: %.4f (start hour 0), %.4f (start hour 12)", f0, f12)
	if !(math.Abs(f0-f12) <= 0.05) {
		t.Errorf("fraction of arrivals 08:00-18:00: %.4f from start hour 0, %.4f from start hour 12", f0, f12)
	}
}

// TestScaleToMachineSmallRule checks the small-machine rule of
// ScaleToMachine where it matters: on 10 processors the whole set's UMed
// moves to 4.5 + log2 10 − 7 ≈ 0.82, within 0.2 of ULow (0.8), so it is set
// to UHi − 1.5 = log2 10 − 1.5; on 11 processors (UMed ≈ 0.96) too; on 12
// (UMed ≈ 1.08, more than 0.2 above ULow) it is kept. Two processors is the
// smallest machine: a set with ULow 0 and UMed 6.5 scales to it (UHi 1,
// UMed 0.5); one processor is refused.
func TestScaleToMachineSmallRule(t *testing.T) {
	p := DefaultParams(Whole)
	p.Whole.ULow, p.Whole.UMed = 0, 6.5
	if s, err := p.ScaleToMachine(2); err != nil || s.Whole.UHi != 1 || s.Whole.UMed != 0.5 {
		t.Errorf("2 processors: UHi %v, UMed %v, error %v; want 1, 0.5", s.Whole.UHi, s.Whole.UMed, err)
	}
	if _, err := p.ScaleToMachine(1); !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), "machine size 1: must be at least 2") {
		t.Errorf("1 processor: error %v", err)
	}
	for _, c := range []struct {
		procs int
		umed  float64
	}{
		{10, math.Log2(10) - 1.5},
		{11, math.Log2(11) - 1.5},
		{12, math.Log2(12) - 2.5},
	} {
		p, err := DefaultParams(Whole).ScaleToMachine(c.procs)
		if err != nil {
			t.Fatalf("%d processors: %v", c.procs, err)
		}
		if w := p.Whole; !(math.Abs(w.UHi-math.Log2(float64(c.procs))) <= 1e-12) || !(math.Abs(w.UMed-c.umed) <= 1e-12) {
			t.Errorf("%d processors: UHi %v, UMed %v; want log2 P and %v", c.procs, w.UHi, w.UMed, c.umed)
		}
	}
}

// TestCalibrateRateOutOfReach checks the error of a rate no factor on a_arr
// reaches: 1,000 jobs per second are 86,400,000 (8.64e+07) jobs per day,
// named in the message.
func TestCalibrateRateOutOfReach(t *testing.T) {
	_, _, err := CalibrateRate(DefaultParams(Whole), 1000)
	if !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), "arrival rate 8.64e+07 jobs/day is out of reach") {
		t.Errorf("error %v", err)
	}
}

// TestMachineProcs checks the machine size a parameter set describes,
// round(2^UHi) of the classes in use: a whole set with UHi 8 (the typed
// classes left at 7 and 5.5) gives 256; a typed set with a batch UHi of 8
// (the whole class left at 7) 256; with an interactive UHi of log2 100 and a
// batch UHi of 6, 100.
func TestMachineProcs(t *testing.T) {
	whole := DefaultParams(Whole)
	whole.Whole.UHi = 8
	typed := DefaultParams(Typed)
	typed.Batch.UHi = 8
	mixed := DefaultParams(Typed)
	mixed.Batch.UHi, mixed.Interactive.UHi = 6, math.Log2(100)
	for _, c := range []struct {
		name string
		p    Params
		want int
	}{
		{"whole", whole, 256},
		{"typed", typed, 256},
		{"typed, interactive wider", mixed, 100},
	} {
		if got := c.p.MachineProcs(); got != c.want {
			t.Errorf("%s: %d processors, want %d", c.name, got, c.want)
		}
	}
}

// TestCalibrateReachableRange checks that the range an unreachable target
// names is the range reached: a load of 1e-6 and a rate of 1e-9 jobs/s are
// refused with "reachable range [lo, hi]" (3 digits), and targets 1 % inside
// either end (beyond the rounding to 3 digits) are reached, by parameters
// that validate, to 1e-6 relative (the bisection stops at 1e-9 on the
// factor); so is 80 % of the set's own load or rate, which needs longer
// interarrivals (a factor above 1).
func TestCalibrateReachableRange(t *testing.T) {
	p := DefaultParams(Whole)
	for _, c := range []struct {
		name    string
		calib   func(Params, float64) (Params, float64, error)
		measure func(Params) float64
		far     float64
	}{
		{"load", CalibrateLoad, ExpectedLoad, 1e-6},
		{"rate", CalibrateRate, ExpectedRate, 1e-9},
	} {
		_, _, err := c.calib(p, c.far)
		if err == nil {
			t.Fatalf("%s %v: reached", c.name, c.far)
		}
		var lo, hi float64
		msg := err.Error()
		if i := strings.Index(msg, "reachable range ["); i < 0 {
			t.Fatalf("%s: error %v names no range", c.name, err)
		} else if _, err := fmt.Sscanf(msg[i:], "reachable range [%g, %g]", &lo, &hi); err != nil {
			t.Fatalf("%s: %q: %v", c.name, msg[i:], err)
		}
		// 80 % of the set's own value needs a factor above 1 on a_arr.
		for _, target := range []float64{lo * 1.01, hi * 0.99, 0.8 * c.measure(p)} {
			q, f, err := c.calib(p, target)
			if err != nil {
				t.Errorf("%s %v (range [%v, %v]): %v", c.name, target, lo, hi, err)
				continue
			}
			if got := c.measure(q); q.Validate() != nil || !(math.Abs(got/target-1) <= 1e-6) {
				t.Errorf("%s %v: factor %v gives %v (valid: %v)", c.name, target, f, got, q.Validate())
			}
		}
	}
}

// TestMeanRuntimeMatchesDraws checks MeanRuntime against the runtimes the
// generator draws, on Gammas that the truncation at ln runtime 12 cuts
// (shape 30, scale 0.4: mean 12, about half the mass refused and drawn
// again), so that the conditional mean E[e^X | X <= 12] is not the plain
// one. The sample mean of 40,000 draws has a standard error of about 0.5 %
// (the sample's own standard deviation over √n); the tolerance is 4 of
// them, computed from the sample.
func TestMeanRuntimeMatchesDraws(t *testing.T) {
	const n = 40000
	for _, c := range []struct {
		name string
		t    TypeParams
	}{
		{"second component, cut", TypeParams{A1: 4, B1: 0.5, A2: 30, B2: 0.4, PA: 0, PB: 0}},
		{"first component, cut", TypeParams{A1: 30, B1: 0.4, A2: 4, B2: 0.5, PA: 0, PB: 1}},
		{"half and half", TypeParams{A1: 4, B1: 0.5, A2: 30, B2: 0.4, PA: 0, PB: 0.5}},
	} {
		g := newClassGen(c.t, rand.New(rand.NewPCG(5, 6)))
		var s, s2 float64
		for range n {
			r := float64(g.runtime(2))
			s += r
			s2 += r * r
		}
		mean := s / n
		se := math.Sqrt((s2/n-mean*mean)/n) * 4
		t.Logf("%s: mean runtime drawn %.1f, MeanRuntime %.1f, 4 standard errors %.1f", c.name, mean, c.t.MeanRuntime(2), se)
		if want := c.t.MeanRuntime(2); !(math.Abs(mean-want) <= se) {
			t.Errorf("%s: mean runtime drawn %.1f, MeanRuntime %.1f (tolerance %.1f)", c.name, mean, want, se)
		}
	}
}

// TestExpectedRateTyped checks the typed model's arrival rate: its two
// classes arrive as independent streams, so the rate is the sum of the
// classes' rates, each the inverse of the class's mean interarrival time.
func TestExpectedRateTyped(t *testing.T) {
	p := DefaultParams(Typed)
	b, i := 1/p.Batch.MeanInterarrival(), 1/p.Interactive.MeanInterarrival()
	t.Logf("batch %.4g, interactive %.4g jobs/s", b, i)
	if got := ExpectedRate(Params{Mode: Whole, Whole: p.Batch}); !(math.Abs(got/b-1) <= 1e-12) {
		t.Errorf("batch class alone: %v jobs/s, want %v", got, b)
	}
	if got := ExpectedRate(p); !(math.Abs(got/(b+i)-1) <= 1e-12) {
		t.Errorf("typed: %v jobs/s, want %v + %v", got, b, i)
	}
	// A typed run long enough for 40,000 expected jobs has that many, to
	// 20 %: over seeds 1 to 6 the count ranged from 38,341 to 43,344 (a
	// standard deviation near 5 %: the interarrivals' long tail), so 20 %
	// is about 4 of them.
	d := int64(40000 / (b + i))
	_, jobs, err := Generate(Config{Params: p, Duration: d, Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("typed run of %d s: %d jobs, 40,000 expected", d, len(jobs))
	if !(math.Abs(float64(len(jobs))/40000-1) <= 0.2) {
		t.Errorf("typed run of %d s: %d jobs, want 40,000 ± 20 %%", d, len(jobs))
	}
}

// TestCalibrateNonPositive checks that a load or rate of 0, below 0 or NaN
// is refused as such ("must be > 0"), not searched for.
func TestCalibrateNonPositive(t *testing.T) {
	for _, v := range []float64{0, -1, math.NaN()} {
		if _, _, err := CalibrateLoad(DefaultParams(Whole), v); !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), "must be > 0") {
			t.Errorf("load %v: error %v", v, err)
		}
		if _, _, err := CalibrateRate(DefaultParams(Whole), v); !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), "must be > 0") {
			t.Errorf("rate %v: error %v", v, err)
		}
	}
}
