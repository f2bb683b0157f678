package resample_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/hpcwl/hpcwl/internal/testdata"
	"github.com/hpcwl/hpcwl/resample"
	"github.com/hpcwl/hpcwl/trace"
)

// checkDraw compares the streamed workload of o with the one Generate
// holds: header, copies and every job.
func checkDraw(t *testing.T, p *resample.Pools, o resample.Options) {
	t.Helper()
	w, err := p.Generate(o)
	if err != nil {
		t.Fatal(err)
	}
	d, err := p.Draw(o)
	if err != nil {
		t.Fatal(err)
	}
	want := w.Trace("hpcwl resample")
	if d.Jobs != len(want.Jobs) || d.BeforeStart != w.BeforeStart || len(d.Copies) != len(w.Copies) {
		t.Fatalf("%+v: %d jobs, %d before start, %d copies; want %d, %d, %d", o,
			d.Jobs, d.BeforeStart, len(d.Copies), len(want.Jobs), w.BeforeStart, len(w.Copies))
	}
	if !reflect.DeepEqual(d.Copies, w.Copies) {
		t.Errorf("%+v: the copies differ", o)
	}
	if h := d.Header("hpcwl resample"); !reflect.DeepEqual(h, want.Header) {
		t.Errorf("%+v: the headers differ", o)
	}
	i := 0
	err = d.WriteJobs(trace.JobWriterFunc(func(j *trace.Job) error {
		if i >= len(want.Jobs) || *j != want.Jobs[i] {
			return fmt.Errorf("job %d: %+v, want %+v", i, *j, want.Jobs[min(i, len(want.Jobs)-1)])
		}
		i++
		return nil
	}))
	if err != nil {
		t.Fatalf("%+v: %v", o, err)
	}
	if i != len(want.Jobs) {
		t.Fatalf("%+v: %d jobs written, want %d", o, i, len(want.Jobs))
	}
}

var drawOptions = []resample.Options{
	{Seed: 1},
	{Seed: 7, LoadFactor: 1.3, Duration: 104 * resample.Week},
	{Seed: 3, Stream: 2, LoadFactor: 0.6, WeekZeroArrivals: true, Duration: 30 * resample.Week},
	{Seed: 5, LoadFactor: 2.5, AlignLongTerm: true, InnerRate: true},
	{Seed: 9, LoadFactor: 1.5, CyclePhase: true, Duration: 80 * resample.Week},
	{Seed: 11, Prefer: &resample.Preference{Feature: resample.FeatureRuntime, High: true, Bias: 4}},
}

// A drawn workload's streamed jobs are the generated workload's, on the
// embedded log and on every real log.
func TestDrawMatchesGenerate(t *testing.T) {
	logs := []*trace.Trace{}
	kth, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	logs = append(logs, kth)
	if !testing.Short() && !quick {
		for _, l := range testdata.Logs {
			logs = append(logs, loadReal(t, l.File))
		}
	}
	for _, tr := range logs {
		t.Run(tr.Name, func(t *testing.T) {
			p, err := resample.Classify(tr, resample.ClassifyOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range drawOptions {
				checkDraw(t, p, o)
			}
			// From the longest stationary segment too (--stationary).
			segs, err := p.WeeklySegments(tr.Procs, resample.SegmentOptions{})
			if err != nil || len(segs) == 0 {
				return
			}
			sp, err := p.Segment(segs[resample.LongestSegment(segs)])
			if err != nil {
				t.Fatal(err)
			}
			checkDraw(t, sp, resample.Options{Seed: 2, AlignLongTerm: true, Duration: 60 * resample.Week})
		})
	}
}

// ExamplePools_Draw writes a resampled workload job by job: only the
// copies are held, whatever the workload's length.
func ExamplePools_Draw() {
	t, err := trace.Load("builtin:KTH-SP2", trace.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	pools, err := resample.Classify(t, resample.ClassifyOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := pools.Draw(resample.Options{Duration: 520 * resample.Week, Seed: 7})
	if err != nil {
		fmt.Println(err)
		return
	}
	var last int64
	ordered := true
	err = d.WriteJobs(trace.JobWriterFunc(func(j *trace.Job) error {
		ordered = ordered && j.Submit >= last
		last = j.Submit
		return nil // a trace.Writer would write the job here
	}))
	fmt.Println(err, ordered, d.Jobs > 10*t.Len()/2)
	// Output:
	// <nil> true true
}
