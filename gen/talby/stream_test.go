package talby

import (
	"errors"
	"reflect"
	"testing"

	"github.com/hpcwl/hpcwl/swf"
)

// TestStreamMatchesGenerate compares the records Stream hands out with the
// SWF records of the jobs Generate returns (session links included), and
// the counts and header, for machines of
// several sizes and seeds.
func TestStreamMatchesGenerate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		procs       int
		weeks, seed int
	}{{DefaultProcs, 3, 1}, {DefaultProcs, 10, 7}, {256, 6, 3}, {1024, 2, 9}, {1024, 30, 4}} {
		p, err := DefaultParams(c.procs)
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{Weeks: c.weeks, Seed: uint64(c.seed)}
		want, err := Generate(p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		var got []swf.Job
		w, err := Stream(p, cfg, func(j *swf.Job) error {
			got = append(got, *j)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(want.Jobs) == 0 || !reflect.DeepEqual(got, want.SWF()) {
			t.Errorf("%+v: %d jobs streamed, %d generated, or not the same", c, len(got), len(want.Jobs))
		}
		if w.Jobs != nil || w.Users != want.Users || w.Sessions != want.Sessions || w.Dropped != want.Dropped || w.UserClasses != want.UserClasses || w.UsersWithJobs != want.UsersWithJobs {
			t.Errorf("%+v: counts %+v, want %+v", c, *w, *want)
		}
		if h, hw := w.Header(p, cfg), want.Header(p, cfg); !reflect.DeepEqual(h, hw) {
			t.Errorf("%+v: header %v, want %v", c, h, hw)
		}
	}
	// The parameters fitted to KTH-SP2 (fitted start-up activity,
	// placement by start times, empirical runtimes).
	fp, _ := fitKTH(t, false)
	cfg := Config{Weeks: 30, Seed: 2}
	want, err := Generate(fp, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []swf.Job
	if _, err := Stream(fp, cfg, func(j *swf.Job) error {
		got = append(got, *j)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(want.Jobs) == 0 || !reflect.DeepEqual(got, want.SWF()) {
		t.Errorf("fitted to KTH-SP2: %d jobs streamed, %d generated, or not the same", len(got), len(want.Jobs))
	}
	// An error from fn stops the run and is returned.
	p, _ := DefaultParams(DefaultProcs)
	stop := errors.New("stop")
	if _, err := Stream(p, Config{Weeks: 4, Seed: 1}, func(*swf.Job) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("error from fn: got %v", err)
	}
}

// TestStreamWeekBoundary streams a workload with jobs submitted at the
// very second a week starts (seed 9, week 10): they belong to the next
// week's batch, after every job of the week before.
func TestStreamWeekBoundary(t *testing.T) {
	t.Parallel()
	p := defaults(t)
	cfg := Config{Weeks: 11, Seed: 9}
	want, err := Generate(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	at := 0
	for _, j := range want.Jobs {
		if j.Submit == 10*7*86400 {
			at++
		}
	}
	if at == 0 {
		t.Fatal("no job at the start of week 10: the case is not tested")
	}
	var got []swf.Job
	if _, err := Stream(p, cfg, func(j *swf.Job) error { got = append(got, *j); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want.SWF()) {
		t.Errorf("%d jobs streamed, %d generated, or not the same", len(got), len(want.Jobs))
	}
}
