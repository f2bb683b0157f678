package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
)

// statPin is one statistic of one metric over a replicate run's variants.
type statPin struct {
	metric, stat string // stat: median, mean, min, max or max_min_ratio
	want         float64
}

// TestZakayResamplingPins pins representative rows of the resampling and
// TBUOS results that docs/validation.md compares with Zakay's thesis
// (N. Zakay, "Improved Realism and Representativeness of Workloads to
// Improve Reliability of Performance Evaluations", PhD thesis, Hebrew
// University), chapter 3 section 7 and chapter 5 section 13.6, in the
// sections S4/S5 (1000 variants of KTH-SP2), S7 (OSC-Clust with 6x users),
// S8 (SDSC-DS at load factor 1.0) and S13-S15 (TBUOS under EASY and under
// UPS with alpha_user 1). The runs are deterministic for their seed (1),
// whatever the number of workers, so the tolerance is a relative 1e-9: room
// for floating-point summation only. The values are hpcwl's, as the tables
// print them rounded; medians are lower medians (docs/formats.md, "Medians
// and quantiles"), the tables' figures from before that rule are the
// interpolated ones (docs/validation.md says by how much they differ).
func TestZakayResamplingPins(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates about 1,200 resampled variants")
	}
	cases := []struct {
		name      string
		log       string
		args      []string
		saturated int
		pins      []statPin
	}{
		{"S4/S5 KTH-SP2 1000 variants", "KTH-SP2-1996-2.1-cln.swf.gz",
			[]string{"--variants", "1000", "--scheduler", "easy"}, 0, []statPin{
				{"throughput", "median", 27840},
				{"wait", "mean", 20527.384247028203},
				{"wait", "median", 17402.158362},
				{"bounded_slowdown", "median", 194.541512799},
			}},
		{"S7 OSC-Clust load 6", "OSC-Clust-2000-3.1-cln.swf.gz",
			[]string{"--variants", "10", "--load", "6"}, 0, []statPin{
				{"utilization", "median", 0.712627841104},
				{"utilization", "mean", 0.7137676661532988},
				{"wait", "median", 348264.959476},
			}},
		{"S8 SDSC-DS load 1.0", "SDSC-DS-2004-2.1-cln.swf.gz",
			[]string{"--variants", "10", "--load", "1.0", "--no-original"}, 0, []statPin{
				{"utilization", "min", 0.5787396767643415},
				{"utilization", "max", 0.6339938940290758},
				{"bounded_slowdown", "median", 42.2032939771},
				{"response", "median", 14511.9349848},
			}},
		{"S13 TBUOS EASY", "KTH-SP2-1996-2.1-cln.swf.gz",
			[]string{"--variants", "100", "--scheduler", "easy", "--feedback"}, 0, []statPin{
				{"throughput", "median", 25613},
				{"wait", "median", 5982.63163802},
				{"wait", "max_min_ratio", 2.1706204817320955},
			}},
		{"S15 TBUOS UPS alpha_user 1", "KTH-SP2-1996-2.1-cln.swf.gz",
			[]string{"--variants", "100", "--scheduler", "ups", "--alpha-user", "1", "--feedback"}, 0, []statPin{
				{"throughput", "median", 26213},
				{"utilization", "median", 0.622329463062},
				{"wait", "median", 4800.86098097},
				{"wait", "max_min_ratio", 2.413301500779101},
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"replicate", testdata.Path(t, c.log), "--json"}, c.args...)
			code, out, errOut := runCLI(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var r struct {
				Saturated int                          `json:"saturated"`
				Summary   []map[string]json.RawMessage `json:"summary"`
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			if r.Saturated != c.saturated {
				t.Errorf("%d variants saturated, pinned %d", r.Saturated, c.saturated)
			}
			for _, p := range c.pins {
				got, found := math.NaN(), false
				for _, m := range r.Summary {
					var name string
					if json.Unmarshal(m["metric"], &name) == nil && name == p.metric {
						found = json.Unmarshal(m[p.stat], &got) == nil
					}
				}
				if !found {
					t.Fatalf("no %s of %s in the summary", p.stat, p.metric)
				}
				if !(math.Abs(got-p.want) <= 1e-9*math.Max(1, math.Abs(p.want))) {
					t.Errorf("%s %s = %.12g, pinned %.12g", p.metric, p.stat, got, p.want)
				}
			}
		})
	}
}

// TestZakayS6Pins pins the 5x extension of SDSC-DS (docs/validation.md,
// S6; Zakay's thesis, chapter 3, section 7.2) for seed 1: the jobs and the
// mean stack depth of runtimes of each 56-week segment, which the table
// gives as ranges over seeds 1-3. Deterministic: relative tolerance 1e-9.
func TestZakayS6Pins(t *testing.T) {
	if testing.Short() {
		t.Skip("resamples SDSC-DS to 280 weeks")
	}
	log := testdata.Path(t, "SDSC-DS-2004-2.1-cln.swf.gz")
	out := filepath.Join(t.TempDir(), "ds5-1.swf")
	if code, _, errOut := runCLI(t, "resample", log, "--duration", "169344000", "--seed", "1", "-o", out); code != 0 {
		t.Fatalf("resample: exit %d: %s", code, errOut)
	}
	code, js, errOut := runCLI(t, "compare", log, out, "--segment", "56w", "--json")
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, errOut)
	}
	var r struct {
		Segments []struct {
			Jobs       int `json:"jobs"`
			StackDepth struct {
				Runtime struct{ Mean float64 } `json:"runtime"`
			} `json:"stack_depth"`
		} `json:"segments"`
	}
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		jobs  int
		depth float64
	}{{84133, 30.33206883346896}, {85644, 29.884724868845133}, {85631, 29.64138961084781}, {81945, 31.29206618478635}, {82258, 30.914073693104587}}
	if len(r.Segments) != len(want) {
		t.Fatalf("%d segments, want %d", len(r.Segments), len(want))
	}
	for i, w := range want {
		s := r.Segments[i]
		if s.Jobs != w.jobs || !(math.Abs(s.StackDepth.Runtime.Mean-w.depth) <= 1e-9*w.depth) {
			t.Errorf("year %d: %d jobs, stack depth %.12g; pinned %d, %.12g", i+1, s.Jobs, s.StackDepth.Runtime.Mean, w.jobs, w.depth)
		}
	}
}
