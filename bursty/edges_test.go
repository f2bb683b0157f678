package bursty

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

// TestAnalyzeOptionEdges: Δ = 0 is a valid bag parameter (only
// simultaneous arrivals group), a time scale or Hurst bin of 0 is not.
func TestAnalyzeOptionEdges(t *testing.T) {
	tr := trace.New(swf.Header{}, smallJobs(), trace.Options{Procs: 4})
	opt := DefaultOptions()
	opt.Delta = 0
	if _, err := Analyze(tr, opt); err != nil {
		t.Errorf("Δ = 0: %v", err)
	}
	for _, c := range []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"Δ -1", func(o *Options) { o.Delta = -1 }, "Δ must be >= 0 seconds, got -1"},
		{"scale 0", func(o *Options) { o.Scales = []float64{60, 0} }, "time scales must be > 0 seconds, got 0"},
		{"Hurst bin 0", func(o *Options) { o.HurstBin = 0 }, "Hurst bin width must be > 0 seconds, got 0"},
	} {
		o := DefaultOptions()
		c.edit(&o)
		if _, err := Analyze(tr, o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

// TestAnalyzeOneJob: one job has no inter-arrival time; its mean is
// reported as 0, not 0/0.
func TestAnalyzeOneJob(t *testing.T) {
	tr := trace.New(swf.Header{}, smallJobs()[:1], trace.Options{Procs: 4})
	r, err := Analyze(tr, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r.MeanInterArrival != 0 {
		t.Errorf("mean inter-arrival time of one job %v, want 0", r.MeanInterArrival)
	}
}

// TestHurstBinLimit: a log spanning 2^26 + 1 s from its first arrival at
// 1,000 s cuts into more than 2^26 one-second bins; the error names the
// span and the smallest bin that fits, 2 s.
func TestHurstBinLimit(t *testing.T) {
	jobs := []trace.Job{job(1, 1000, 1, 10), job(2, 1000+maxCells+1, 1, 10)}
	tr := trace.New(swf.Header{}, jobs, trace.Options{Procs: 4})
	opt := DefaultOptions()
	opt.HurstBin = 1
	_, err := Analyze(tr, opt)
	if !errors.Is(err, ErrOption) || !strings.Contains(err.Error(), "the log's 6.7108865e+07 s") || !strings.Contains(err.Error(), "use at least 2 s") {
		t.Errorf("error %v", err)
	}
}

// TestArrivalCountsByHand: arrivals at 10, 10, 15 and 40 s in 10 s bins
// from the first: 3, 0, 0, 1.
func TestArrivalCountsByHand(t *testing.T) {
	if got := ArrivalCounts([]float64{10, 10, 15, 40}, 10); !slices.Equal(got, []float64{3, 0, 0, 1}) {
		t.Errorf("counts %v", got)
	}
	if got := ArrivalCounts(nil, 10); got != nil {
		t.Errorf("no arrivals: %v", got)
	}
}

// TestDurationUnder1000: a bag whose first and last arrivals are exactly
// 1,000 s apart is not under 1,000 s; one 999 s long is.
func TestDurationUnder1000(t *testing.T) {
	for _, c := range []struct {
		last int64
		want float64
	}{{1000, 0}, {999, 1}} {
		jobs := []trace.Job{job(1, 0, 1, 10), job(2, c.last, 1, 10)}
		tr := trace.New(swf.Header{}, jobs, trace.Options{Procs: 4})
		opt := DefaultOptions()
		opt.Delta = 1000
		r, err := Analyze(tr, opt)
		if err != nil {
			t.Fatal(err)
		}
		if r.MultiJobBoTs != 1 || r.DurationUnder1000 != c.want || math.IsNaN(r.DurationUnder1000) {
			t.Errorf("bag of %d s: %d bags, under 1000 s %v, want 1 bag, %v", c.last, r.MultiJobBoTs, r.DurationUnder1000, c.want)
		}
	}
}

// TestVariabilityRows: bags are binned by their mean runtime into rows
// 0..100, 100..1000, 1000..10000 s; a mean of exactly 100 s belongs to the
// second row. Two bags in the second row, of runtimes {100, 100} (mean
// 100, SD 0) and {100, 300} (mean 200, SD 100√2), give it a variability
// (mean SD) of 50√2; the first row, empty, reports 0.
func TestVariabilityRows(t *testing.T) {
	jobs := []trace.Job{job(1, 0, 1, 100), job(2, 10, 1, 100), job(3, 5000, 1, 100), job(4, 5010, 1, 300)}
	tr := trace.New(swf.Header{}, jobs, trace.Options{Procs: 4})
	r, err := Analyze(tr, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := []VariabilityRow{{Low: 0, High: 100, BoTs: 0}, {Low: 100, High: 1000, BoTs: 2, Variability: 50 * math.Sqrt2}}
	if len(r.Variability) != 2 {
		t.Fatalf("rows %+v", r.Variability)
	}
	for k, w := range want {
		g := r.Variability[k]
		if g.Low != w.Low || g.High != w.High || g.BoTs != w.BoTs || !near(g.Variability, w.Variability, 1e-9) {
			t.Errorf("row %d: %+v, want %+v", k, g, w)
		}
	}
}

// TestNoBags: jobs far apart form no bag of two or more; the mean bag size
// and the share under 1,000 s are 0, not 0/0.
func TestNoBags(t *testing.T) {
	jobs := []trace.Job{job(1, 0, 1, 10), job(2, 5000, 1, 10)}
	r, err := Analyze(trace.New(swf.Header{}, jobs, trace.Options{Procs: 4}), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r.MultiJobBoTs != 0 || r.MeanBoTSize != 0 || r.DurationUnder1000 != 0 {
		t.Errorf("bags %d, mean size %v, under 1000 s %v", r.MultiJobBoTs, r.MeanBoTSize, r.DurationUnder1000)
	}
}

// TestAttributeValues: the attribute names, out-of-range attributes, the
// requested processors falling back to the allocated ones when not
// requested (0 or -1), and 0 counting as a known value.
func TestAttributeValues(t *testing.T) {
	for a, want := range map[Attribute]string{-1: "unknown", User: "user", RequestedProcs: "requested_procs", numAttributes: "unknown"} {
		if got := a.String(); got != want {
			t.Errorf("Attribute(%d) = %q, want %q", a, got, want)
		}
	}
	if Global.String() != "global" || PerUser.String() != "per-user" {
		t.Errorf("contiguity names %q %q", Global, PerUser)
	}
	j := job(1, 0, 1, 10)
	for _, c := range []struct {
		req, procs int32
		want       int64
	}{{0, 4, 4}, {-1, 6, 6}, {1, 8, 1}} {
		j.ReqProcs, j.Procs = c.req, c.procs
		if got := value(&j, RequestedProcs); got != c.want {
			t.Errorf("requested %d, allocated %d: value %d, want %d", c.req, c.procs, got, c.want)
		}
	}
	jobs := []trace.Job{job(1, 0, 1, 10)}
	jobs[0].Queue, jobs[0].App = 0, -1
	known, unknown := KnownAttributes(jobs)
	if !slices.Contains(known, Queue) || !slices.Equal(unknown, []Attribute{Executable}) {
		t.Errorf("known %v, unknown %v", known, unknown)
	}
}

// TestSortByArrivalTies: jobs sort by submit time, then job number,
// whatever their order in the log.
func TestSortByArrivalTies(t *testing.T) {
	jobs := []trace.Job{job(4, 20, 1, 1), job(3, 10, 1, 1), job(1, 10, 1, 1), job(2, 5, 1, 1), job(5, 10, 1, 1)}
	var ids []int64
	for _, j := range SortByArrival(jobs) {
		ids = append(ids, j.ID)
	}
	if !slices.Equal(ids, []int64{2, 1, 3, 5, 4}) {
		t.Errorf("order %v, want [2 1 3 5 4]", ids)
	}
	if jobs[0].ID != 4 {
		t.Error("the input was reordered")
	}
}

// TestTemporalNEScaleZero: a time scale of 0 has no intervals: NaN, as for
// an empty log.
func TestTemporalNEScaleZero(t *testing.T) {
	if v := TemporalNE([]float64{0, 10, 20}, 0); !math.IsNaN(v) {
		t.Errorf("scale 0: %v, want NaN", v)
	}
	if v := TemporalNE(nil, 60); !math.IsNaN(v) {
		t.Errorf("no arrivals: %v, want NaN", v)
	}
}

// TestGeneratedJobFields: a generated job is numbered from 1, submitted at
// the floor of its arrival, completed (status 1), and records -1 in every
// field the model does not produce; requested processors equal the
// allocated ones.
func TestGeneratedJobFields(t *testing.T) {
	m := twoClassModel()
	arr := []float64{0.5, 10.7, 5000.2}
	for i, j := range m.Generate(arr, 1) {
		if j.ID != int64(i+1) || j.Submit != int64(math.Floor(arr[i])) || j.Status != 1 || j.ReqProcs != j.Procs || j.Procs < 1 || j.Runtime < 0 {
			t.Errorf("job %d: %+v", i, j)
		}
		for name, v := range map[string]int64{"wait": j.Wait, "requested time": j.ReqTime, "think time": j.ThinkTime,
			"user": int64(j.User), "group": int64(j.Group), "executable": int64(j.App), "queue": int64(j.Queue),
			"partition": int64(j.Partition), "preceding job": int64(j.Preceding)} {
			if v != -1 {
				t.Errorf("job %d: %s %d, want -1", i, name, v)
			}
		}
		for name, v := range map[string]float64{"CPU time": float64(j.AvgCPU), "memory": float64(j.UsedMem), "requested memory": float64(j.ReqMem)} {
			if v != -1 {
				t.Errorf("job %d: %s %v, want -1", i, name, v)
			}
		}
	}
}

// zeroSource makes every Float64 0, the smallest uniform.
type zeroSource struct{}

func (zeroSource) Uint64() uint64 { return 0 }

// TestSamplerSkipsEmptyCells: a uniform of exactly 0 falls on the
// cumulative weight 0 of leading empty cells; the draw must go on to the
// first cell of positive weight (index 2 of weights 0, 0, 3, 2).
func TestSamplerSkipsEmptyCells(t *testing.T) {
	if got := newSampler([]float64{0, 0, 3, 2}).draw(rand.New(zeroSource{})); got != 2 {
		t.Errorf("draw at u = 0: cell %d, want 2", got)
	}
}

// TestFitEdges: one mixture component is a valid bound; the log's SHA-256
// travels into the model's provenance; Δ = 0 and a component of weight 0
// are valid models, a negative Δ is not.
func TestFitEdges(t *testing.T) {
	tr := fitJobs()
	tr.SHA256 = "abc123"
	m, err := Fit(tr, FitOptions{Options: DefaultOptions(), GMax: 1})
	if err != nil {
		t.Fatalf("one component: %v", err)
	}
	if m.Runtime.G != 1 || m.Provenance["sha256"] != "abc123" {
		t.Errorf("G %d, provenance %v", m.Runtime.G, m.Provenance)
	}
	m = twoClassModel()
	m.Delta = 0
	m.Runtime.Components = []Component{{1, 1e5, 1e3}, {0, 1e3, 10}}
	if err := m.Check(); err != nil {
		t.Errorf("Δ 0 and a component of weight 0: %v", err)
	}
	m.Delta = -1
	if err := m.Check(); err == nil || !strings.Contains(err.Error(), "delta_s") {
		t.Errorf("Δ -1: %v", err)
	}
}

// TestUniformJobsRange: the random jobs of Table V have runtimes in
// [rmin, rmax] and processors in 1..maxProcs.
func TestUniformJobsRange(t *testing.T) {
	run, procs := UniformJobs(2000, 100, 200, 3, rand.New(rand.NewPCG(1, 2)))
	for i := range run {
		if run[i] < 100 || run[i] > 200 || procs[i] < 1 || procs[i] > 3 {
			t.Fatalf("job %d: runtime %v, processors %d", i, run[i], procs[i])
		}
	}
}

// TestFitDeltaZero: Δ = 0 is a valid fitting option.
func TestFitDeltaZero(t *testing.T) {
	jobs := []trace.Job{job(1, 0, 1, 10), job(2, 1000, 1, 5000)}
	opt := FitOptions{Options: DefaultOptions(), GMax: 1}
	opt.Delta = 0
	if _, err := Fit(trace.New(swf.Header{}, jobs, trace.Options{}), opt); err != nil {
		t.Errorf("Δ 0: %v", err)
	}
}

// TestDefaultScales: the grid of Fig. 6, 1 minute to 1 week.
func TestDefaultScales(t *testing.T) {
	want := []float64{60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 21600, 43200, 86400, 172800, 345600, 604800}
	if !slices.Equal(DefaultScales, want) {
		t.Errorf("scales %v", DefaultScales)
	}
}

// TestLogRuntimeDraws: in log space a component of mean ln 101 and
// standard deviation 0.01 gives runtimes e^(ln 101 + 0.01 Z) - 1, within
// 101 e^(±0.06) - 1 = [94.1, 107.2] s at six standard deviations (a
// chance of 2·10^-9 per draw of falling outside).
func TestLogRuntimeDraws(t *testing.T) {
	m := twoClassModel()
	m.Runtime = RuntimeModel{Space: LogRuntime, Components: []Component{{0.5, math.Log(101), 0.01}, {0.5, math.Log(101), 0.01}}}
	arr := make([]float64, 2000)
	for i := range arr {
		arr[i] = float64(i) * 1000
	}
	for _, j := range m.Generate(arr, 5) {
		if j.Runtime < 94 || j.Runtime > 108 {
			t.Fatalf("job %d: runtime %d s", j.ID, j.Runtime)
		}
	}
}

// TestModelAndMWMEdges: a Zipf law truncated at 1 is a valid model; an
// invalid arrival model is reported; two arrivals are enough to fit an MWM,
// a bin of 0 is refused.
func TestModelAndMWMEdges(t *testing.T) {
	m := twoClassModel()
	m.ZipfMax = 1
	if err := m.Check(); err != nil {
		t.Errorf("Zipf max 1: %v", err)
	}
	m.ZipfAlpha = 0
	if err := m.Check(); err == nil || !strings.Contains(err.Error(), "zipf_alpha") {
		t.Errorf("Zipf α 0: %v", err)
	}
	m.ZipfAlpha = 2
	m.Arrivals = &MWM{Bin: 0, Levels: 1, P: []float64{1}}
	if err := m.Check(); err == nil || !strings.Contains(err.Error(), "arrivals.bin_s") {
		t.Errorf("arrival bin 0: %v", err)
	}
	if _, err := FitMWM([]float64{0, 1000}, 100); err != nil {
		t.Errorf("two arrivals: %v", err)
	}
	if _, err := FitMWM([]float64{0, 1000, 2000}, 0); err == nil {
		t.Error("bin 0 accepted")
	}
}

// TestMWMLevelBounds: an MWM may have 1 to 26 levels, each with its p;
// 0 and 27 levels are refused with the field's name.
func TestMWMLevelBounds(t *testing.T) {
	for _, tc := range []struct {
		levels int
		ok     bool
	}{{0, false}, {1, true}, {2, true}, {26, true}, {27, false}} {
		p := make([]float64, tc.levels)
		for i := range p {
			p[i] = 1
		}
		err := MWM{Bin: 1, Levels: tc.levels, P: p}.check()
		if (err == nil) != tc.ok || (err != nil && !strings.Contains(err.Error(), "arrivals.levels")) {
			t.Errorf("%d levels: error %v, want accepted %v", tc.levels, err, tc.ok)
		}
	}
}

// TestFitGroupsSorted: the parallelism groups come out by increasing
// processor count whatever the order of the log; here ten sizes, one job
// each, submitted from the largest down.
func TestFitGroupsSorted(t *testing.T) {
	var jobs []trace.Job
	for i := range 10 {
		j := job(int64(i+1), int64(i)*1000, 1, int64(10+4000*(i%2)))
		j.Procs, j.ReqProcs = int32(10-i), int32(10-i)
		jobs = append(jobs, j)
	}
	m, err := Fit(trace.New(swf.Header{}, jobs, trace.Options{}), FitOptions{Options: DefaultOptions(), GMax: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range m.Groups {
		if g.Procs != i+1 || g.Jobs != 1 {
			t.Fatalf("groups %v: want processors 1 to 10, one job each", m.Groups)
		}
	}
}

// TestMWMArrivalsExactCount: the rounded cascade counts are corrected to
// exactly n arrivals, whether rounding left too few or too many; twenty
// seeds reach both corrections.
func TestMWMArrivalsExactCount(t *testing.T) {
	m := MWM{Bin: 10, Levels: 6, P: []float64{0.5, 1, 2, 0.3, 5, 1}}
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 1))
		c := m.Counts(777, rand.New(rand.NewPCG(seed, 1)))
		a := m.Arrivals(777, r)
		if len(a) != 777 || !slices.IsSorted(a) || a[0] < 0 || a[776] >= 640 {
			t.Fatalf("seed %d: %d arrivals in [%v, %v]", seed, len(a), a[0], a[len(a)-1])
		}
		// Every arrival falls in a bin whose cascade count is positive.
		for _, x := range a {
			if c[int(x/10)] <= 0 {
				t.Fatalf("seed %d: arrival at %v in a bin of count %v", seed, x, c[int(x/10)])
			}
		}
	}
}
