package bursty

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/hpcwl/hpcwl/swf"
	"github.com/hpcwl/hpcwl/trace"
)

func TestParallelismLabel(t *testing.T) {
	// §6.2: 250 and 300 jobs share label 9; 1 job gets 1; 3 jobs round(1.58)+1 = 3.
	for _, tt := range []struct{ count, want int }{{250, 9}, {300, 9}, {1, 1}, {2, 2}, {3, 3}, {5, 3}, {6, 4}} {
		if got := ParallelismLabel(tt.count); got != tt.want {
			t.Errorf("%d jobs: label %d, want %d", tt.count, got, tt.want)
		}
	}
}

func TestRuntimeLabels(t *testing.T) {
	comps := []Component{{0.5, 0, 1}, {0.5, 10, 1}}
	if got := RuntimeLabels([]float64{-3, 4.9, 5.1, 30}, comps); !slices.Equal(got, []int{1, 1, 2, 2}) {
		t.Errorf("labels %v", got)
	}
}

func twoClassModel() *Model {
	return &Model{
		Delta: 100, Runtime: RuntimeModel{Space: RawRuntime, Components: []Component{{0.5, 1e5, 1e3}, {0.5, 1e3, 10}}},
		Cells:     []Cell{{L: 1, C: 1, Jobs: 4, Procs: []ProcCount{{64, 4}}}, {L: 2, C: 2, Jobs: 2, Procs: []ProcCount{{1, 2}}}},
		ZipfAlpha: 2, ZipfMax: 3, MeanInterArrival: 60,
	}
}

// TestAlgorithm1 checks the bag logic with every BoT size fixed at 3.
func TestAlgorithm1(t *testing.T) {
	m := twoClassModel()
	g := newGenerator(m, 1)
	g.size = func() int { return 3 }
	jobs, bags := g.generate([]float64{0, 10, 20, 30, 40, 500, 510})
	if !slices.Equal(bags, []int{3, 2, 2}) {
		t.Errorf("bag sizes %v, want 3 2 2", bags)
	}
	// Bags: {0,10,20} (size reached), {30,40}, {500,510} (gap > Δ).
	same := func(a, b trace.Job) bool { return a.Runtime == b.Runtime && a.Procs == b.Procs }
	for _, p := range [][2]int{{0, 1}, {1, 2}, {3, 4}, {5, 6}} {
		if !same(jobs[p[0]], jobs[p[1]]) {
			t.Errorf("jobs %d and %d should be one bag: %+v %+v", p[0], p[1], jobs[p[0]], jobs[p[1]])
		}
	}
	for _, p := range [][2]int{{2, 3}, {4, 5}} {
		if jobs[p[0]].Runtime == jobs[p[1]].Runtime {
			t.Errorf("jobs %d and %d should start different bags", p[0], p[1])
		}
	}
	// Class 1 runs about 1e5 s on 64 processors, class 2 about 1e3 s on 1 (Pr(c,l) and Algorithm 2).
	for _, j := range jobs {
		if !(j.Procs == 64 && j.Runtime > 9e4) && !(j.Procs == 1 && j.Runtime < 1100) {
			t.Errorf("job %+v mixes the classes", j)
		}
	}
}

func TestGenerateDeterministic(t *testing.T) {
	m := twoClassModel()
	arr := m.PoissonSchedule(1000, 7)
	a, b := m.Generate(arr, 3), m.Generate(arr, 3)
	if !slices.Equal(a, b) || len(a) != 1000 {
		t.Fatal("same seed, different jobs")
	}
	if c := m.Generate(arr, 4); slices.Equal(a, c) {
		t.Error("different seeds, same jobs")
	}
	// The weights are 1/2: about half the bags are of class 1.
	n64 := 0
	for _, j := range a {
		if j.Procs == 64 {
			n64++
		}
	}
	if n64 < 350 || n64 > 650 {
		t.Errorf("%d of 1000 jobs in class 1", n64)
	}
}

// fitJobs is a log of six jobs 1,000 s apart whose runtimes fall in two
// tight groups, on 4 processors (3 jobs), 8 (1 job) and 1 (2 jobs).
func fitJobs() *trace.Trace {
	var jobs []trace.Job
	for i, rp := range [][2]int64{{10, 4}, {12, 4}, {11, 4}, {5000, 8}, {5100, 1}, {4900, 1}} {
		j := job(int64(i+1), int64(i)*1000, int32(i), rp[0])
		j.Procs, j.ReqProcs = int32(rp[1]), int32(rp[1])
		jobs = append(jobs, j)
	}
	return trace.New(swf.Header{}, jobs, trace.Options{})
}

func TestFitSmall(t *testing.T) {
	tr := fitJobs()
	m, err := Fit(tr, FitOptions{Options: DefaultOptions(), GMax: 2})
	if err != nil {
		t.Fatal(err)
	}
	// Labels: 4 procs, 3 jobs: round(log2 3)+1 = 3; 8: 1; 1 proc, 2 jobs: 2.
	want := []ProcGroup{{1, 2, 2}, {4, 3, 3}, {8, 1, 1}}
	if !slices.Equal(m.Groups, want) || m.Labels != 3 {
		t.Errorf("groups %v labels %d", m.Groups, m.Labels)
	}
	if m.Runtime.G != 2 || m.Jobs != 6 || m.MeanInterArrival != 1000 || m.ZipfMax != 1 {
		t.Errorf("G %d jobs %d mean %v zipf max %d", m.Runtime.G, m.Jobs, m.MeanInterArrival, m.ZipfMax)
	}
	if err := m.Check(); err != nil {
		t.Error(err)
	}
	var sb strings.Builder
	if err := m.Write(&sb); err != nil {
		t.Fatal(err)
	}
	back, err := ReadModel(strings.NewReader(sb.String()))
	if err != nil || back.Runtime.G != 2 || len(back.Cells) != len(m.Cells) {
		t.Errorf("round trip: %v", err)
	}
	// The log's machine is recorded when its header gives one (none here).
	if m.MachineProcs != 0 || strings.Contains(sb.String(), "machine_procs") {
		t.Errorf("no machine in the header: machine_procs %d", m.MachineProcs)
	}
	var h swf.Header
	h.Add("MaxProcs", "64")
	withMachine := trace.New(h, tr.Jobs, trace.Options{})
	if m, err := Fit(withMachine, FitOptions{Options: DefaultOptions(), GMax: 2}); err != nil || m.MachineProcs != 64 {
		t.Errorf("MaxProcs 64: machine_procs %d, %v", m.MachineProcs, err)
	}
}

func TestReadModelErrors(t *testing.T) {
	var sb strings.Builder
	if err := twoClassModel().Write(&sb); err != nil {
		t.Fatal(err)
	}
	good := sb.String()
	for _, tt := range []struct{ from, to, field string }{
		{`"zipf_alpha": 2`, `"zipf_alpha": "x"`, "zipf_alpha"},
		{`"zipf_alpha": 2`, `"zipf_alpha": -1`, "zipf_alpha"},
		{`"delta_s": 100`, `"delta_s": -5`, "delta_s"},
		{`"delta_s": 100`, `"machine_procs": -1, "delta_s": 100`, "machine_procs"},
		{`"space": "raw"`, `"space": "cubic"`, "runtime.space"},
		{`"mean_interarrival_s": 60`, `"mean_interarrival_s": 0`, "mean_interarrival_s"},
		{"\"sd\": 10\n", "\"sd\": 0\n", "runtime.components[1]"},
	} {
		bad := strings.Replace(good, tt.from, tt.to, 1)
		if bad == good {
			t.Fatalf("%q not in the file", tt.from)
		}
		_, err := ReadModel(strings.NewReader(bad))
		if !errors.Is(err, ErrParams) || !strings.Contains(err.Error(), tt.field) {
			t.Errorf("%s: error %v does not name it", tt.field, err)
		}
	}
}

func TestRealisedFraction(t *testing.T) {
	arr := []float64{0, 10, 20, 30, 500}
	// Sizes are almost surely 1 with alpha 50, and at least 4 with alpha 0.01
	// over 1..1000; the gap of 470 s ends the first bag.
	if got := RealisedFraction(arr, 100, 50, 1000); got != 0 {
		t.Errorf("alpha 50: %v", got)
	}
	if got := RealisedFraction(arr, 100, 0.01, 1000); got != 0.8 {
		t.Errorf("alpha 0.01: %v", got)
	}
	// With Δ = 5 no bag can form, whatever the sizes.
	if got := RealisedFraction(arr, 5, 0.01, 1000); got != 0 {
		t.Errorf("Δ = 5: %v", got)
	}
	a := CalibrateZipf(arr, 100, 1000, 0.8)
	if got := RealisedFraction(arr, 100, a, 1000); got != 0.8 {
		t.Errorf("calibrated alpha %v gives %v", a, got)
	}
}
