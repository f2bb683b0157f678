package bursty

import (
	"math"
	"slices"
	"testing"

	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestNormalizedEntropy(t *testing.T) {
	tests := []struct {
		name string
		w    []float64
		want float64
	}{
		{"uniform", []float64{1, 1, 1, 1}, 1},
		{"one event", []float64{0, 5, 0, 0}, 0},
		{"half of four", []float64{2, 2, 0, 0}, 0.5},          // ln2/ln4
		{"three to one", []float64{3, 1}, 0.8112781244591328}, // −(.75 ln .75 + .25 ln .25)/ln 2
	}
	for _, tt := range tests {
		if got := NormalizedEntropy(tt.w); !near(got, tt.want, 1e-12) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	if !math.IsNaN(NormalizedEntropy([]float64{1})) || !math.IsNaN(NormalizedEntropy([]float64{0, 0})) {
		t.Error("one event or zero weight should be NaN")
	}
}

func TestTemporalNE(t *testing.T) {
	// T = 100: N = floor(130/100)+1 = 2 intervals holding 3 and 1 arrivals.
	if got := TemporalNE([]float64{0, 10, 20, 130}, 100); !near(got, 0.8112781244591328, 1e-12) {
		t.Errorf("got %v", got)
	}
	// T = 50: N = 3 intervals holding 3, 0, 1.
	want := -(0.75*math.Log(0.75) + 0.25*math.Log(0.25)) / math.Log(3)
	if got := TemporalNE([]float64{130, 0, 20, 10}, 50); !near(got, want, 1e-12) {
		t.Errorf("got %v, want %v", got, want)
	}
	if !math.IsNaN(TemporalNE([]float64{0, 10}, 100)) {
		t.Error("one interval should be NaN")
	}
}

func TestSpatialNE(t *testing.T) {
	// N = 4: weights 10 on 1 processor, 30 on 2: (ln 4 − .75 ln 3)/ln 4 ... = 0.8113/2.
	got := SpatialNE([]float64{10, 10, 20}, []int{1, 2, 2}, 4)
	if !near(got, 0.8112781244591328/2, 1e-12) {
		t.Errorf("got %v", got)
	}
}

func job(id, submit int64, user int32, run int64) trace.Job {
	return trace.Job{ID: id, Submit: submit, Wait: 0, Runtime: run, Procs: 2, ReqProcs: 2, ReqTime: 600,
		User: user, Group: 1, App: -1, Queue: 1, Status: 1, Partition: -1, Preceding: -1}
}

// smallJobs: user 1 at 0, 50, 130, 200; user 2 at 120.
func smallJobs() []trace.Job {
	return []trace.Job{job(1, 0, 1, 0), job(2, 50, 1, 3), job(3, 120, 2, 8), job(4, 130, 1, 100), job(5, 200, 1, 300)}
}

func TestDetectBoTs(t *testing.T) {
	jobs := smallJobs()
	attrs := Attributes()
	tests := []struct {
		c     Contiguity
		delta int64
		want  [][]int
	}{
		// Global: user 2's job at 120 ends the first bag; 130 and 200 are 70 s apart.
		{Global, 100, [][]int{{0, 1}, {2}, {3, 4}}},
		// Per user: user 1's gaps are 50, 80, 70.
		{PerUser, 100, [][]int{{0, 1, 3, 4}, {2}}},
		{PerUser, 75, [][]int{{0, 1}, {2}, {3, 4}}},
		// A gap of exactly Δ keeps the bag.
		{PerUser, 80, [][]int{{0, 1, 3, 4}, {2}}},
		{Global, 0, [][]int{{0}, {1}, {2}, {3}, {4}}},
	}
	for _, tt := range tests {
		got := DetectBoTs(jobs, tt.delta, attrs, tt.c)
		if !slices.EqualFunc(got, tt.want, slices.Equal) {
			t.Errorf("%v Δ=%d: %v, want %v", tt.c, tt.delta, got, tt.want)
		}
	}
	// A different requested time breaks the similarity.
	jobs[1].ReqTime = 601
	if got := DetectBoTs(jobs, 100, attrs, PerUser); !slices.EqualFunc(got, [][]int{{0}, {1}, {2}, {3, 4}}, slices.Equal) {
		t.Errorf("requested time ignored: %v", got)
	}
	// ... unless the requested time is not compared.
	if got := DetectBoTs(jobs, 100, []Attribute{User}, PerUser); len(got) != 2 {
		t.Errorf("user only: %v", got)
	}
}

func TestBIA(t *testing.T) {
	jobs := smallJobs()
	if got := BIA(jobs, Attributes(), Global); !slices.Equal(got, []float64{50, 70}) {
		t.Errorf("global %v", got)
	}
	if got := BIA(jobs, Attributes(), PerUser); !slices.Equal(got, []float64{50, 80, 70}) {
		t.Errorf("per-user %v", got)
	}
}

func TestMeanSD(t *testing.T) {
	// The paper's footnote: runtimes {0, 3, 8}, variability/runtime 1.1.
	jobs := smallJobs()
	m, sd := meanSD(jobs, []int{0, 1, 2})
	if !near(m, 11.0/3, 1e-12) || !near(sd, math.Sqrt(((11.0/3)*(11.0/3)+(2.0/3)*(2.0/3)+(13.0/3)*(13.0/3))/2), 1e-12) || !near(sd/m, 1.1, 0.005) {
		t.Errorf("mean %v sd %v", m, sd)
	}
}

func TestKnownAttributes(t *testing.T) {
	known, unknown := KnownAttributes(smallJobs())
	if !slices.Equal(unknown, []Attribute{Executable}) || len(known) != 5 {
		t.Errorf("known %v unknown %v", known, unknown)
	}
}

func TestAnalyzeSmall(t *testing.T) {
	jobs := smallJobs()
	jobs = append(jobs, trace.Job{ID: 6, Submit: 210, Runtime: -1, Procs: 2, Status: 1}, trace.Job{ID: 7, Submit: 220, Runtime: 5, Procs: 1, Status: 0})
	tr := trace.New(swf.Header{}, jobs, trace.Options{Procs: 4})
	opt := DefaultOptions()
	r, err := Analyze(tr, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.Jobs != 5 || r.SkippedStatus != 1 || r.SkippedFields != 1 {
		t.Errorf("jobs %d skipped %d/%d", r.Jobs, r.SkippedStatus, r.SkippedFields)
	}
	// Global bags {0,1} {2} {3,4}: 4 of 5 jobs in bags of two or more.
	if r.BoTs != 3 || r.MultiJobBoTs != 2 || r.JobsInBoTs != 4 || !near(r.FractionInBoTs, 0.8, 1e-12) || r.MeanBoTSize != 2 {
		t.Errorf("bags %+v", r)
	}
	if !slices.Equal(r.Sizes, []SizeCount{{1, 1}, {2, 2}}) {
		t.Errorf("sizes %v", r.Sizes)
	}
	// Bag {0 s, 3 s}: mean 1.5, sd 2.121 (row 0..100); bag {100, 300}: mean 200, sd 141.4 (row 100..1000).
	if len(r.Variability) != 2 || r.Variability[0].BoTs != 1 || !near(r.Variability[0].Variability, 3/math.Sqrt2, 1e-9) ||
		r.Variability[1].Low != 100 || !near(r.Variability[1].Variability, 200/math.Sqrt2, 1e-9) {
		t.Errorf("variability %+v", r.Variability)
	}
	// Every processor count is 2, the largest: one event of two.
	if r.SpatialNE != 0 || r.SpatialN != 2 || r.SpatialNFrom != "largest job" || !math.IsNaN(float64(r.Correlation)) {
		t.Errorf("spatial %v N %d corr %v", r.SpatialNE, r.SpatialN, r.Correlation)
	}
	if r.BIAs != 2 || r.BIAUnderDelta != 1 || r.MeanInterArrival != 50 {
		t.Errorf("BIA %d %v mean %v", r.BIAs, r.BIAUnderDelta, r.MeanInterArrival)
	}
	// Bags {0 s, 50 s} (runtimes 0, 3) and {130 s, 200 s} (100, 300).
	if !slices.Equal(r.BIASample, []float64{50, 70}) || !slices.Equal(r.DurationSample, []float64{50, 70}) || !slices.Equal(r.RuntimeSample, []float64{1.5, 200}) {
		t.Errorf("samples %v %v %v", r.BIASample, r.DurationSample, r.RuntimeSample)
	}
	if !slices.Equal(r.Unknown, []Attribute{Executable}) {
		t.Errorf("unknown %v", r.Unknown)
	}
	// Allocated processors, N = 4: job 2 on 3 processors (3 s), the others (0+8+100+300 s) on 2.
	tr.Jobs[1].Procs = 3
	opt.MaxProcs, opt.Allocated = 4, true
	r, err = Analyze(tr, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := NormalizedEntropy([]float64{0, 408, 3, 0})
	if r.SpatialN != 4 || !near(float64(r.SpatialNE), want, 1e-12) || r.Parallelism != "allocated" {
		t.Errorf("allocated: N %d NE %v want %v", r.SpatialN, r.SpatialNE, want)
	}
	// Summarize agrees with Analyze on the default options.
	tr.Jobs[1].Procs = 2
	b := Summarize(tr)
	r, _ = Analyze(tr, DefaultOptions())
	if b.Jobs != 5 || b.FractionInBoTs != r.FractionInBoTs || b.SpatialNE != r.SpatialNE || b.SpatialN != r.SpatialN || len(b.Unknown) != 1 {
		t.Errorf("brief %+v", b)
	}
	opt.Delta = -1
	if _, err := Analyze(tr, opt); err == nil {
		t.Error("negative Δ accepted")
	}
}
