package lublin

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

func TestDailyWeightsMatchSpecVectors(t *testing.T) {
	// Derived test vectors of §7.4 (printed to 3 decimals; bucket 0 is
	// 00:00-00:30), so the tolerance is half a unit of the last digit plus
	// rounding of the printed value.
	cases := []struct {
		name string
		t    TypeParams
		want []float64
	}{
		{"whole", WholeParams, []float64{0.508, 0.456, 0.409, 0.365, 0.325, 0.289, 0.256, 0.226, 0.200, 0.176, 0.165, 0.239, 0.329, 0.435, 0.554, 0.684, 0.821, 0.961,
			1.100, 1.235, 1.362, 1.477, 1.579, 1.664, 1.733, 1.784, 1.817, 1.833, 1.832, 1.815, 1.785, 1.741, 1.687, 1.624, 1.554, 1.478, 1.398,
			1.315, 1.231, 1.147, 1.064, 0.983, 0.904, 0.828, 0.756, 0.688, 0.624, 0.564}},
		{"batch", BatchParams, []float64{0.546, 0.501, 0.459, 0.419, 0.383, 0.348, 0.317, 0.287, 0.260, 0.235, 0.347, 0.448, 0.559, 0.676, 0.796, 0.917, 1.035, 1.148,
			1.253, 1.348, 1.433, 1.504, 1.563, 1.608, 1.640, 1.659, 1.666, 1.661, 1.645, 1.619, 1.585, 1.543, 1.494, 1.441, 1.383, 1.322, 1.259,
			1.194, 1.128, 1.063, 0.998, 0.934, 0.872, 0.812, 0.753, 0.698, 0.644, 0.594}},
		{"interactive", InteractiveParams, []float64{0.514, 0.459, 0.409, 0.363, 0.321, 0.284, 0.250, 0.219, 0.192, 0.168, 0.119, 0.180, 0.258, 0.352, 0.463, 0.587, 0.722,
			0.865, 1.010, 1.154, 1.293, 1.423, 1.540, 1.643, 1.728, 1.795, 1.843, 1.871, 1.881, 1.873, 1.849, 1.810, 1.759, 1.696, 1.625, 1.546,
			1.463, 1.375, 1.286, 1.197, 1.108, 1.021, 0.937, 0.856, 0.778, 0.705, 0.637, 0.573}},
	}
	for _, c := range cases {
		w := DailyWeights(c.t.ANum, c.t.BNum)
		for i, want := range c.want {
			if !(math.Abs(w[i]-want) <= 0.0006) {
				t.Errorf("%s bucket %d: %.4f, want %.3f", c.name, i, w[i], want)
			}
		}
	}
}

// reference holds the §9.6 acceptance ranges (3 seeds × 50,000 jobs of a
// faithful re-implementation); means of heavy-tailed quantities get the
// spec's ±3-5 % on top (applied as the widened bounds below).
type reference struct {
	name   string
	get    func(Statistics) float64
	lo, hi float64
}

func referenceRanges(m Mode) []reference {
	if m == Whole {
		return []reference{
			{"frac serial", func(s Statistics) float64 { return s.FracSerial }, 0.239, 0.245},
			{"frac pow2 > 1 of all jobs", func(s Statistics) float64 { return s.FracPow2 }, 0.62, 0.63},
			{"mean procs", func(s Statistics) float64 { return s.MeanProcs }, 12.0 * 0.97, 12.2 * 1.03},
			{"median procs", func(s Statistics) float64 { return s.MedianProcs }, 4, 4},
			{"mean runtime", func(s Statistics) float64 { return s.MeanRuntime }, 4310 * 0.95, 4420 * 1.05},
			{"median runtime", func(s Statistics) float64 { return s.MedianRuntime }, 107 * 0.97, 109 * 1.03},
			{"mean ln runtime", func(s Statistics) float64 { return s.MeanLogRuntime }, 5.48 - 0.03, 5.49 + 0.03},
			{"mean interarrival", func(s Statistics) float64 { return s.MeanInterarrival }, 889 * 0.97, 916 * 1.03},
			{"median interarrival", func(s Statistics) float64 { return s.MedianInterarrival }, 115 * 0.97, 120 * 1.03},
			{"span days", func(s Statistics) float64 { return s.SpanDays }, 515 * 0.97, 530 * 1.03},
			{"corr", func(s Statistics) float64 { return s.Corr }, 0.17 - 0.015, 0.18 + 0.015},
			{"load", func(s Statistics) float64 { return s.Load }, 0.71 * 0.95, 0.75 * 1.05},
		}
	}
	return []reference{
		{"frac serial", func(s Statistics) float64 { return s.FracSerial }, 0.172 - 0.004, 0.174 + 0.004},
		{"frac pow2 > 1 of all jobs", func(s Statistics) float64 { return s.FracPow2 }, 0.686, 0.696},
		{"mean procs", func(s Statistics) float64 { return s.MeanProcs }, 8.8 * 0.97, 9.0 * 1.03},
		{"median procs", func(s Statistics) float64 { return s.MedianProcs }, 4, 4},
		{"mean runtime", func(s Statistics) float64 { return s.MeanRuntime }, 1400 * 0.95, 1700 * 1.05},
		{"median runtime", func(s Statistics) float64 { return s.MedianRuntime }, 17 * 0.97, 19 * 1.03},
		{"mean ln runtime", func(s Statistics) float64 { return s.MeanLogRuntime }, 3.46 - 0.03, 3.59 + 0.03},
		{"mean interarrival", func(s Statistics) float64 { return s.MeanInterarrival }, 504 * 0.97, 544 * 1.03},
		{"median interarrival", func(s Statistics) float64 { return s.MedianInterarrival }, 51 * 0.95, 51 * 1.05},
		{"span days", func(s Statistics) float64 { return s.SpanDays }, 292 * 0.97, 315 * 1.03},
		{"frac batch", func(s Statistics) float64 { return s.FracBatch }, 0.13, 0.16},
		{"corr", func(s Statistics) float64 { return s.Corr }, 0.14 - 0.015, 0.15 + 0.015},
		{"load", func(s Statistics) float64 { return s.Load }, 0.35 * 0.95, 0.43 * 1.05},
	}
}

// TestReferenceStatistics compares the mean of each statistic over three
// seeds of 50,000 jobs with §9.6. The spec's ranges come from three seeds
// of another implementation; a single seed can fall outside them by sampling
// noise alone (e.g. the standard error of mean ln runtime is ≈ 0.013 per
// 50,000 jobs), so the three-seed average is checked against the ranges
// widened as in referenceRanges.
func TestReferenceStatistics(t *testing.T) {
	for _, m := range []Mode{Whole, Typed} {
		var all []Statistics
		for seed := uint64(1); seed <= 3; seed++ {
			_, jobs, err := Generate(Config{Params: DefaultParams(m), Jobs: 50000, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, Summarize(jobs, 128, 0))
		}
		for _, r := range referenceRanges(m) {
			v := 0.0
			for _, s := range all {
				v += r.get(s) / float64(len(all))
			}
			if v < r.lo || v > r.hi {
				t.Errorf("%s: %s = %.4g (3-seed mean), want in [%.4g, %.4g] (§9.6)", m, r.name, v, r.lo, r.hi)
			}
		}
		if m != Whole {
			continue
		}
		// §9.6: minimum ≈ 0.7 %/h at 04:00-05:00, maximum 7-8 %/h between
		// 12:00 and 16:00, ≈ 2 % at midnight.
		for seed, s := range all {
			peak, ph := 0.0, 0
			for h, f := range s.Hourly {
				if f > peak {
					peak, ph = f, h
				}
			}
			if s.Hourly[4] > 0.0095 || peak < 0.065 || peak > 0.085 || ph < 12 || ph > 15 || !(math.Abs(s.Hourly[0]-0.02) <= 0.004) {
				t.Errorf("seed %d: hourly profile off: %.3f", seed+1, s.Hourly)
			}
		}
	}
}

func TestExpectedLoadMatchesReference(t *testing.T) {
	// §9.6: offered load on 128 nodes 0.71-0.75 (whole), 0.35-0.43 (typed).
	if l := ExpectedLoad(DefaultParams(Whole)); l < 0.71 || l > 0.75 {
		t.Errorf("whole expected load %v", l)
	}
	if l := ExpectedLoad(DefaultParams(Typed)); l < 0.35 || l > 0.43 {
		t.Errorf("typed expected load %v", l)
	}
	if got := WholeParams.MeanInterarrival(); got < 889 || got > 916 {
		t.Errorf("whole mean interarrival %v, want 889-916 s (§9.6)", got)
	}
}

func TestDeterministic(t *testing.T) {
	cfg := Config{Params: DefaultParams(Typed), Jobs: 2000, Seed: 42}
	h1, a, _ := Generate(cfg)
	h2, b, _ := Generate(cfg)
	if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(h1, h2) {
		t.Fatal("same seed gave different output")
	}
	cfg.Seed = 43
	_, c, _ := Generate(cfg)
	if reflect.DeepEqual(a, c) {
		t.Fatal("different seeds gave the same jobs")
	}
	// Byte-identical SWF.
	var w1, w2 bytes.Buffer
	if err := swf.NewWriter(&w1).WriteAll(&h1, a); err != nil {
		t.Fatal(err)
	}
	_ = swf.NewWriter(&w2).WriteAll(&h2, b)
	if !bytes.Equal(w1.Bytes(), w2.Bytes()) {
		t.Fatal("SWF output differs")
	}
}

func TestJobsAreWellFormed(t *testing.T) {
	_, jobs, err := Generate(Config{Params: DefaultParams(Typed), Jobs: 20000, Seed: 7, Procs: 256})
	if err != nil {
		t.Fatal(err)
	}
	prev := int64(0)
	for i, j := range jobs {
		if j.ID != int64(i+1) || j.Submit < prev || j.Procs < 1 || j.Procs > 256 ||
			j.Runtime < 1 || float64(j.Runtime) > math.Exp(12) || j.Status != 1 || (j.Queue != 0 && j.Queue != 1) {
			t.Fatalf("bad job %d: %+v", i, j)
		}
		if j.Wait != -1 || j.ReqProcs != -1 || j.User != -1 {
			t.Fatalf("unknown fields must be -1 (§9.3): %+v", j)
		}
		prev = j.Submit
	}
}

func TestDurationAndStartHour(t *testing.T) {
	_, jobs, err := Generate(Config{Params: DefaultParams(Whole), Duration: 7 * 86400, Seed: 1, StartHour: 8})
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) == 0 || jobs[len(jobs)-1].Submit > 7*86400 {
		t.Fatalf("%d jobs, last at %d", len(jobs), jobs[len(jobs)-1].Submit)
	}
	// About one week at ≈ 911 s per job.
	if n := len(jobs); n < 500 || n > 850 {
		t.Errorf("%d jobs in a week", n)
	}
}

func TestLoadCalibration(t *testing.T) {
	for _, c := range []struct {
		mode  Mode
		procs int
		load  float64
	}{{Whole, 256, 0.5}, {Typed, 128, 0.8}, {Whole, 1024, 0.9}} {
		cfg := Config{Params: DefaultParams(c.mode), Jobs: 100000, Seed: 3, Procs: c.procs, Load: c.load}
		g, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if l := ExpectedLoad(g.Params()); !(math.Abs(l-c.load) <= 1e-6) {
			t.Errorf("calibrated expected load %v, want %v", l, c.load)
		}
		_, jobs, _ := Generate(cfg)
		s := Summarize(jobs, c.procs, 0)
		// Runtimes and interarrivals are heavy-tailed: over seeds 1-8 the
		// measured load of 100,000 jobs had a relative standard deviation of
		// 5.6 % in typed mode (mean 0.806 for target 0.8, i.e. no bias) and
		// 2 % in whole mode; 15 % is about 2.7 s.d. of the typed case.
		if !(math.Abs(s.Load-c.load) <= 0.15*c.load) {
			t.Errorf("%v on %d: measured load %.3f, want %.3f", c.mode, c.procs, s.Load, c.load)
		}
	}
	if _, _, err := CalibrateLoad(DefaultParams(Whole), 1e6); err == nil || !strings.Contains(err.Error(), "reachable range") {
		t.Errorf("unreachable load: %v", err)
	}
}

func TestValidation(t *testing.T) {
	cases := []struct {
		field string
		edit  func(p *Params)
	}{
		{"whole.u_med", func(p *Params) { p.Whole.UMed = 7.5 }},
		{"whole.serial_prob", func(p *Params) { p.Whole.SerialProb = 1.2 }},
		{"whole.pow2_prob", func(p *Params) { p.Whole.Pow2Prob = 0.9 }},
		{"whole.a1", func(p *Params) { p.Whole.A1 = -1 }},
		{"whole.u_low", func(p *Params) { p.Whole.ULow = 8 }},
		{"whole.a_arr/b_arr", func(p *Params) { p.Whole.AArr = 100 }},
		{"mode", func(p *Params) { p.Mode = "both" }},
	}
	for _, c := range cases {
		p := DefaultParams(Whole)
		c.edit(&p)
		err := p.Validate()
		if !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: %v", c.field, err)
		}
	}
	if err := DefaultParams(Typed).Validate(); err != nil {
		t.Error(err)
	}
	if _, err := DefaultParams(Typed).ScaleToMachine(8); err == nil {
		t.Error("typed model on 8 processors should not validate (interactive UHi below ULow)")
	}
	p, err := DefaultParams(Whole).ScaleToMachine(8)
	if err != nil || p.Whole.UHi != 3 || p.Whole.UMed != 1.5 {
		t.Errorf("8-node whole model: %+v %v (program note: UHi 3, UMed 1.5)", p.Whole, err)
	}
}

func TestParamsJSONRoundTrip(t *testing.T) {
	var b bytes.Buffer
	if err := WriteParams(&b, DefaultParams(Typed)); err != nil {
		t.Fatal(err)
	}
	p, err := ReadParams(&b)
	if err != nil || !reflect.DeepEqual(p, DefaultParams(Typed)) {
		t.Fatalf("%+v %v", p, err)
	}
	// Partial file: defaults fill the rest.
	p, err = ReadParams(strings.NewReader(`{"mode":"whole","whole":{"u_hi":8,"u_med":5.5}}`))
	if err != nil || p.Whole.UHi != 8 || p.Whole.A1 != WholeParams.A1 {
		t.Fatalf("partial file: %+v %v", p.Whole, err)
	}
	if _, err := ReadParams(strings.NewReader(`{"mode":"whole","bogus":1}`)); err == nil {
		t.Error("unknown field accepted")
	}
}

func BenchmarkGenerate(b *testing.B) {
	for b.Loop() {
		g, _ := New(Config{Params: DefaultParams(Typed), Jobs: 1000000, Seed: 1})
		for {
			if _, ok := g.Next(); !ok {
				break
			}
		}
	}
}

func BenchmarkGenerateSWF(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Generate(Config{Params: DefaultParams(Whole), Jobs: 1000000, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSizesFitTheMachine checks that no generated job is wider than the
// machine, also when the machine is not a power of two (power-of-two
// rounding would reach 128 on 100 processors), and that the exact size
// distribution still sums to 1.
func TestSizesFitTheMachine(t *testing.T) {
	// The size parameters fitted to KTH-SP2 (100 processors) by fit lublin.
	fitted := DefaultParams(Whole)
	fitted.Whole.SerialProb, fitted.Whole.Pow2Prob = 0.346, 0.391
	fitted.Whole.ULow, fitted.Whole.UMed, fitted.Whole.UHi, fitted.Whole.UProb = 0.655, 3.593, math.Log2(100), 0.751
	tests := []struct {
		name  string
		cfg   Config
		procs int64
	}{
		{"fitted on 100", Config{Params: fitted, Jobs: 20000, Seed: 3}, 100},
		{"published scaled to 100", Config{Params: DefaultParams(Whole), Procs: 100, Jobs: 20000, Seed: 3}, 100},
		{"published scaled to 48", Config{Params: DefaultParams(Typed), Procs: 48, Jobs: 20000, Seed: 3}, 48},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, jobs, err := Generate(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, j := range jobs {
				if j.Procs < 1 || j.Procs > tt.procs {
					t.Fatalf("job %d has %d processors on a machine of %d", j.ID, j.Procs, tt.procs)
				}
			}
		})
	}
	sum := 0.0
	for _, p := range fitted.Whole.SizeDistribution() {
		sum += p
	}
	if !(math.Abs(sum-1) <= 1e-9) {
		t.Errorf("size distribution sums to %v", sum)
	}
}

// TestTargetRate checks that parameters holding a fitted log's target are
// calibrated to its arrival rate by default, and keep their own with
// OwnRate or an explicit load.
func TestTargetRate(t *testing.T) {
	p := DefaultParams(Whole)
	own := ExpectedRate(p) * 86400
	p.Target = &Target{Jobs: 1000, JobsPerDay: 2 * own, OfferedLoad: 0.5, MachineProcs: 128}
	g, err := New(Config{Params: p, Jobs: 40000, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := g.Expected(); !(math.Abs(r-2*own) <= 1e-6*own) {
		t.Errorf("expected rate %v jobs/day, want the target %v", r, 2*own)
	}
	var first, last int64
	n := 0
	for {
		j, ok := g.Next()
		if !ok {
			break
		}
		if n == 0 {
			first = j.Submit
		}
		last = j.Submit
		n++
	}
	if got := float64(n-1) / float64(last-first) * 86400; !(math.Abs(got-2*own) <= 0.05*2*own) {
		t.Errorf("generated %.1f jobs/day, want %.1f within 5%%", got, 2*own)
	}
	for _, cfg := range []Config{{Params: p, OwnRate: true}, {Params: p, Load: ExpectedLoad(DefaultParams(Whole))}} {
		g, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if r, _ := g.Expected(); !(math.Abs(r-own) <= 1e-3*own) {
			t.Errorf("%+v: rate %v, want the parameters' own %v", cfg.OwnRate, r, own)
		}
	}
}

// TestHyperErlang checks the hyper-Erlang option (Lublin and Feitelson
// (2003), section 5.2): integer shapes, component means kept, and generated
// ln runtimes whose mean matches the hyper-Gamma's within sampling error.
func TestHyperErlang(t *testing.T) {
	e := WholeParams.HyperErlang()
	if e.A1 != 4 || e.A2 != 312 || !(math.Abs(e.A1*e.B1-WholeParams.A1*WholeParams.B1) <= 1e-12) || !(math.Abs(e.A2*e.B2-WholeParams.A2*WholeParams.B2) <= 1e-12) {
		t.Errorf("hyper-Erlang of the whole-sample set: %+v", e)
	}
	if got := (TypeParams{A1: 0.3, B1: 2, A2: 7.5, B2: 1}).HyperErlang(); got.A1 != 1 || got.B1 != 0.6 || got.A2 != 8 {
		t.Errorf("shape below 1 and a half: %+v", got)
	}
	meanLn := func(jobs []swf.Job) (m, sd float64) {
		var x []float64
		for _, j := range jobs {
			if j.Runtime >= 1 {
				x = append(x, math.Log(float64(j.Runtime)))
			}
		}
		m, sd = stat.MeanStdDev(x, nil)
		return m, sd / math.Sqrt(float64(len(x)))
	}
	_, g, err := Generate(Config{Params: DefaultParams(Whole), Jobs: 50000, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	h, ej, err := Generate(Config{Params: DefaultParams(Whole), Jobs: 50000, Seed: 9, HyperErlang: true})
	if err != nil {
		t.Fatal(err)
	}
	mg, sg := meanLn(g)
	me, se := meanLn(ej)
	if d := math.Abs(mg - me); d > 4*math.Hypot(sg, se) {
		t.Errorf("mean ln runtime: hyper-Gamma %.4f, hyper-Erlang %.4f (difference %.4f, 4 SE %.4f)", mg, me, d, 4*math.Hypot(sg, se))
	}
	if !strings.Contains(strings.Join(h.Notes(), "\n"), "hyper-Erlang") {
		t.Error("header does not record the hyper-Erlang option")
	}
}

// Stream writes the jobs Generate returns, with a job count or a duration.
func TestStreamMatchesGenerate(t *testing.T) {
	for _, cfg := range []Config{
		{Params: DefaultParams(Whole), Jobs: 20000, Seed: 3, Procs: 256},
		{Params: DefaultParams(Typed), Duration: 20 * 86400, Seed: 4, HyperErlang: true},
	} {
		_, want, err := Generate(cfg)
		if err != nil {
			t.Fatal(err)
		}
		g, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		n, err := g.Stream(trace.JobWriterFunc(func(j *trace.Job) error {
			if i >= len(want) || j.SWF() != want[i] {
				return fmt.Errorf("job %d: %+v", i, *j)
			}
			i++
			return nil
		}))
		if err != nil || n != len(want) || i != n {
			t.Errorf("%+v: streamed %d jobs (%v), want %d", cfg, n, err, len(want))
		}
	}
}
