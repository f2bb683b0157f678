package bursty

import (
	"errors"
	"math"
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
