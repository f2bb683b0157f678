package bursty

import (
	"testing"

	"github.com/hpcwl/hpcwl/stats"
	"github.com/hpcwl/hpcwl/trace"
)

// TestHPC2NPrefix pins the analysis of the first 10,000 jobs of HPC2N
// (deterministic, seed 1): the same figures as TestHPC2N on the whole log,
// and those of the bags' durations, the BoT inter-arrival times, the
// temporal entropy and the Hurst parameter.
func TestHPC2NPrefix(t *testing.T) {
	if testing.Short() {
		t.Skip("real log")
	}
	tr := hpc2nPrefix(t)
	r, err := Analyze(tr, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	opt := DefaultOptions()
	opt.Contiguity = PerUser
	pu, err := Analyze(tr, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt = DefaultOptions()
	opt.Allocated, opt.MaxProcs = true, 240
	al, err := Analyze(tr, opt)
	if err != nil {
		t.Fatal(err)
	}
	var hour ScalePoint
	for _, p := range r.Temporal {
		if p.Scale == 3600 {
			hour = p
		}
	}
	pins := []pin{
		{"jobs", float64(r.Jobs), 9949, 0},
		{"skipped for status", float64(r.SkippedStatus), 51, 0},
		{"bags", float64(r.BoTs), 6282, 0},
		{"bags of two or more", float64(r.MultiJobBoTs), 1131, 0},
		{"jobs in bots", float64(r.JobsInBoTs), 4798, 0},
		{"mean bag size", r.MeanBoTSize, 4.242263, 5e-6},
		{"largest bag", float64(r.MaxBoTSize), 33, 0},
		{"durations under 1000 s", r.DurationUnder1000, 1, 5e-6},
		{"longest duration", float64(r.MaxDuration), 619, 0},
		{"BoT inter-arrival times", float64(r.BIAs), 5236, 0},
		{"BIA under Δ", r.BIAUnderDelta, 0.700344, 5e-6},
		{"BIA median", r.BIAMedian, 5, 5e-6},
		{"jobs in bots per user", float64(pu.JobsInBoTs), 4876, 0},
		{"correlation", float64(r.Correlation), -0.018469, 5e-6},
		{"spatial NE", float64(r.SpatialNE), 0.416659, 5e-6},
		{"spatial NE of random jobs", float64(r.SpatialNERandom), 0.997565, 5e-6},
		{"spatial N", float64(r.SpatialN), 200, 0},
		{"correlation, allocated", float64(al.Correlation), -0.018469, 5e-6},
		{"spatial NE, allocated, N = 240", float64(al.SpatialNE), 0.402798, 5e-6},
		{"mean inter-arrival", r.MeanInterArrival, 1226.787998, 5e-6},
		{"temporal NE, 1 h", float64(hour.Real), 0.842109, 5e-6},
		{"temporal NE, 1 h, Poisson", float64(hour.Poisson), 0.976703, 5e-6},
		{"Hurst, mean", float64(r.Hurst.Mean), 0.71225, 5e-6},
		{"ACF lag 1", float64(r.ACF[0]), 0.170523, 5e-6},
	}
	checkPins(t, pins)
}

// TestFitHPC2NPrefix pins the model fitted to the first 10,000 jobs of
// HPC2N and the jobs it generates on their arrivals (deterministic, seed 1).
func TestFitHPC2NPrefix(t *testing.T) {
	if testing.Short() {
		t.Skip("real log")
	}
	tr := hpc2nPrefix(t)
	m, err := Fit(tr, FitOptions{Options: DefaultOptions(), GMax: 9})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Check(); err != nil {
		t.Error(err)
	}
	sel, _, _ := Select(tr.Jobs, false)
	sel = SortByArrival(sel)
	arr := make([]float64, len(sel))
	rr := make([]float64, len(sel))
	for i := range sel {
		arr[i], rr[i] = float64(sel[i].Submit), float64(sel[i].Runtime)
	}
	synJobs, synBags := m.GenerateBags(arr, 1)
	sr := make([]float64, len(synJobs))
	for i := range synJobs {
		sr[i] = float64(synJobs[i].Runtime)
	}
	r, err := Analyze(trace.New(tr.Header, synJobs, trace.Options{}), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	mw := m.MWMSchedule(len(arr), 1)
	cm, err := Fit(tr, FitOptions{Options: DefaultOptions(), GMax: 1, CalibrateZipf: true})
	if err != nil {
		t.Fatal(err)
	}
	pins := []pin{
		{"G", float64(m.Runtime.G), 9, 0},
		{"labels", float64(m.Labels), 11, 0},
		{"cells", float64(len(m.Cells)), 71, 0},
		{"Zipf exponent", m.ZipfAlpha, 2.75234, 5e-5},
		{"Zipf max", float64(m.ZipfMax), 33, 0},
		{"mean inter-arrival", m.MeanInterArrival, 1226.787998, 5e-6},
		{"MWM levels", float64(m.Arrivals.Levels), 18, 0},
		{"MWM Hurst of the log", m.Arrivals.Hurst, 0.66881, 5e-5},
		{"synthetic bags", float64(len(synBags)), 8637, 0},
		{"model spatial NE", float64(r.SpatialNE), 0.41033, 5e-5},
		{"model correlation", float64(r.Correlation), -0.03463, 5e-5},
		{"KS runtime", stats.KSTwoSample(rr, sr).D, 0.12655, 5e-5},
		{"MWM temporal NE, 15 min", TemporalNE(mw, 900), 0.81162, 5e-5},
		{"calibrated Zipf exponent", cm.ZipfAlpha, 1.51142, 5e-5},
	}
	checkPins(t, pins)
}
